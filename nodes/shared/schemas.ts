/**
 * The request schemas' zod building blocks, and `validate`, which checks a request part with its
 * schema. Values coming from the UI may be strings (expressions, comma lists) where the API wants
 * numbers or arrays; the blocks coerce, then validate.
 */

import type { INode } from 'n8n-workflow';
import { z, type ZodIssue, type ZodTypeAny } from 'zod/v3';

import { refusal } from './errors/nodeError';
import { invalidInput } from './errors/messages';
import { plainText } from './errors/text';

/**
 * A schema built the first time it is used, then kept: loading the node builds no schema, so n8n's
 * start-up does not pay for the operations a workflow never runs.
 */
export function lazy<T extends ZodTypeAny>(build: () => T): () => T {
	let built: T | undefined;
	return () => (built ??= build());
}

/** Decimal notation only: hexadecimal, binary, octal and the like are left as text, so they fail. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const WHOLE = /^\d+$/;

export const toNumber = (value: unknown): unknown =>
	typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : value;

/** IDs as text are digits only: "1e3" or "10.0" is not an ID. */
const toId = (value: unknown): unknown =>
	typeof value === 'string' && WHOLE.test(value.trim()) ? Number(value) : value;

const finiteNumber = (message: string) =>
	z
		.number({ required_error: 'is required', invalid_type_error: message })
		.finite('must be a finite number');

/** A positive integer ID. */
export const id = () =>
	z.preprocess(
		toId,
		finiteNumber('must be a whole number (an ID)')
			.int('must be a whole number (an ID)')
			.positive('must be a positive ID')
			.max(Number.MAX_SAFE_INTEGER, 'must be a whole number (an ID)'),
	);

/** An integer. */
export const integer = (message = 'must be a whole number') =>
	z.preprocess(
		toNumber,
		finiteNumber(message)
			.int(message)
			.max(Number.MAX_SAFE_INTEGER, message)
			.min(-Number.MAX_SAFE_INTEGER, message),
	);

/** A number. */
export const number = (message = 'must be a number') =>
	z.preprocess(toNumber, finiteNumber(message));

/** A list of IDs, given as an array or as text such as "12, 15, 20". */
export const idList = () =>
	z.preprocess(
		(value) => {
			if (typeof value === 'number') return [value];
			if (typeof value === 'string') {
				return value
					.split(',')
					.map((part) => part.trim())
					.filter((part) => part !== '')
					.map(toId);
			}
			return Array.isArray(value) ? value.map(toId) : value;
		},
		z.array(
			z
				.number({
					invalid_type_error: 'must list whole-number IDs separated by commas, such as 12, 15',
				})
				.finite('must list whole-number IDs separated by commas, such as 12, 15')
				.int('must list whole-number IDs separated by commas, such as 12, 15')
				.positive('must list positive IDs')
				.max(
					Number.MAX_SAFE_INTEGER,
					'must list whole-number IDs separated by commas, such as 12, 15',
				),
			{
				required_error: 'is required',
				invalid_type_error: 'must list IDs separated by commas, such as 12, 15',
			},
		),
	);

/** A string that is not empty once trimmed. */
export const text = () =>
	z
		.string({ required_error: 'is required', invalid_type_error: 'must be text' })
		.trim()
		.min(1, 'must not be empty');

/** A time of day as HH:mm. */
export const hhmm = () =>
	z
		.string({ required_error: 'is required', invalid_type_error: 'must be a time as HH:mm' })
		.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time as HH:mm, such as 08:30');

/** A decimal number written as text, such as "2" or "1.5". */
export const numericString = () =>
	z.preprocess(
		(value) =>
			typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value,
		z
			.string({
				required_error: 'is required',
				invalid_type_error: 'must be a number, such as 2 or 1.5',
			})
			.regex(/^-?\d+(\.\d+)?$/, 'must be a number, such as 2 or 1.5'),
	);

/** One of the listed values. */
export const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
	z.enum(values, {
		errorMap: () => ({ message: `must be one of ${values.join(', ')}` }),
	});

export const boolean = () =>
	z.boolean({ required_error: 'is required', invalid_type_error: 'must be true or false' });

/** A description of spaces only counts as none, so a SERVICE line without a real description is caught. */
export const lineDescription = () =>
	z.preprocess(
		(value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
		z.string({ invalid_type_error: 'must be text' }).optional(),
	);

/** Where a zod issue points, as a field path: `lines[0].quantity`. */
export const issuePath = (issue: ZodIssue): string =>
	issue.path.reduce<string>(
		(text, part) =>
			typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part,
		'',
	);

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
	const fields = [...new Set(result.error.issues.map((issue) => issuePath(issue) || 'body'))];
	throw refusal(node, invalidInput(itemIndex, problems), { itemIndex, fields });
}
