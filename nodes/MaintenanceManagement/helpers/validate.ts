import type { INode } from 'n8n-workflow';
import type { ZodIssue, ZodTypeAny } from 'zod';

import { plainText } from '../transport/errors';
import { invalidInput, refusal } from './messages';

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
