/** What a value holds, as the node reads parameters and answers: the rules shared by the node. */

import type { IDataObject } from 'n8n-workflow';

/** An object that is neither null nor an array: a resource of an answer, or a value the node reads. */
export const isPlainObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Null, empty text, an empty list, or an object with nothing but such values. */
export const isEmpty = (value: unknown): boolean =>
	value === null ||
	value === undefined ||
	value === '' ||
	(Array.isArray(value)
		? value.length === 0
		: typeof value === 'object' && Object.values(value as object).every(isEmpty));

/**
 * A filter, query parameter or path ID that carries nothing: undefined, null, blank text or an empty
 * list. Blank text counts, as a filter of spaces finds nothing the user meant.
 */
export const isEmptyValue = (value: unknown): boolean =>
	value === undefined ||
	value === null ||
	(typeof value === 'string' && value.trim() === '') ||
	(Array.isArray(value) && value.length === 0);
