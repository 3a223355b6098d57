import { z, type ZodTypeAny } from 'zod';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { Contract } from '../../sandbox/contract';

/**
 * The tests with the sandbox check the requests the node sends; this one checks what it could send. Every
 * field that an operation's body schema (zod) accepts, however deep, must be a field of the document's
 * request body for that operation: a field the spec lacks is never sent.
 */

type Json = Record<string, any>;
const contract = Contract.load();

/** Zod's wrappers (optional, nullable, default, effects, pipelines, lazy) taken off, down to the type. */
function unwrap(schema: ZodTypeAny): ZodTypeAny {
	const def = schema._def as Json;
	const inner = def.innerType ?? def.schema ?? def.in ?? (def.getter ? def.getter() : undefined);
	return inner ? unwrap(inner) : schema;
}

/** The document's schema with its `$ref` followed and its `allOf` parts merged. */
function resolve(schema: Json): Json {
	if (schema.$ref) {
		const path = String(schema.$ref).replace(/^#\//, '').split('/');
		return resolve(path.reduce<Json>((node, key) => node[key], contract.document));
	}
	const parts = ((schema.allOf as Json[]) ?? []).map(resolve);
	return parts.reduce<Json>(
		(merged, part) => ({
			...part,
			...merged,
			properties: { ...part.properties, ...merged.properties },
		}),
		schema,
	);
}

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

/**
 * What a body schema of the node describes in the document: the body, or, when the body is one array
 * the schema does not name (PATCH /locations: `locations`), one element of it, as each input item is.
 */
function describedBy(zod: ZodTypeAny, body: Json): Json {
	const fields = Object.entries((body.properties ?? {}) as Json);
	const shape = (unwrap(zod) as unknown as { shape?: Record<string, ZodTypeAny> }).shape ?? {};
	if (fields.length !== 1 || fields[0][0] in shape) return body;
	const only = resolve(fields[0][1]);
	return only.type === 'array' ? resolve(only.items) : body;
}

const OPERATIONS = Object.entries(resources).flatMap(([resource, { operations }]) =>
	Object.entries(operations).map(([operation, { endpoint }]) => ({
		name: `${endpoint.method} ${endpoint.path}`,
		label: `${resource} ${operation}`,
		endpoint,
	})),
);

describe("the node's requests against spec/openapi.yaml", () => {
	it('calls only operations of the document, and all of them', () => {
		expect(OPERATIONS.map((o) => o.name).sort()).toEqual([...contract.operationNames].sort());
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
			expect(Boolean(endpoint.list || endpoint.answersList)).toBe(answersList(name));
		},
	);
});
