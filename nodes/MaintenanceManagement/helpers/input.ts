import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodIssue, ZodTypeAny } from 'zod';

import { plainText } from '../transport/errors';

const isPlainObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

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
				throw new NodeOperationError(
					node,
					`Set "${field}" either with its fields or as JSON, not both`,
					{
						itemIndex,
						description: `Remove "${field}" or "${key}" from the parameters. No request was sent.`,
					},
				);
			}
			out[field] = parseJson(entry, key, node, itemIndex) as IDataObject;
			continue;
		}
		const normalized = normalize(entry, node, itemIndex, fieldPath);
		// A collection left empty in the UI means "not set".
		if (isPlainObject(normalized) && Object.keys(normalized).length === 0) continue;
		out[key] = normalized as IDataObject;
	}
	return out;
}

function parseJson(value: unknown, field: string, node: INode, itemIndex: number): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new NodeOperationError(node, `"${field}" is not valid JSON`, {
			itemIndex,
			description: `Fix the JSON in "${field}" (${plainText((error as Error).message)}). No request was sent.`,
		});
	}
}

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

const issuePath = (issue: ZodIssue): string =>
	issue.path.reduce<string>(
		(text, part) =>
			typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part,
		'',
	);

/**
 * Items as n8n counts them: the first input item is item 0, as in the `[item 0]` n8n puts after an
 * error's message, in `pairedItem` and in `$input.all()[0]`, so the node's words and n8n's agree.
 */
export const itemNumber = (itemIndex: number): number => itemIndex;

/**
 * Line breaks in an error's description: n8n's error panel renders the description as HTML, so
 * each problem stands on its own line there.
 */
export const LINE_BREAK = '<br>';

/**
 * Validates a request part with its zod schema. On failure the error names every failing field,
 * one a line, with its display name and how to fix it, and the item. Nothing has been sent then.
 */
export function validate<T>(
	schema: ZodTypeAny,
	value: unknown,
	node: INode,
	itemIndex: number,
	names: Map<string, string>,
): T {
	const result = schema.safeParse(value);
	if (result.success) return result.data as T;
	const problems = result.error.issues.map((issue) => {
		const path = issuePath(issue) || 'body';
		const leaf = issue.path.filter((part) => typeof part === 'string').pop() as string | undefined;
		const label = leaf && names.has(leaf) ? ` (${names.get(leaf)})` : '';
		// The path and the message may repeat the item's data (a key, a value refused).
		return plainText(`"${path}"${label} ${issue.message}`);
	});
	const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
	throw new NodeOperationError(
		node,
		`Invalid input in item ${itemNumber(itemIndex)}: ${problems[0]}${more}`,
		{
			itemIndex,
			description: [
				...problems,
				'Fix the field(s) above and run again. No request was sent for this item.',
			].join(LINE_BREAK),
		},
	);
}
