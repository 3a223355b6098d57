import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { ZodIssue } from 'zod';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import type { OperationModule } from '../../nodes/MaintenanceManagement/actions/types';
import { Contract } from '../../sandbox/contract';

/**
 * The node against spec/openapi.yaml, the one place of the API's facts: every enum the node offers as
 * options and every if/then rule of a request body, read from the document, not restated here.
 */
type Json = Record<string, any>;

const contract = Contract.load();
const document = contract.document as Json;

/** Follows a `$ref` of the document. */
const deref = (schema: Json | undefined): Json =>
	typeof schema?.$ref === 'string'
		? deref(
				schema.$ref
					.slice(2)
					.split('/')
					.reduce((value: Json, key: string) => value[key], document),
			)
		: (schema ?? {});

const operations = Object.values(resources).flatMap((resource) =>
	Object.entries(resource.operations).map(([name, module]) => {
		const { method, path } = module.endpoint;
		const found = contract.operation(method, path.replace(/\{[^}]+\}/g, '1'));
		if (!found) throw new Error(`${method} ${path} is not an operation of the document`);
		const item = document.paths[found.template] as Json;
		const operation = item[method.toLowerCase()] as Json;
		return {
			label: `${resource.value} ${name}`,
			module,
			method,
			path: path.replace(/\{[^}]+\}/g, '1'),
			body: deref(deref(operation.requestBody).content?.['application/json']?.schema),
			query: [...(item.parameters ?? []), ...(operation.parameters ?? [])]
				.map(deref)
				.filter((p) => p.in === 'query'),
		};
	}),
);

/** Every named field of a schema at any depth, with its schema (an `if` only tests, it names no field). */
function fieldsOf(
	schema: Json | undefined,
	out: Array<[string, Json]> = [],
): Array<[string, Json]> {
	const s = deref(schema);
	for (const [name, sub] of Object.entries((s.properties ?? {}) as Json)) {
		out.push([name, deref(sub)]);
		fieldsOf(sub, out);
	}
	for (const key of ['items', 'then', 'else']) if (s[key]) fieldsOf(s[key], out);
	for (const key of ['allOf', 'anyOf', 'oneOf'])
		for (const sub of (s[key] ?? []) as Json[]) fieldsOf(sub, out);
	return out;
}

const enumOf = (schema: Json): unknown[] | undefined => schema.enum ?? deref(schema.items).enum;

/** Every options-type property of an operation, in collections and fixed collections too. */
function optionProperties(properties: readonly unknown[]): INodeProperties[] {
	return properties.flatMap((entry) => {
		const p = entry as INodeProperties & { values?: INodeProperties[] };
		const own =
			(p.type === 'options' || p.type === 'multiOptions') &&
			(p.options ?? []).every((o) => 'value' in o)
				? [p]
				: [];
		const children = [
			...(p.values ?? []),
			...((p.options ?? []).filter((o) => !('value' in o)) as unknown[]),
		];
		return [...own, ...optionProperties(children)];
	});
}

const enumRows = operations.flatMap(({ label, module, body, query }) => {
	const fields = [
		...fieldsOf(body),
		...query.map((p): [string, Json] => [String(p.name), deref(p.schema)]),
	];
	return optionProperties(module.description).flatMap((property) => {
		const enums = fields
			.filter(([name, schema]) => name === property.name && enumOf(schema))
			.map(([, schema]) => enumOf(schema)!);
		return enums.length ? [{ label: `${label} ${property.name}`, property, enums }] : [];
	});
});

describe('the node and spec/openapi.yaml', () => {
	it('finds options whose names are fields of the document', () => {
		expect(enumRows.length).toBeGreaterThan(0);
	});

	it.each(enumRows)('$label offers exactly the document’s values', ({ property, enums }) => {
		// The node's "null" option sends null, a value the document lists where a field may be cleared.
		const offered = (property.options as INodePropertyOptions[]).map((o) =>
			o.value === 'null' ? null : o.value,
		);
		const sorted = (values: unknown[]) => values.map(String).sort();
		for (const values of enums)
			expect(sorted(offered)).toEqual(
				sorted(values.filter((v) => v !== null || offered.includes(null))),
			);
	});
});

/** The least body a schema takes: its required fields, each with a value of its type. */
function least(schema: Json | undefined): unknown {
	const s = deref(schema);
	if ('const' in s) return s.const;
	if (s.enum) return s.enum.find((v: unknown) => v !== null);
	const type = ([] as string[]).concat(s.type ?? 'object').find((t) => t !== 'null');
	if (type === 'integer' || type === 'number') return Math.max(1, s.minimum ?? 1);
	if (type === 'boolean') return true;
	if (type === 'string')
		return ['x', '1', '08:00'].find((v) => !s.pattern || new RegExp(s.pattern).test(v));
	if (type === 'array') return [least(s.items)];
	const required = (s.required ?? []) as string[];
	return Object.fromEntries(required.map((name) => [name, least(s.properties?.[name])]));
}

/** A body that meets an `if`: its consts and enums, inside the body's own least values. */
function meeting(condition: Json, schema: Json, base: Json): Json {
	const out = { ...base };
	for (const [name, sub] of Object.entries((condition.properties ?? {}) as Json)) {
		const field = deref(deref(schema).properties?.[name]);
		out[name] =
			'const' in sub
				? sub.const
				: sub.enum
					? sub.enum[0]
					: sub.properties
						? meeting(sub, field, (base[name] as Json) ?? {})
						: least(field);
	}
	return out;
}

type Key = string | number;

/**
 * The `if`/`then` rules of a body schema at any depth, each with where it applies and the object schema
 * whose fields it tests (a rule gathered by `allOf` tests the fields of the schema that gathers it).
 */
const rulesOf = (
	schema: Json,
	at: Key[] = [],
	holder?: Json,
): Array<{ rule: Json; at: Key[]; holder: Json }> => {
	const s = deref(schema);
	const own = s.properties ? s : (holder ?? s);
	return [
		...(s.if && s.then ? [{ rule: s, at, holder: own }] : []),
		...((s.allOf ?? []) as Json[]).flatMap((sub) => rulesOf(sub, at, own)),
		...Object.entries((s.properties ?? {}) as Json).flatMap(([name, sub]) =>
			rulesOf(sub, [...at, name]),
		),
		...(s.items ? rulesOf(s.items, [...at, 0]) : []),
	];
};

/** A copy of a body with a value placed at a path, the objects and arrays on the way created. */
const placed = (body: unknown, at: Key[], value: unknown): unknown => {
	if (!at.length) return value;
	const [key, ...rest] = at;
	const copy: any = Array.isArray(body) ? [...body] : { ...(body as Json) };
	copy[key] = placed(copy[key] ?? (typeof rest[0] === 'number' ? [] : {}), rest, value);
	return copy;
};

const fieldPath = (issue: ZodIssue) =>
	issue.path.reduce<string>(
		(path, key) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key),
		'',
	);

const ruleRows = operations.flatMap(({ label, module, method, path, body }) =>
	rulesOf(body).map(({ rule, at, holder }) => ({
		label: `${label} ${at.join('.') || 'body'}: ${JSON.stringify(deref(rule.if).properties)}`,
		module,
		method,
		path,
		body,
		sent: placed(least(body), at, meeting(deref(rule.if), holder, least(holder) as Json)) as Json,
	})),
);

describe('the if/then rules of spec/openapi.yaml', () => {
	it('are found in the document', () => {
		expect(ruleRows.length).toBeGreaterThan(0);
	});

	it.each(ruleRows)(
		'$label: a body the document refuses, the node refuses on the same fields',
		({
			module,
			method,
			path,
			body,
			sent,
		}: {
			module: OperationModule;
			method: string;
			path: string;
			body: Json;
			sent: Json;
		}) => {
			const refused = Object.keys(contract.bodyProblems(method, path, sent));
			expect(refused.length).toBeGreaterThan(0);
			// The node adds the document's constants (such as _type) itself.
			const input = Object.fromEntries(
				Object.entries(sent).filter(([name]) => !('const' in deref(body.properties?.[name]))),
			);
			const result = module.endpoint.body!.schema().safeParse(input);
			expect(result.success).toBe(false);
			const named = result.success ? [] : result.error.issues.map(fieldPath);
			expect(named).toEqual(expect.arrayContaining(refused));
		},
	);
});
