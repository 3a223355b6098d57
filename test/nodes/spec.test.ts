import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { ZodTypeAny } from 'zod/v3';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import type { OperationModule } from '../../nodes/shared/types';
import { issuePath } from '../../nodes/shared/schemas';
import {
	contract,
	deref,
	describedBy,
	document,
	nodeOperations,
	resolve,
	shapeOf,
	unwrap,
	type Json,
	type NodeOperation,
} from '../helpers/document';

/**
 * The node against spec/openapi.yaml, the one place of the API's facts, in both directions and for
 * every operation: the values it offers, what it requires, what it can send, and every if/then rule of
 * a request body. Each problem names the operation and the field; nothing of the document is restated.
 */

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

/** Every property of an operation, in collections and fixed collections too. */
function allProperties(properties: readonly unknown[]): INodeProperties[] {
	return properties.flatMap((entry) => {
		const p = entry as INodeProperties & { values?: INodeProperties[] };
		const children = [
			...(p.values ?? []),
			...((p.options ?? []).filter((o) => !('value' in o)) as unknown[]),
		];
		return [p, ...allProperties(children)];
	});
}

/** The names of the options of the node's collection parameters named. */
const optionNames = (op: NodeOperation, collections: string[] = []) =>
	op.module.description
		.filter((p) => collections.includes(p.name))
		.flatMap((p) => (p.options ?? []).map((o) => String(o.name)));

/**
 * The values a pattern enumerates: one of a few words (`^(a|b)$`), a comma list of them
 * (`^(a|b)(,(a|b))*$`, as `expanded` is), either with an optional trailing `-` (as `sort` is).
 */
function enumerated(pattern: string): string[] | undefined {
	const match = /^\^\(([\w|]+)\)(?:\(,\(\1\)\)\*)?(-\?)?\$$/.exec(pattern);
	if (!match) return undefined;
	const words = match[1].split('|');
	return match[2] ? words.flatMap((word) => [word, `${word}-`]) : words;
}

/** What the document allows for a field: its enum (or its items'), or its pattern and what that enumerates. */
function allowedBy(schema: Json): { values?: unknown[]; pattern?: string } | undefined {
	const s = deref(schema);
	const items = deref(s.items);
	const values = s.enum ?? items.enum;
	if (values) return { values };
	const pattern = (s.pattern ?? items.pattern) as string | undefined;
	return pattern ? { pattern, values: enumerated(pattern) } : undefined;
}

/** Every value the node offers for a field, against every value the document allows for it. */
function valueProblems(op: NodeOperation): string[] {
	const fields = [
		...fieldsOf(op.body),
		...op.parameters.map((p): [string, Json] => [String(p.name), deref(p.schema)]),
	];
	return allProperties(op.module.description).flatMap((property) => {
		if (property.type !== 'options' && property.type !== 'multiOptions') return [];
		if (!(property.options ?? []).every((o) => 'value' in o)) return [];
		// The node's "null" option sends null, a value the document lists where a field may be cleared.
		const offered = (property.options as INodePropertyOptions[]).map((o) =>
			o.value === 'null' ? null : o.value,
		);
		const field = `${op.label}: ${property.name}`;
		return fields
			.filter(([name]) => name === property.name)
			.flatMap(([, schema]) => {
				const allowed = allowedBy(schema);
				if (!allowed) return [];
				const { values, pattern } = allowed;
				const refused = offered.filter((value) =>
					values ? !values.includes(value) : !new RegExp(pattern!).test(String(value)),
				);
				const missing = (values ?? []).filter(
					(value) =>
						!offered.includes(value as never) && (value !== null || offered.includes(null)),
				);
				const rule = values ? `it allows ${values.map(String).join(', ')}` : `pattern ${pattern}`;
				return [
					...refused.map(
						(v) => `${field} offers ${JSON.stringify(v)}, which the document refuses (${rule})`,
					),
					...missing.map(
						(v) => `${field} does not offer ${JSON.stringify(v)}, which the document allows`,
					),
				];
			});
	});
}

/** A body's `required` lists, at any depth, against the fields the node's zod schema requires. */
function requiredInSchema(label: string, zod: ZodTypeAny, doc: Json, at = ''): string[] {
	const s = resolve(doc);
	const shape = shapeOf(zod);
	const required = (s.required ?? []) as string[];
	const problems = required
		.filter((name) => !('const' in deref(s.properties?.[name]))) // the node adds a constant itself
		.flatMap((name) =>
			!(name in shape)
				? [
						`${label}: ${at}${name} is required by the document, and the node's schema has no such field`,
					]
				: shape[name].isOptional()
					? [
							`${label}: ${at}${name} is required by the document, and the node's schema lets it be left out`,
						]
					: [],
		);
	for (const [name, child] of Object.entries(shape)) {
		const declared = s.properties?.[name] as Json | undefined;
		if (!declared) continue;
		if (!child.isOptional() && !required.includes(name))
			problems.push(`${label}: the node's schema requires ${at}${name}, the document does not`);
		const inner = unwrap(child)._def as Json;
		const field = resolve(declared);
		if (inner.typeName === 'ZodArray' && field.items)
			problems.push(...requiredInSchema(label, inner.type, field.items, `${at}${name}[].`));
		if (inner.typeName === 'ZodObject' && field.properties)
			problems.push(...requiredInSchema(label, child, field, `${at}${name}.`));
	}
	return problems;
}

/** The required lists against the node's schema, and against the parameters the node marks required. */
function requiredProblems(op: NodeOperation): string[] {
	const body = op.endpoint.body;
	if (!body) return [];
	const zod = body.schema();
	const doc = resolve(describedBy(zod, op.body));
	const required = (doc.required ?? []) as string[];
	const marked = (name: string) => op.module.description.find((p) => p.name === name)?.required;
	return [
		...requiredInSchema(op.label, zod, doc),
		...(body.fields ?? []).flatMap((name) =>
			required.includes(name) && !marked(name)
				? [
						`${op.label}: ${name} is required by the document, and the node's parameter is not marked required`,
					]
				: !required.includes(name) && marked(name) && doc.properties?.[name]
					? [
							`${op.label}: the node's parameter ${name} is marked required, the document does not require it`,
						]
					: [],
		),
		...optionNames(op, body.collections)
			.filter((name) => required.includes(name))
			.map(
				(name) =>
					`${op.label}: ${name} is required by the document, and the node offers it only as an optional field`,
			),
	];
}

/** Every parameter and body field the document defines for an operation, against what the node can send. */
function sendingProblems(op: NodeOperation): string[] {
	const { endpoint, label } = op;
	const top = new Set(op.module.description.map((p) => p.name));
	const problems = [...op.template.matchAll(/\{([^}]+)\}/g)]
		.map(([, slot]) => [slot, endpoint.pathParams?.[slot] ?? slot])
		.filter(([, parameter]) => !top.has(parameter))
		.map(
			([slot, parameter]) => `${label}: path parameter ${slot} has no node parameter ${parameter}`,
		);
	const queryOptions = optionNames(op, endpoint.queryCollections);
	for (const { name, in: where } of op.parameters) {
		if (where !== 'query' || (endpoint.answers === 'page' && ['page', 'limit'].includes(name)))
			continue;
		if (!(endpoint.query ?? []).includes(name) && !queryOptions.includes(name))
			problems.push(
				`${label}: the document's query parameter ${name} has no node parameter to send it`,
			);
	}
	if (!endpoint.body) {
		if (Object.keys(op.body).length)
			problems.push(`${label}: the document takes a request body, the node sends none`);
		return problems;
	}
	const zod = endpoint.body.schema();
	const doc = resolve(describedBy(zod, op.body));
	const shape = shapeOf(zod);
	const settable = [...(endpoint.body.fields ?? []), ...optionNames(op, endpoint.body.collections)];
	for (const [name, schema] of Object.entries((doc.properties ?? {}) as Json)) {
		if ('const' in deref(schema)) continue; // the node adds a constant itself
		if (!(name in shape))
			problems.push(
				`${label}: the document's body field ${name} is not in the node's schema, so it is never sent`,
			);
		else if (!settable.includes(name))
			problems.push(`${label}: the document's body field ${name} has no node parameter to set it`);
	}
	return problems;
}

/** A zod schema's type under its wrappers (preprocess, effects, optional, default…), and whether it takes null. */
function zodType(schema: ZodTypeAny): { type: ZodTypeAny; nullable: boolean } {
	const def = schema._def as Json;
	const inner = def.innerType ?? def.schema ?? def.in ?? (def.getter ? def.getter() : undefined);
	if (!inner) return { type: schema, nullable: false };
	const found = zodType(inner);
	return { ...found, nullable: found.nullable || def.typeName === 'ZodNullable' };
}

/** The JSON types a zod type accepts, as the document names them. */
function zodJsonTypes(type: ZodTypeAny): string[] {
	const def = type._def as Json;
	const checks = (def.checks ?? []) as Json[];
	switch (def.typeName) {
		case 'ZodString':
		case 'ZodEnum':
			return ['string'];
		case 'ZodNumber':
			return [checks.some((check) => check.kind === 'int') ? 'integer' : 'number'];
		case 'ZodBoolean':
			return ['boolean'];
		case 'ZodArray':
			return ['array'];
		case 'ZodObject':
			return ['object'];
		case 'ZodLiteral':
			return [typeof def.value];
		case 'ZodUnion':
			return [
				...new Set((def.options as ZodTypeAny[]).flatMap((o) => zodJsonTypes(zodType(o).type))),
			];
		default:
			return [String(def.typeName)];
	}
}

/** The string formats zod checks, by the document's names for them. */
const ZOD_FORMATS: Record<string, string> = {
	email: 'email',
	url: 'uri',
	uuid: 'uuid',
	datetime: 'date-time',
	date: 'date',
	time: 'time',
};

/** The JSON types, the format and the enum the document gives a field, its `anyOf`/`oneOf` alternatives merged. */
function documentType(schema: Json): {
	types: string[];
	nullable: boolean;
	format?: string;
	values?: unknown[];
} {
	const s = resolve(schema);
	const alternatives = ((s.anyOf ?? s.oneOf ?? []) as Json[]).map(documentType);
	const own = ([] as string[]).concat(
		s.type ??
			(s.enum
				? [...new Set(s.enum.filter((v: unknown) => v !== null).map((v: unknown) => typeof v))]
				: []),
	);
	const types = [...new Set([...own, ...alternatives.flatMap((a) => a.types)])];
	return {
		types: types.filter((type) => type !== 'null'),
		nullable:
			types.includes('null') ||
			s.nullable === true ||
			(s.enum ?? []).includes(null) ||
			alternatives.some((a) => a.nullable),
		format: s.format as string | undefined,
		values: s.enum ? (s.enum as unknown[]).filter((v) => v !== null) : undefined,
	};
}

/** One field of the node's schema against the document's: type, null, format and enum; then its fields and items. */
function fieldTypeProblems(label: string, zod: ZodTypeAny, doc: Json, at: string): string[] {
	const { type, nullable } = zodType(zod);
	const def = type._def as Json;
	const field = resolve(doc);
	if ('const' in field) return [];
	const declared = documentType(field);
	const node = zodJsonTypes(type);
	const sorted = (list: unknown[]) => JSON.stringify([...list].map(String).sort());
	const problems: string[] = [];
	const where = `${label}: ${at}`;
	if (declared.types.length && sorted(node) !== sorted(declared.types))
		problems.push(
			`${where} is ${node.join(' or ')} in the node's schema, ${declared.types.join(' or ')} in the document`,
		);
	if (nullable && !declared.nullable)
		problems.push(`${where} takes null in the node's schema, the document does not`);
	const formats = ((def.checks ?? []) as Json[])
		.map((check) => ZOD_FORMATS[check.kind])
		.filter(Boolean);
	if (sorted(formats) !== sorted(declared.format ? [declared.format] : []))
		problems.push(
			`${where} has format ${formats.join(', ') || 'none'} in the node's schema, ${declared.format ?? 'none'} in the document`,
		);
	const values =
		def.typeName === 'ZodEnum'
			? (def.values as unknown[])
			: def.typeName === 'ZodLiteral'
				? [def.value]
				: undefined;
	if (declared.values && values && sorted(values) !== sorted(declared.values))
		problems.push(
			`${where} allows ${values.join(', ')} in the node's schema, ${declared.values.join(', ')} in the document`,
		);
	else if (declared.values && !values && node.includes('string'))
		problems.push(
			`${where} is free text in the node's schema, one of ${declared.values.join(', ')} in the document`,
		);
	else if (values && !declared.values)
		problems.push(
			`${where} allows only ${values.join(', ')} in the node's schema, the document lists no values`,
		);
	if (def.typeName === 'ZodArray' && field.items)
		problems.push(...fieldTypeProblems(label, def.type, field.items, `${at}[]`));
	if (def.typeName === 'ZodObject')
		problems.push(...fieldsTypeProblems(label, type, field, `${at}.`));
	return problems;
}

/** Each field of a zod object that the document's object has, against it. */
const fieldsTypeProblems = (label: string, zod: ZodTypeAny, doc: Json, at = ''): string[] =>
	Object.entries(shapeOf(zod)).flatMap(([name, child]) => {
		const declared = resolve(doc).properties?.[name] as Json | undefined;
		return declared ? fieldTypeProblems(label, child, declared, `${at}${name}`) : [];
	});

/** Every body field and checked query parameter of the node's schemas against the document's type, format and enum. */
function typeProblems(op: NodeOperation): string[] {
	const { body, querySchema } = op.endpoint;
	const query = Object.fromEntries(
		op.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
	);
	return [
		...(body
			? fieldsTypeProblems(op.label, body.schema(), describedBy(body.schema(), op.body))
			: []),
		...(querySchema
			? fieldsTypeProblems(op.label, querySchema(), { properties: query }, 'query ')
			: []),
	];
}

/**
 * Where the node knowingly differs from the document, and why. Any other difference fails, and so does
 * one listed here that is gone (then remove it from the list).
 */
const KNOWN: Record<string, string> = {
	"failure getAllOpen: the document's query parameter local_id has no node parameter to send it":
		'The node filters by location with s_local_id, the form the specification names for this endpoint.',
	"failure getAll: the document's query parameter s_failure_id has no node parameter to send it":
		'One work order by its ID, whatever its status, goes through Query Parameters (docs/lists-filters-ids.md).',
	"location getAll: the document's query parameter s_name_like has no node parameter to send it":
		"The Location picker's list search sends it (methods/listSearch.ts).",
	"supplier getAll: the document's query parameter s_name_like has no node parameter to send it":
		"The Supplier picker's list search sends it (methods/listSearch.ts).",
	"buyOrder getAll: the document's query parameter s_code_like has no node parameter to send it":
		"The Buy Order picker's list search sends it (methods/listSearch.ts).",
	"work create: the node's schema requires interventions[].elements[].id, the document does not":
		'An element without its ID names no asset.',
	"work create: the node's schema requires work_notifications[].trigger, the document does not":
		'A notification without its trigger (CLOSE or CONFIRM) would never be sent.',
	"quoteLine create: the node's schema requires type, the document does not":
		"The document's if/then rules on type decide which fields a line needs, so the node asks for it.",
	"quoteLine create: the node's parameter type is marked required, the document does not require it":
		'As above.',
	"contact checkOrCreate: email has format email in the node's schema, none in the document":
		'The node refuses a mistyped address before sending; the document gives the field no format.',
};

const CHECKS = {
	values: valueProblems,
	required: requiredProblems,
	sending: sendingProblems,
	types: typeProblems,
	deprecation: deprecationProblems,
};
/** Whether the document deprecates an operation. */
const deprecatedBy = (op: NodeOperation): boolean =>
	document.paths[op.template]?.[op.endpoint.method.toLowerCase()]?.deprecated === true;

/** The Operation selector's option of an operation, and its resource's label. */
function labelsOf(op: NodeOperation): {
	option: INodePropertyOptions & { action?: string };
	resource: string;
} {
	const [resource, operation] = op.label.split(' ');
	const { displayName, description } = resources[resource];
	const selector = description.find((property) => property.name === 'operation');
	const options = (selector?.options ?? []) as Array<INodePropertyOptions & { action?: string }>;
	return { option: options.find((o) => o.value === operation)!, resource: displayName };
}

/** The labels that say "(Deprecated)" against the document's `deprecated`, both ways. */
function deprecationProblems(op: NodeOperation): string[] {
	const { option, resource } = labelsOf(op);
	const deprecated = deprecatedBy(op);
	const all = nodeOperations
		.filter((other) => other.label.split(' ')[0] === op.label.split(' ')[0])
		.every(deprecatedBy);
	const says = {
		name: / \(Deprecated\)$/.test(option.name),
		action: / \(deprecated\)$/.test(option.action ?? ''),
		description: /^\(Deprecated\) /.test(option.description ?? ''),
	};
	const problems = Object.entries(says)
		.filter(([, marked]) => marked !== deprecated)
		.map(([where]) =>
			deprecated
				? `${op.label}: the document deprecates it, its ${where} does not say (Deprecated)`
				: `${op.label}: its ${where} says (Deprecated), the document does not deprecate it`,
		);
	if (/ \(Deprecated\)$/.test(resource) !== all)
		problems.push(
			all
				? `${op.label}: the document deprecates every operation of ${resource}, its label does not say (Deprecated)`
				: `${op.label}: ${resource} is labelled (Deprecated), the document does not deprecate all its operations`,
		);
	return problems;
}

const unknown = (problems: string[]) => problems.filter((problem) => !(problem in KNOWN));

describe.each(nodeOperations)('$label against spec/openapi.yaml', (op) => {
	it('is an operation of the document, by its method and path', () => {
		expect(op.unmatched).toBeUndefined();
	});

	it('offers for each parameter only values the document allows, and every one of them', () => {
		expect(unknown(CHECKS.values(op))).toEqual([]);
	});

	it("requires what the document's required lists require, no more and no less", () => {
		expect(unknown(CHECKS.required(op))).toEqual([]);
	});

	it('can send every parameter and body field the document defines for it', () => {
		expect(unknown(CHECKS.sending(op))).toEqual([]);
	});

	it('gives each field the type, null, format and values the document gives it', () => {
		expect(unknown(CHECKS.types(op))).toEqual([]);
	});

	it('is labelled (Deprecated) where the document deprecates it, and only there', () => {
		expect(unknown(CHECKS.deprecation(op))).toEqual([]);
	});
});

describe('the checks of the node against the document', () => {
	it('still find each difference known to be deliberate', () => {
		const found = nodeOperations.flatMap((op) =>
			Object.values(CHECKS).flatMap((check) => check(op)),
		);
		expect(Object.keys(KNOWN).filter((problem) => !found.includes(problem))).toEqual([]);
	});

	it('read the values a pattern enumerates, and only from a pattern that enumerates them', () => {
		expect(enumerated('^(a|b_c)(,(a|b_c))*$')).toEqual(['a', 'b_c']);
		expect(enumerated('^(start_date|priority)-?$')).toEqual([
			'start_date',
			'start_date-',
			'priority',
			'priority-',
		]);
		expect(enumerated('^(a|b)(,(a|c))*$')).toBeUndefined();
		expect(enumerated('\\S')).toBeUndefined();
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

const ruleRows = nodeOperations.flatMap(({ label, module, endpoint, bodyAsWritten: body }) => {
	const { method } = endpoint;
	const path = endpoint.path.replace(/\{[^}]+\}/g, '1');
	return rulesOf(body).map(({ rule, at, holder }) => ({
		label: `${label} ${at.join('.') || 'body'}: ${JSON.stringify(deref(rule.if).properties)}`,
		module,
		method,
		path,
		body,
		sent: placed(least(body), at, meeting(deref(rule.if), holder, least(holder) as Json)) as Json,
	}));
});

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
			const named = result.success ? [] : result.error.issues.map(issuePath);
			expect(named).toEqual(expect.arrayContaining(refused));
		},
	);
});
