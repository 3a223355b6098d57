/**
 * The node's own words for what it refuses before or around sending: each builder is named for what
 * it says and gives an error's message and description. Call sites pick the builder and the error's
 * class, item and outcome; the words live here alone, and test/nodes/messages.test.ts reads them.
 * The words of a request's failures are in transport/failures.ts and transport/errors.ts.
 */

import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { plainText, withWriteAdvice } from '../transport/errors';
import { itemNumber, LINE_BREAK } from './errorText';

/** An error's words: its message and, when it has one, its description. */
export interface Words {
	message: string;
	description?: string;
}

type ErrorOptions = Omit<
	NonNullable<ConstructorParameters<typeof NodeOperationError>[2]>,
	'message' | 'description'
> & {
	/** The parameters or request fields at fault, as paths (`filters.status`, `lines[0].quantity`). */
	fields?: string[];
};

/**
 * The node's error with these words. `options` say the item, the fields at fault (kept in the
 * error's context, for whoever reads the error rather than its words) and what else n8n records.
 */
export function refusal(
	node: INode,
	{ message, description }: Words,
	{ fields, ...options }: ErrorOptions = {},
): NodeOperationError {
	const error = new NodeOperationError(node, message, { ...options, description });
	if (fields) error.context.fields = fields;
	return error;
}

/** The Output option "Selected Fields" with no field named. */
export const noSelectedFields = (): Words => ({
	message:
		'"Fields" is empty: name the fields to output, separated by commas (for example "status, description"), or choose another Output. No request was sent.',
});

/** A resource and operation pair the node does not have. */
export const unsupportedOperation = (resource: string, operation: string): Words => ({
	message: `The operation "${operation}" of "${resource}" is not supported`,
});

/** An ID for the path that cannot be sent; `problem` says why. */
export const unusablePathId = (name: string, problem: string): Words => ({
	message: `"${name}" ${problem}`,
	description: `Enter the ID in "${name}" as the API gives it. No request was sent.`,
});

/** A field set both with its fields and as JSON (`key` is the JSON one). */
export const fieldsAndJson = (field: string, key: string): Words => ({
	message: `Set "${field}" either with its fields or as JSON, not both`,
	description: `Remove "${field}" or "${key}" from the parameters. No request was sent.`,
});

/** A JSON parameter that does not parse; `reason` is the parser's. */
export const invalidJson = (field: string, reason: string): Words => ({
	message: `"${field}" is not valid JSON`,
	description: `Fix the JSON in "${field}" (${plainText(reason)}). No request was sent.`,
});

/** A value the user set that resolves to nothing: the field, what it gave, and the fix. */
export const emptyValue = (
	label: string,
	result: string,
	fix: string,
	itemIndex: number,
): Words => ({
	message: `${label} is empty: ${result}`,
	description: `${fix} No request was sent for item ${itemNumber(itemIndex)}.`,
});

/** An item's input that its schema refuses: each problem names its field, one a line. */
export const invalidInput = (itemIndex: number, problems: string[]): Words => {
	const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
	return {
		message: `Invalid input in item ${itemNumber(itemIndex)}: ${problems[0]}${more}`,
		description: [
			...problems,
			'Fix the field(s) above and run again. No request was sent for this item.',
		].join(LINE_BREAK),
	};
};

/** An item sent in a group whose answer leaves out its record. */
export const notConfirmed = (itemIndex: number, method: string): Words => ({
	message: withWriteAdvice(
		`Item ${itemNumber(itemIndex)} was sent but not confirmed by the API`,
		method,
	),
	description:
		"The request succeeded, but the API's answer leaves out this item's record, so whether it was written is unknown.",
});

/** Two items of one Update Many that change the same location. */
export const locationUpdatedTwice = (
	itemIndex: number,
	locationId: string,
	earlierIndex: number,
): Words => ({
	message: `Item ${itemNumber(itemIndex)} updates location ${locationId}, which item ${itemNumber(earlierIndex)} already updates`,
	description:
		'Update Many changes each location once. Merge the fields of both items into one item before this node, or send the second change in a later run. No request was sent for this item.',
});

/** An item whose warehouse, action or observation differs from the combined batch's. */
export const cannotJoinBatch = (itemIndex: number, mismatch: string): Words => ({
	message: `Item ${itemNumber(itemIndex)} cannot join the combined batch: ${mismatch}`,
	description: `A combined batch has one warehouse, one action and one batch observation. Make them match across the items, or turn off "One Batch for All Items". No request was sent for this item.`,
});
