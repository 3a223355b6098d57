import type { IDataObject, INode } from 'n8n-workflow';

import { isPlainObject } from './isPlainObject';
import { fieldsAndJson, invalidJson, refusal } from './messages';

const JSON_SUFFIX = '_json';

/** A value left unset in the UI: nothing, blank text, or an empty collection. */
const isEmpty = (value: unknown): boolean =>
	value === undefined ||
	value === '' ||
	(Array.isArray(value) && value.length === 0) ||
	(isPlainObject(value) && Object.values(value).every(isEmpty));

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
