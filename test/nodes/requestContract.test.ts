import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { z, type ZodTypeAny } from 'zod/v3';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { operationCases } from '../cases/operations';
import {
	contract,
	describedBy,
	nodeOperations,
	resolve,
	unwrap,
	type Json,
	type NodeOperation,
} from '../helpers/document';
import { SandboxFixture } from './helpers/sandbox';

/**
 * The tests with the sandbox check the requests the node sends; these check what it could send. Every
 * field that an operation's body schema (zod) accepts, however deep, must be a field of the document's
 * request body for that operation, and every query parameter its properties can send must be one the
 * document lists for it: a field or a name the spec lacks is never sent.
 */

/** The paths of fields the zod schema accepts and the document's schema does not have. */
function extraFields(zod: ZodTypeAny, doc: Json, path = ''): string[] {
	const type = unwrap(zod);
	const target = resolve(doc);
	const def = type._def as Json;
	if (def.typeName === 'ZodArray')
		return target.items ? extraFields(def.type, target.items, path) : [];
	if (def.typeName !== 'ZodObject') return [];
	const shape = (type as unknown as { shape: Record<string, ZodTypeAny> }).shape;
	return Object.entries(shape).flatMap(([key, child]) => {
		const field = `${path}${path ? '.' : ''}${key}`;
		const declared = target.properties?.[key] as Json | undefined;
		if (!declared) return target.additionalProperties === false ? [field] : [];
		return extraFields(child, declared, field);
	});
}

const bodySchemaOf = (name: string): Json => {
	const [method, template] = name.split(' ');
	const operation = (contract.document.paths as Json)[template][method.toLowerCase()] as Json;
	return resolve(operation.requestBody.content['application/json'].schema);
};

const OPERATIONS = Object.entries(resources).flatMap(([resource, { operations }]) =>
	Object.entries(operations).map(([operation, { endpoint }]) => ({
		name: `${endpoint.method} ${endpoint.path}`,
		label: `${resource} ${operation}`,
		endpoint,
	})),
);

describe("the node's requests against spec/openapi.yaml", () => {
	it('calls only operations of the document, and each of them from one operation', () => {
		const callers = (name: string) => OPERATIONS.filter((o) => o.name === name).map((o) => o.label);
		const problems = [
			...OPERATIONS.filter((o) => !contract.operationNames.includes(o.name)).map(
				(o) => `${o.label} calls ${o.name}, which the document lacks`,
			),
			...contract.operationNames
				.filter((name) => callers(name).length !== 1)
				.map((name) => `${name} is called by ${callers(name).join(' and ') || 'no operation'}`),
		];
		expect(problems).toEqual([]);
	});

	it.each(OPERATIONS.filter((o) => o.endpoint.body).map((o) => [o.label, o] as const))(
		'%s: every body field it can send is in the document',
		(_label, { name, endpoint }) => {
			const schema = endpoint.body!.schema();
			expect(extraFields(schema, describedBy(schema, bodySchemaOf(name)))).toEqual([]);
		},
	);

	it('finds a field the document lacks, at any depth', () => {
		const schema = z
			.object({
				name: z.string(),
				colour: z.string().optional(),
				recurrence: z.object({ FREQ: z.string(), TZ: z.string() }).optional(),
				procedures: z.array(z.object({ task: z.string(), cost: z.number() })),
			})
			.strict();
		expect(extraFields(schema, bodySchemaOf('POST /works'))).toEqual([
			'colour',
			'recurrence.TZ',
			'procedures.cost',
		]);
	});
});

/** Whether the document's success answer of an operation has a list as its `data`. */
function answersList(name: string): boolean {
	const [method, template] = name.split(' ');
	const operation = (contract.document.paths as Json)[template][method.toLowerCase()] as Json;
	const success = Object.entries(operation.responses as Json).find(([status]) => /^2/.test(status));
	const schema = resolve(resolve(success![1]).content['application/json'].schema);
	const data = resolve(schema.properties.data);
	if (data.type === 'array') return true;
	const variants = ((data.oneOf as Json[]) ?? [data]).map(resolve);
	expect(variants.every((variant) => variant.type === 'object')).toBe(true);
	return false;
}

describe("the answers' shapes against spec/openapi.yaml", () => {
	it.each(OPERATIONS.map((o) => [o.label, o] as const))(
		'%s expects the shape of data the document gives',
		(_label, { name, endpoint }) => {
			expect(endpoint.answers !== 'record').toBe(answersList(name));
		},
	);
});

/**
 * The node's properties that an operation sends as query parameters: its query fields, and the options
 * of its query collections (Filters, Options), each with the parameter that holds it.
 */
function queryProperties({ module, endpoint }: NodeOperation): Array<[string, INodeProperties]> {
	const named = (name: string) => module.description.filter((p) => p.name === name);
	return [
		...(endpoint.query ?? []).flatMap((name) =>
			named(name).map((p): [string, INodeProperties] => [name, p]),
		),
		...(endpoint.queryCollections ?? []).flatMap((collection) =>
			named(collection).flatMap((p) =>
				((p.options ?? []) as INodeProperties[]).map((o): [string, INodeProperties] => [
					`${collection}.${o.name}`,
					o,
				]),
			),
		),
	];
}

/**
 * A value the node takes for a property in run `run`: each choice of an options list in turn, every
 * choice of a multi-select at once, and a value of its type otherwise.
 */
function valueOf(property: INodeProperties, run: number): unknown {
	const choices = ((property.options ?? []) as INodePropertyOptions[]).map((o) => o.value);
	switch (property.type) {
		case 'options':
			return choices[run % choices.length];
		case 'multiOptions':
			return choices;
		case 'boolean':
			return true;
		case 'number':
			return 1;
		case 'dateTime':
			return '2026-01-02T03:04:05';
		default:
			return '1';
	}
}

/** The operation case's parameters with every query property set, to its `run`-th choice. */
function withEveryQueryOption(
	base: IDataObject,
	properties: Array<[string, INodeProperties]>,
	run: number,
): IDataObject {
	const parameters: IDataObject = structuredClone(base);
	for (const [path, property] of properties) {
		const [first, second] = path.split('.');
		if (second === undefined) parameters[first] = valueOf(property, run) as IDataObject;
		else
			parameters[first] = {
				...(parameters[first] as IDataObject | undefined),
				[second]: valueOf(property, run),
			};
	}
	return parameters;
}

const unusedCheck = () => Promise.reject(new Error('the query contract runs no case checks'));
const CASES = operationCases(unusedCheck, unusedCheck);
const QUERY_OPERATIONS = nodeOperations
	.map((op) => ({ op, properties: queryProperties(op) }))
	.filter(({ properties }) => properties.length);

describe('the query parameters the node can send, against spec/openapi.yaml', () => {
	const fixture = new SandboxFixture();
	beforeAll(async () => await fixture.start());
	afterAll(async () => await fixture.stop());

	it('are found in the node: lists, Get, and the writes that take expanded', () => {
		expect(QUERY_OPERATIONS.map(({ op }) => op.label)).toEqual(
			expect.arrayContaining(['failure getAll', 'location get', 'sellOrderLine create']),
		);
	});

	it.each(QUERY_OPERATIONS.map(({ op, properties }) => [op.label, op, properties] as const))(
		'%s sends, with each of its query options set, only names the document lists for it',
		async (label, op, properties) => {
			const [resource, operation] = label.split(' ');
			const base = CASES.find((c) => c.resource === resource && c.operation === operation);
			expect(base).toBeDefined();
			const listed = op.parameters.filter((p) => p.in === 'query').map((p) => String(p.name));
			const runs = Math.max(
				1,
				...properties
					.filter(([, p]) => p.type === 'options')
					.map(([, p]) => (p.options ?? []).length),
			);
			const sent = new Set<string>();
			for (let run = 0; run < runs; run++) {
				await fixture.reset();
				await fixture.run({
					resource,
					operation,
					...withEveryQueryOption(base!.parameters, properties, run),
				});
				const requests = await fixture.requests();
				expect(requests.length).toBeGreaterThan(0);
				for (const request of requests)
					for (const name of Object.keys(request.query)) sent.add(name);
			}
			const where = `${op.endpoint.method} ${op.template}`;
			expect({
				'sent, not listed': [...sent]
					.filter((name) => !listed.includes(name))
					.map(
						(name) => `${label} sends ${name}, which spec/openapi.yaml does not list for ${where}`,
					),
				'set, not sent': properties
					.map(([path]) => path.split('.').at(-1)!)
					.filter((name) => !sent.has(name))
					.map((name) => `${label} never sends ${name}`),
			}).toEqual({ 'sent, not listed': [], 'set, not sent': [] });
		},
	);
});
