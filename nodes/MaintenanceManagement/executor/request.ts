/**
 * An item's request, read from its parameters: the path (each ID checked), the query (filters and
 * Query Parameters) and the body (UI values normalized to the API's shape, then validated), with the
 * display names the node's messages give each parameter.
 */

import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import {
	emptyValueError,
	filledByModel,
	filterField,
	pathIdField,
	queryParameterField,
} from '../../shared/empty';
import { refusal } from '../../shared/errors/nodeError';
import { fieldsAndJson, invalidJson, unusablePathId } from '../../shared/errors/messages';
import { validate } from '../../shared/schemas';
import type { AnswerShape, ApiRequest } from '../transport';
import { buildPath, pathValueProblem } from '../transport';
import { isEmpty, isEmptyValue, isPlainObject } from '../../shared/values';
import type { Endpoint, OperationModule } from '../../shared/types';

/** Maps each parameter name of an operation (nested ones included) to its display name. */
export function displayNames(properties: INodeProperties[]): Map<string, string> {
	const names = new Map<string, string>();
	const visit = (list: unknown[] | undefined): void => {
		for (const entry of list ?? []) {
			if (!isPlainObject(entry)) continue;
			if (
				typeof entry.name === 'string' &&
				typeof entry.displayName === 'string' &&
				!names.has(entry.name)
			) {
				names.set(entry.name, entry.displayName);
			}
			if (Array.isArray(entry.options)) visit(entry.options);
			if (Array.isArray(entry.values)) visit(entry.values);
		}
	};
	visit(properties);
	return names;
}

const nameCache = new WeakMap<OperationModule, Map<string, string>>();

/** The display name of each parameter of an operation, read once and kept. */
export function namesOf(operation: OperationModule): Map<string, string> {
	let names = nameCache.get(operation);
	if (!names) {
		names = displayNames(operation.description);
		nameCache.set(operation, names);
	}
	return names;
}

const JSON_SUFFIX = '_json';

/**
 * Turns UI values into the API's shape:
 * - a fixed collection `{ items: [...] }` becomes the array, `{ values: {...} }` the object;
 * - empty strings (fields left blank) are dropped;
 * - `<field>_json` (the JSON alternative of a nested field) is parsed into `<field>`.
 */
export function normalize(value: unknown, node: INode, itemIndex: number, path = ''): unknown {
	if (Array.isArray(value))
		return value.map((entry, index) => normalize(entry, node, itemIndex, `${path}[${index}]`));
	if (!isPlainObject(value)) return value;
	const keys = Object.keys(value);
	if (keys.length === 1 && keys[0] === 'items' && Array.isArray(value.items)) {
		return normalize(value.items, node, itemIndex, path);
	}
	if (keys.length === 1 && keys[0] === 'values' && isPlainObject(value.values)) {
		return normalize(value.values, node, itemIndex, path);
	}
	const out: IDataObject = {};
	for (const key of keys) {
		const entry = value[key];
		if (entry === '' || entry === undefined) continue;
		const fieldPath = path ? `${path}.${key}` : key;
		if (key.endsWith(JSON_SUFFIX) && key.length > JSON_SUFFIX.length) {
			const field = key.slice(0, -JSON_SUFFIX.length);
			if (!isEmpty(value[field])) {
				const fields = [fieldPath.slice(0, -JSON_SUFFIX.length), fieldPath];
				throw refusal(node, fieldsAndJson(field, key), { itemIndex, fields });
			}
			out[field] = parseJson(entry, key, fieldPath, node, itemIndex) as IDataObject;
			continue;
		}
		const normalized = normalize(entry, node, itemIndex, fieldPath);
		// A collection left empty in the UI means "not set".
		if (isPlainObject(normalized) && Object.keys(normalized).length === 0) continue;
		out[key] = normalized as IDataObject;
	}
	return out;
}

function parseJson(
	value: unknown,
	field: string,
	fieldPath: string,
	node: INode,
	itemIndex: number,
): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw refusal(node, invalidJson(field, (error as Error).message), {
			itemIndex,
			fields: [fieldPath],
		});
	}
}

/** The shape of `data` the spec gives for an endpoint's answer. */
export const answerShape = (endpoint: Endpoint): AnswerShape =>
	endpoint.answers === 'record' ? 'one record' : 'a list of records';

const queryValue = (value: unknown): string | number | boolean =>
	Array.isArray(value) ? value.join(',') : (value as string | number | boolean);

/** Reads and validates the body of item i. Throws before anything is sent when the input is invalid. */
export function readBody(
	context: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): IDataObject {
	const spec = operation.endpoint.body;
	if (!spec) return {};
	const raw: IDataObject = {};
	for (const name of spec.fields ?? []) {
		raw[name] = context.getNodeParameter(name, itemIndex, undefined, {
			extractValue: true,
		}) as IDataObject;
	}
	for (const collection of spec.collections ?? []) {
		Object.assign(raw, context.getNodeParameter(collection, itemIndex, {}) as IDataObject);
	}
	const node = context.getNode();
	return validate<IDataObject>(
		spec.schema(),
		normalize(raw, node, itemIndex),
		node,
		itemIndex,
		namesOf(operation),
	);
}

/** Each `{slot}` of the endpoint's path with the node parameter that holds its value. */
export const pathSlots = (endpoint: Endpoint): Array<[slot: string, parameter: string]> =>
	[...endpoint.path.matchAll(/\{([^}]+)\}/g)].map(([, slot]) => [
		slot,
		endpoint.pathParams?.[slot] ?? slot,
	]);

/** The path parameters of item i, slot by slot. Throws before anything is sent when one is missing. */
export function readPathValues(
	context: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): Record<string, string> {
	const { endpoint } = operation;
	const names = namesOf(operation);
	const node = context.getNode();
	const pathValues: Record<string, string> = {};
	for (const [slot, parameter] of pathSlots(endpoint)) {
		const value = context.getNodeParameter(parameter, itemIndex, '', { extractValue: true });
		const name = names.get(parameter) ?? parameter;
		if (isEmptyValue(value)) {
			const raw = node.parameters[parameter];
			throw emptyValueError(node, itemIndex, pathIdField(name, raw, parameter), raw, value);
		}
		const problem = pathValueProblem(value);
		if (problem) {
			throw refusal(node, unusablePathId(name, problem), { itemIndex, fields: [parameter] });
		}
		pathValues[slot] = String(value).trim();
	}
	return pathValues;
}

/**
 * Adds item i's entries of the endpoint's query collections ("Filters") to `qs`. A filter in a
 * collection is there because the user added it: empty, it is an error, not left out.
 */
function addFilters(
	context: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
	qs: IDataObject,
): void {
	const node = context.getNode();
	const names = namesOf(operation);
	for (const collection of operation.endpoint.queryCollections ?? []) {
		const values = context.getNodeParameter(collection, itemIndex, {}) as IDataObject;
		const raw = (node.parameters[collection] ?? {}) as IDataObject;
		for (const [name, value] of Object.entries(values)) {
			if (isEmptyValue(value)) {
				if (filledByModel(raw[name])) continue;
				const filter = {
					name,
					displayName: names.get(name) ?? name,
					collection: names.get(collection) ?? collection,
					path: `${collection}.${name}`,
				};
				throw emptyValueError(node, itemIndex, filterField(filter), raw[name], value);
			}
			qs[name] = queryValue(value);
		}
	}
}

/** Adds item i's entries of the free "Query Parameters" option to `qs`; an empty one is an error. */
function addQueryParameters(context: IExecuteFunctions, itemIndex: number, qs: IDataObject): void {
	type Entry = { name?: unknown; value?: unknown };
	const node = context.getNode();
	const extra = context.getNodeParameter(
		'options.queryParameters.parameters',
		itemIndex,
		[],
	) as Entry[];
	const rawExtra = (
		(node.parameters.options as IDataObject | undefined)?.queryParameters as
			{ parameters?: Entry[] } | undefined
	)?.parameters;
	for (const [index, entry] of extra.entries()) {
		const empty = (['name', 'value'] as const).find((part) => isEmptyValue(entry[part]));
		if (empty === 'value' && filledByModel(rawExtra?.[index]?.value)) continue;
		if (empty) {
			const raw = rawExtra?.[index]?.[empty];
			const field = queryParameterField(index, entry.name, empty);
			throw emptyValueError(node, itemIndex, field, raw, entry[empty]);
		}
		qs[String(entry.name).trim()] = queryValue(entry.value);
	}
}

/** The query of item i: its query fields and filters, validated, then the Query Parameters option. */
function readQuery(
	context: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): IDataObject {
	const { endpoint } = operation;
	let qs: IDataObject = {};
	for (const name of endpoint.query ?? []) {
		const value = context.getNodeParameter(name, itemIndex, undefined) as unknown;
		if (!isEmptyValue(value)) qs[name] = queryValue(value);
	}
	addFilters(context, operation, itemIndex, qs);
	if (endpoint.querySchema) {
		const node = context.getNode();
		qs = validate<IDataObject>(endpoint.querySchema(), qs, node, itemIndex, namesOf(operation));
	}
	addQueryParameters(context, itemIndex, qs);
	return qs;
}

/** Builds the request of item i: path, query and validated body. */
export function buildRequest(
	context: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): ApiRequest {
	const { endpoint } = operation;
	const pathValues = readPathValues(context, operation, itemIndex);
	const qs = readQuery(context, operation, itemIndex);
	const request: ApiRequest = {
		method: endpoint.method,
		path: buildPath(endpoint.path, pathValues),
		qs,
		answers: answerShape(endpoint),
	};
	if (endpoint.body) request.body = readBody(context, operation, itemIndex);
	return request;
}
