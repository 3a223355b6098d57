import { z, type ZodTypeAny } from 'zod';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { contract, describedBy, resolve, unwrap, type Json } from '../helpers/document';

/**
 * The tests with the sandbox check the requests the node sends; this one checks what it could send. Every
 * field that an operation's body schema (zod) accepts, however deep, must be a field of the document's
 * request body for that operation: a field the spec lacks is never sent.
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
