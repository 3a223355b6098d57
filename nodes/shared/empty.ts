import type { INode, NodeOperationError } from 'n8n-workflow';

import { refusal } from './errors/nodeError';
import { emptyValue } from './errors/messages';
import { plainText } from './errors/text';

/*
 * A filter, query parameter or path ID that a user added and that resolves to nothing is an error,
 * never left out: a filter left out would widen the query to every record.
 */

const describe = (value: unknown): string => {
	if (value === undefined) return 'nothing (undefined)';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an empty list';
	return value === '' ? 'empty text' : 'only spaces';
};

const isLocator = (raw: unknown): raw is { value?: unknown } =>
	typeof raw === 'object' && raw !== null && '__rl' in raw;

const MAX_EXPRESSION = 80;

/**
 * Whether an AI model fills the parameter: its expression is a `$fromAI()` placeholder, as the editor's
 * ✨ button sets it. A filter the model leaves empty is the model's choice not to filter (it sees the
 * answer it asked for), so it is left out instead of failing the tool call.
 */
export const filledByModel = (raw: unknown): boolean =>
	typeof raw === 'string' && raw.startsWith('=') && /\$fromAI\s*\(/i.test(raw);

/** The expression a parameter holds, as the editor shows it, or undefined for a typed value. */
function expressionOf(raw: unknown): string | undefined {
	const text = isLocator(raw) ? raw.value : raw;
	if (typeof text !== 'string' || !text.startsWith('=')) return undefined;
	const expression = text.slice(1).trim();
	return plainText(
		expression.length > MAX_EXPRESSION ? `${expression.slice(0, MAX_EXPRESSION - 1)}…` : expression,
	);
}

const WIDENS = 'an empty filter is never left out, as that would widen the list to every record';

/** A field as the error names it (`label`), its parameter path (`field`), and what to do when it is empty (`fix`). */
export interface EmptyField {
	label: string;
	field: string;
	fix: string;
}

/**
 * The error for an empty value: the field, what its expression gave, and what to do. `raw` is the
 * parameter as stored in the workflow, which tells an expression from a typed value.
 */
export function emptyValueError(
	node: INode,
	itemIndex: number,
	{ label, field, fix }: EmptyField,
	raw: unknown,
	value: unknown,
): NodeOperationError {
	const expression = expressionOf(raw);
	const result = expression
		? `its expression ${expression} gave ${describe(value)}`
		: 'it has no value';
	return refusal(node, emptyValue(label, result, fix, itemIndex), { itemIndex, fields: [field] });
}

/** A filter of a collection such as Filters, named by its display and API names. */
export const filterField = (filter: {
	name: string;
	displayName: string;
	collection: string;
	path: string;
}): EmptyField => ({
	label: `"${filter.displayName}" (${filter.name})`,
	field: filter.path,
	fix: `Set a value for "${filter.displayName}", or remove it from ${filter.collection}: ${WIDENS}.`,
});

const QUERY_PARAMETERS = 'under Options → Query Parameters';
const QUERY_PARAMETER_PATH = 'options.queryParameters.parameters';

/** The name or the value of an entry of the Query Parameters option, by the entry's position. */
export const queryParameterField = (
	index: number,
	name: unknown,
	part: 'name' | 'value',
): EmptyField =>
	part === 'name'
		? {
				label: `The name of query parameter ${index + 1}`,
				field: `${QUERY_PARAMETER_PATH}[${index}].name`,
				fix: `Enter the name of the service's filter, or remove the parameter ${QUERY_PARAMETERS}.`,
			}
		: {
				label: `Query parameter "${plainText(String(name).trim())}"`,
				field: `${QUERY_PARAMETER_PATH}[${index}].value`,
				fix: `Set its value, or remove the parameter ${QUERY_PARAMETERS}: ${WIDENS}.`,
			};

/** An ID in the path: a record picker, or a plain ID field. */
export const pathIdField = (displayName: string, raw: unknown, parameter: string): EmptyField => ({
	label: `"${displayName}"`,
	field: parameter,
	fix: `${isLocator(raw) ? `Pick "${displayName}" from the list or enter its ID` : `Enter the ID in "${displayName}"`}; in an expression, map a field that holds the ID.`,
});
