/**
 * The output schemas of the action node: one JSON schema per operation of its current version, for the
 * Simplified output (the default), written by `npm run build` (gulpfile.js) to
 * `dist/nodes/MaintenanceManagement/__schema__/v<version>/<resource>/<operation>.json`, where n8n serves
 * them (`GET /schemas/<node type>/<version>/<resource>/<operation>.json`) as the next node's input
 * before the node has run.
 *
 * Nothing is written twice: each operation's answer comes from spec/openapi.yaml (the schema of its
 * `data`, every attribute of every record type it may hold), and the fields, their names and their
 * order come from running the node's own Simplified shaping (nodes/shared/simplify.ts) on a record of each
 * type with every attribute, relation and meta entry set. Each field's description names the field
 * of the Raw output it comes from.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { parse } from 'yaml';

import { resources } from '../nodes/MaintenanceManagement/actions/resources';
import { CURRENT_VERSION } from '../nodes/shared/properties';
import type { OperationModule } from '../nodes/shared/types';
import { toItems } from '../nodes/shared/simplify';
import type { ApiResource } from '../nodes/MaintenanceManagement/transport';

type Json = Record<string, unknown>;

/** A JSON schema as n8n reads it for a preview: a type, and an object's properties in order. */
export interface OutputSchema {
	/** Absent where the spec gives no type: any JSON value. */
	type?: string | string[];
	description?: string;
	properties?: Record<string, OutputSchema>;
	items?: OutputSchema;
	enum?: unknown[];
	format?: string;
	additionalProperties?: boolean;
}

export interface OperationSchema {
	resource: string;
	operation: string;
	schema: OutputSchema;
}

const SPEC_PATH = join(__dirname, '..', 'spec', 'openapi.yaml');

/** The folder n8n reads a node version's schemas from: `v` and the version as major.minor.patch. */
export const schemaFolder = (version: number): string => {
	const [major, minor = '0', patch = '0'] = String(version).split('.');
	return `v${major}.${minor}.${patch}`;
};

export class Spec {
	constructor(private readonly document: Json) {}

	static load(path = SPEC_PATH): Spec {
		return new Spec(parse(readFileSync(path, 'utf8')) as Json);
	}

	/** A schema with its `$ref` followed. */
	resolve(schema: unknown): Json {
		let node = (schema ?? {}) as Json;
		while (typeof node.$ref === 'string') {
			node = node.$ref
				.slice(2)
				.split('/')
				.reduce<Json>((at, key) => at[key] as Json, this.document);
		}
		return node;
	}

	/** An object schema's properties, its `allOf` members' merged in, in the document's order. */
	properties(schema: unknown): Record<string, Json> {
		const node = this.resolve(schema);
		const merged: Record<string, Json> = {};
		for (const member of (node.allOf as unknown[]) ?? [])
			Object.assign(merged, this.properties(member));
		for (const [name, value] of Object.entries((node.properties as Json) ?? {}))
			merged[name] = merged[name] ? { ...merged[name], ...(value as Json) } : (value as Json);
		return merged;
	}

	/** The record schemas a `data` schema allows: one per `oneOf` member, a list's items. */
	records(schema: unknown): Json[] {
		const node = this.resolve(schema);
		if (node.type === 'array' || node.items) return this.records(node.items);
		const members = (node.oneOf ?? node.anyOf) as unknown[] | undefined;
		return members ? members.flatMap((member) => this.records(member)) : [node];
	}

	/** The schema of an endpoint's successful answer. */
	answer(method: string, path: string): Json {
		const shape = (template: string) => template.replace(/\{[^}]+\}/g, '{}');
		const paths = this.document.paths as Record<string, Json>;
		// A concrete path (`/locations/3`) matches its template (`/locations/{id}`) too.
		const matches = (key: string) =>
			new RegExp(`^${key.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
		const template = Object.keys(paths).find((key) => shape(key) === shape(path) || matches(key));
		const operation = template ? (paths[template][method.toLowerCase()] as Json) : undefined;
		if (!operation) throw new Error(`spec/openapi.yaml has no ${method} ${path}`);
		const responses = operation.responses as Json;
		const status = Object.keys(responses).find((code) => /^2/.test(code));
		const content = this.resolve(responses[status ?? '']).content as Json | undefined;
		const schema = (content?.['application/json'] as Json | undefined)?.schema;
		if (!schema) throw new Error(`spec/openapi.yaml gives ${method} ${path} no JSON answer`);
		return this.resolve(schema);
	}
}

/** The JSON types a spec schema allows, null left out: Simplified output drops empty values. */
const typesOf = (schema: Json): string[] => {
	const types = schema.const !== undefined ? [typeof schema.const] : [schema.type ?? []].flat();
	return (types as string[]).filter((type) => type !== 'null');
};

/** A value of a spec schema that is not empty, for the record the shaping runs on. */
export function sample(spec: Spec, schema: Json): unknown {
	const node = spec.resolve(schema);
	const members = (node.oneOf ?? node.anyOf ?? node.allOf) as unknown[] | undefined;
	if (!node.type && members) return sample(spec, spec.resolve(members[0]));
	const value = (node.enum as unknown[] | undefined)?.find((entry) => entry !== null);
	if (value !== undefined) return value;
	switch (typesOf(node)[0]) {
		case 'array':
			return [sample(spec, spec.resolve(node.items))];
		case 'object': {
			const entries = Object.entries(spec.properties(node));
			return entries.length
				? Object.fromEntries(entries.map(([name, inner]) => [name, sample(spec, inner)]))
				: { field: 1 };
		}
		case 'boolean':
			return true;
		case 'integer':
		case 'number':
			// The record's own ID is '1': an attribute repeating it is left out, as in real answers.
			return 1;
		default:
			return '1';
	}
}

/** A spec schema as the output schema of a field. */
function fieldSchema(spec: Spec, schema: Json, description?: string): OutputSchema {
	const node = spec.resolve(schema);
	const members = (node.oneOf ?? node.anyOf ?? node.allOf) as unknown[] | undefined;
	const text = [description, node.description].filter(Boolean).join('. ');
	if (!node.type && node.const === undefined && members)
		return fieldSchema(spec, spec.resolve(members[0]), text);
	const types = typesOf(node);
	const out: OutputSchema = types.length ? { type: types.length === 1 ? types[0] : types } : {};
	if (text) out.description = text;
	const values = (node.enum as unknown[] | undefined)?.filter((value) => value !== null);
	if (values?.length) out.enum = values;
	if (typeof node.format === 'string') out.format = node.format;
	if (types.includes('object')) {
		const properties = spec.properties(node);
		if (Object.keys(properties).length)
			out.properties = Object.fromEntries(
				Object.entries(properties).map(([name, inner]) => [name, fieldSchema(spec, inner)]),
			);
		// An object of the spec may hold more than it names, unless the spec says otherwise.
		if (node.additionalProperties !== false) out.additionalProperties = true;
	}
	if (types.includes('array')) out.items = fieldSchema(spec, spec.resolve(node.items));
	return out;
}

/**
 * A record of a record schema with every attribute and meta entry set (`metaSchemas`, the record's own
 * meta when not given) and each of `relations` pointing at a related record.
 */
export function fullRecord(
	spec: Spec,
	record: Json,
	relations: string[] = namedRelations(spec, record),
	metaSchemas: Record<string, Json> = spec.properties(spec.properties(record).meta),
): ApiResource {
	const recordProperties = spec.properties(record);
	const sampled = (schemas: Record<string, Json>) =>
		Object.fromEntries(
			Object.entries(schemas).map(([name, schema]) => [name, sample(spec, schema)]),
		) as IDataObject;
	return {
		id: '1',
		type: recordProperties.type?.const as string,
		attributes: sampled(spec.properties(recordProperties.attributes)),
		relationships: Object.fromEntries(
			relations.map((name) => [name, { data: { id: '2', type: name } }]),
		),
		meta: sampled(metaSchemas),
	};
}

/** The output schema of a JSON value the shaping made (a field the spec does not describe). */
const valueSchema = (value: unknown, description: string): OutputSchema => ({
	type: Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value,
	description,
});

/** The relations an operation can expand (its Include Related option), by the API's names. */
const expandable = (operation: OperationModule): string[] => {
	const property = operation.description.find(
		(entry: INodeProperties) => entry.name === 'expanded',
	);
	return ((property?.options ?? []) as INodePropertyOptions[]).map(({ value }) => String(value));
};

/** The relations the spec gives a record type's answer always (`relationships` with named properties). */
const namedRelations = (spec: Spec, record: Json): string[] =>
	Object.keys(spec.properties(spec.properties(record).relationships));

const RELATION = (name: string): OutputSchema => ({
	type: 'object',
	description: `Raw: relationships.${name}. The related record: its id and record_type, and, with Include Related, its Simplified fields. A list of such records for a relation to many.`,
	properties: {
		id: { type: 'string' },
		record_type: { type: 'string' },
	},
	additionalProperties: true,
});

/** Where a Simplified field comes from in the Raw output. */
const rawName = (name: string, record: Json, spec: Spec): string => {
	if (name === 'id') return 'id';
	if (name === 'record_type') return 'type';
	if (name === 'attribute_id') return 'attributes.id';
	if (name in spec.properties(spec.properties(record).attributes)) return `attributes.${name}`;
	return `meta.${name}`;
};

/** Where a Simplified field comes from: the record's own fields, a relation, or the meta beside them. */
export type FieldSource = 'record' | 'relation' | 'meta';

/** One operation's Simplified output: its schema, and where each of its fields comes from. */
function simplifiedOutput(
	spec: Spec,
	resourceName: string,
	operationName: string,
): { schema: OutputSchema; sources: Record<string, FieldSource> } {
	const operation = resources[resourceName].operations[operationName];
	const { method, path, answers } = operation.endpoint;
	const answer = spec.answer(method, path);
	const answerProperties = spec.properties(answer);
	const records = spec.records(answerProperties.data);
	// The meta beside one record (its custom_fields, cost centers) is output with it (executor/perItem.ts).
	const answerMeta = answers === 'record' ? spec.properties(answerProperties.meta) : {};
	delete answerMeta.pagination;
	const properties: Record<string, OutputSchema> = {};
	const sources: Record<string, FieldSource> = {};
	const types: string[] = [];
	for (const record of records) {
		const recordProperties = spec.properties(record);
		const type = recordProperties.type?.const as string;
		types.push(type);
		const attributeSchemas = spec.properties(recordProperties.attributes);
		const metaSchemas = { ...spec.properties(recordProperties.meta), ...answerMeta };
		const relations = [...new Set([...expandable(operation), ...namedRelations(spec, record)])];
		const full = fullRecord(spec, record, relations, metaSchemas);
		const [item] = toItems([full], [], { mode: 'simplified' });
		for (const [name, value] of Object.entries(item)) {
			if (properties[name]) continue;
			const raw = rawName(name, record, spec);
			const from = `Raw: ${raw}`;
			sources[name] = relations.includes(name)
				? 'relation'
				: raw.startsWith('meta.') && metaSchemas[name]
					? 'meta'
					: 'record';
			properties[name] = relations.includes(name)
				? RELATION(name)
				: name === 'id'
					? { type: 'string', description: 'The record ID. Raw: id' }
					: name === 'record_type'
						? { type: 'string', description: "The record's type. Raw: type" }
						: raw.startsWith('attributes.') && attributeSchemas[name]
							? fieldSchema(spec, attributeSchemas[name], from)
							: metaSchemas[name]
								? fieldSchema(spec, metaSchemas[name], from)
								: valueSchema(value, `Made from the record's attributes`);
		}
	}
	if (properties.record_type) properties.record_type.enum = types;
	return {
		schema: {
			type: 'object',
			description: `One item per record, Simplified: the key fields, without empty values. With Output set to Raw, each record as the API sends it: id, type (${types.join(', ')}), attributes, relationships and meta, and the related records under included.`,
			properties,
		},
		sources,
	};
}

/** The output schema of one operation's Simplified output. */
export const operationSchema = (
	spec: Spec,
	resourceName: string,
	operationName: string,
): OutputSchema => simplifiedOutput(spec, resourceName, operationName).schema;

/**
 * The fields one operation's Simplified output has, in order, by where they come from: every field
 * the output schema describes, each output whenever the record has a value for it.
 */
export function simplifiedFields(
	spec: Spec,
	resourceName: string,
	operationName: string,
): Record<FieldSource, string[]> {
	const { sources } = simplifiedOutput(spec, resourceName, operationName);
	const named = (source: FieldSource) =>
		Object.keys(sources).filter((name) => sources[name] === source);
	return { record: named('record'), relation: named('relation'), meta: named('meta') };
}

/** Every operation's output schema, in the registry's order. */
export function outputSchemas(spec = Spec.load()): OperationSchema[] {
	return Object.entries(resources).flatMap(([resource, { operations }]) =>
		Object.keys(operations).map((operation) => ({
			resource,
			operation,
			schema: operationSchema(spec, resource, operation),
		})),
	);
}

/** Writes every operation's schema under `<nodeFolder>/__schema__/`; returns the files written. */
export function writeOutputSchemas(nodeFolder: string): string[] {
	const folder = join(nodeFolder, '__schema__', schemaFolder(CURRENT_VERSION));
	return outputSchemas().map(({ resource, operation, schema }) => {
		const file = join(folder, resource, `${operation}.json`);
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, `${JSON.stringify(schema, null, '\t')}\n`);
		return file;
	});
}
