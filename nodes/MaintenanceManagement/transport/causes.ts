/**
 * Why a request failed, declared on its error as n8n's `failure` (n8n-workflow 2.3x and later), where
 * the node knows the cause. n8n reads it (its poll back-off, for one) without looking at the message.
 * An n8n whose errors take no `failure` ignores the option, so the error is the same as without it.
 */

import type { Failure } from 'n8n-workflow';

/** The rate limit is spent; the wait the API asked for, when its answer gave one. */
export const rateLimited = (retryAfterMs: number | undefined): Failure =>
	retryAfterMs === undefined ? { cause: 'rate-limited' } : { cause: 'rate-limited', retryAfterMs };

/** The rate limit is spent until a known time, in epoch milliseconds. */
export const rateLimitedUntil = (resetsAtEpochMs: number): Failure => ({
	cause: 'rate-limited',
	resetsAtEpochMs,
});

export const CREDENTIAL_INVALID: Failure = { cause: 'credential-invalid' };

export const CONFIGURATION_INVALID: Failure = { cause: 'configuration-invalid' };

export const TEMPORARILY_UNAVAILABLE: Failure = { cause: 'temporarily-unavailable' };

/** An API error answer, as far as its cause goes. */
export interface FailedAnswer {
	statusCode: number;
	method: string;
	/**
	 * Whether the answer's body is the API's error envelope: a 404 in it says a record named by the
	 * path, the query or the body is missing; a 404 without it comes from no API at the base URL.
	 */
	inApiEnvelope: boolean;
	/** The wait a 429 asked for. */
	retryAfterMs?: number;
}

/**
 * The cause of an API error answer, or undefined where the node cannot tell it: a 401 refuses the
 * token; a 404 without the API's error envelope means nothing of the API answers at the base URL; a
 * 429 is the rate limit; a read's 5xx, still there after its retries, a service failing right now (the
 * API also answers 500 for a filter it does not support: the message names that case, and a later run
 * that n8n schedules after the cause changes nothing).
 */
export function causeOfAnswer(answer: FailedAnswer): Failure | undefined {
	const { statusCode } = answer;
	if (statusCode === 401) return CREDENTIAL_INVALID;
	if (statusCode === 404 && !answer.inApiEnvelope) return CONFIGURATION_INVALID;
	if (statusCode === 429) return rateLimited(answer.retryAfterMs);
	if (answer.method === 'GET' && statusCode >= 500 && statusCode < 600)
		return TEMPORARILY_UNAVAILABLE;
	return undefined;
}
