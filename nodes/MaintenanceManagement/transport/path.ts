/** Path safety: a path parameter is a record's ID, URL-encoded, or nothing is sent. */

import { QUOTE_LIMITS, quoted } from './errors';

/** What a record's ID in a path is: a whole number, written in digits. The By ID fields check it too. */
export const RECORD_ID = /^\d{1,20}$/;

/**
 * Why a path parameter cannot be sent, or undefined when it can: whether typed, from an expression or
 * filled in by an AI model, it must be a record's ID (`RECORD_ID`), else nothing is sent.
 */
export function pathValueProblem(value: unknown): string | undefined {
	const given = () => `; it is ${quoted(value, QUOTE_LIMITS.name)}`;
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value >= 0
			? undefined
			: `must be a whole-number ID, such as 42${given()}`;
	if (typeof value !== 'string')
		return `must be a whole-number ID, such as 42, given as text or a number${given()}`;
	const trimmed = value.trim();
	if (trimmed === '') return 'is required';
	return RECORD_ID.test(trimmed) ? undefined : `must be a whole-number ID, such as 42${given()}`;
}

/** Fills `{slot}` placeholders of an endpoint path with URL-encoded values. */
export function buildPath(template: string, values: Record<string, string | number>): string {
	return template.replace(/\{([^}]+)\}/g, (_match, slot: string) => {
		const value = values[slot];
		const problem = pathValueProblem(value);
		if (problem) throw new Error(`Path parameter "${slot}" ${problem}`);
		return encodeURIComponent(String(value).trim());
	});
}
