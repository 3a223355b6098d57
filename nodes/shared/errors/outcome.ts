/** What became of an item's request, said on its error, and how an answer's status says it. */

import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { withWriteAdvice } from './text';

/**
 * What became of an item's request, said on its error: written is the record output; the others are
 * the ways an item fails. "unknown" is a write whose answer was lost: it may have been written.
 */
export type Outcome = 'written' | 'refusedByApi' | 'refusedBeforeSending' | 'notSent' | 'unknown';

/**
 * What an output record says of its request, on the one record that carries `outcome`: a record n8n
 * would otherwise take for an error item. A write's record was written; a read's was read, which is
 * no way an item fails and so no `Outcome` of a failure.
 */
export type RecordOutcome = 'written' | 'read';

export type NodeError = NodeApiError | NodeOperationError;

/** Records on an error what became of its request, unless a closer look has already said so. */
export function withOutcome<E extends NodeError>(error: E, outcome: Outcome): E {
	error.context.outcome ??= outcome;
	return error;
}

/** What became of a failed item's request: an error nothing marked was thrown before sending. */
export const outcomeOf = (error: NodeError): Outcome =>
	(error.context.outcome as Outcome | undefined) ?? 'refusedBeforeSending';

/**
 * An error thrown once its request may have left: its outcome is unknown, unless a closer look has
 * already said otherwise, and a write's message says that it may have been written.
 */
export function sentAndUnknown<E extends NodeError>(error: E, method: string): E {
	if (error.context.outcome === undefined) error.message = withWriteAdvice(error.message, method);
	return withOutcome(error, 'unknown');
}

/**
 * What an answer that is no success says of its request: a 429 was refused unprocessed, so nothing
 * was done; any other 4xx is the API's refusal; anything else (a 5xx, a redirect, a status outside
 * HTTP's classes) leaves it unknown: a write may have been applied before the service failed.
 */
export const outcomeOfStatus = (statusCode: number): Outcome =>
	statusCode === 429
		? 'notSent'
		: statusCode >= 400 && statusCode < 500
			? 'refusedByApi'
			: 'unknown';
