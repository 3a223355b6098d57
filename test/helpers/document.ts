import type { ZodTypeAny } from 'zod/v3';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import type { Endpoint, OperationModule } from '../../nodes/shared/types';
import { Contract } from '../../sandbox/contract';

/** spec/openapi.yaml as the tests of the node read it, beside each of the node's operations. */
export type Json = Record<string, any>;

export const contract = Contract.shared();
export const document = contract.document as Json;

/** Follows a `$ref` of the document. */
export const deref = (schema: Json | undefined): Json =>
	typeof schema?.$ref === 'string'
		? deref(
				schema.$ref
					.slice(2)
					.split('/')
					.reduce((value: Json, key: string) => value[key], document),
			)
		: (schema ?? {});

/** A schema with its `$ref` followed and its `allOf` parts merged: properties and required lists. */
export function resolve(schema: Json | undefined): Json {
	const own = deref(schema);
	return ((own.allOf as Json[]) ?? []).map(resolve).reduce<Json>(
		(merged, part) => ({
			...part,
			...merged,
			properties: { ...part.properties, ...merged.properties },
			required: [...new Set([...(part.required ?? []), ...(merged.required ?? [])])],
		}),
		own,
	);
}

/** Zod's wrappers (optional, nullable, default, effects, pipelines, lazy) taken off, down to the type. */
export function unwrap(schema: ZodTypeAny): ZodTypeAny {
	const def = schema._def as Json;
	const inner = def.innerType ?? def.schema ?? def.in ?? (def.getter ? def.getter() : undefined);
	return inner ? unwrap(inner) : schema;
}

/** The fields of a zod object (after its wrappers), or none. */
export const shapeOf = (zod: ZodTypeAny): Record<string, ZodTypeAny> =>
	(unwrap(zod) as unknown as { shape?: Record<string, ZodTypeAny> }).shape ?? {};

/** One operation of the node with the document's operation of its method and path. */
export interface NodeOperation {
	/** `<resource> <operation>`, as a failure names it. */
	label: string;
	module: OperationModule;
	endpoint: Endpoint;
	/** Why the document has no operation of its method and path; then everything below is empty. */
	unmatched?: string;
	/** The document's path template of the operation. */
	template: string;
	/** Its path and query parameters, path item's and operation's, `$ref`s followed. */
	parameters: Json[];
	/** Its request body's schema, resolved; empty when it takes none. */
	body: Json;
	/** The same as the document writes it, only its `$ref` followed. */
	bodyAsWritten: Json;
}

/**
 * The node's operations beside the document's. One the document lacks is kept, with why, for its own
 * test to fail: nothing here throws, so every other test still runs.
 */
export const nodeOperations: NodeOperation[] = Object.entries(resources).flatMap(
	([resource, { operations }]) =>
		Object.entries(operations).map(([name, module]): NodeOperation => {
			const label = `${resource} ${name}`;
			const { method, path } = module.endpoint;
			const found = contract.operation(method, path.replace(/\{[^}]+\}/g, '1'));
			const item = (found ? document.paths[found.template] : {}) as Json;
			const operation = item[method.toLowerCase()] as Json | undefined;
			if (!found || !operation)
				return {
					label,
					module,
					endpoint: module.endpoint,
					unmatched: `${label}: ${method} ${path} is not an operation of spec/openapi.yaml`,
					template: '',
					parameters: [],
					body: {},
					bodyAsWritten: {},
				};
			const body = deref(deref(operation.requestBody).content?.['application/json']?.schema);
			return {
				label,
				module,
				endpoint: module.endpoint,
				template: found.template,
				parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(deref),
				body: resolve(body),
				bodyAsWritten: body,
			};
		}),
);

/**
 * What a body schema of the node describes in the document: the body, or, when the body is one array
 * the schema does not name (PATCH /locations: `locations`), one element of it, as each input item is.
 */
export function describedBy(zod: ZodTypeAny, body: Json): Json {
	const fields = Object.entries((body.properties ?? {}) as Json);
	if (fields.length !== 1 || fields[0][0] in shapeOf(zod)) return body;
	const only = resolve(fields[0][1]);
	return only.type === 'array' ? resolve(only.items) : body;
}
