/** The rate-limit budget an answer gives, and how long it asks the next request to wait. */

import type { IDataObject } from 'n8n-workflow';

import { header } from './exchange';

/**
 * The API's rate-limit budget as its last answer gave it: requests left (`X-Ratelimit-Remaining`) and,
 * when known, when the window resets. The API's own count is the truth, shared by every execution and
 * every worker that uses the same token.
 */
export interface RateBudget {
	remaining?: number;
	/** Epoch milliseconds. */
	resetAt?: number;
}

/** The number a header gives as plain digits with an optional fraction, else NaN. */
const plainNumber = (text: string): number => (/^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN);

/**
 * The longest wait the node reckons with: an answer that asks for more (a reset far in the future, a
 * number too large for a date) counts as asking for this, which no Max Wait per Request allows.
 */
export const LONGEST_WAIT_MS = 366 * 86_400_000;

/** A wait the API asks for, or undefined when it is no positive wait; never past `LONGEST_WAIT_MS`. */
const askedWait = (ms: number): number | undefined =>
	ms > 0 ? Math.min(ms, LONGEST_WAIT_MS) : undefined;

/** A `X-RateLimit-Reset` below this is seconds from now; above it, a UNIX time in seconds. */
const EPOCH_THRESHOLD_SECONDS = 1_000_000_000;

/** How long until the `X-RateLimit-Reset` an answer carries: a UNIX time in seconds, or seconds from now. */
function resetWaitMs(headers: IDataObject | undefined, now: number): number | undefined {
	const resetSeconds = plainNumber(header(headers, 'x-ratelimit-reset')?.trim() ?? '');
	if (!(resetSeconds > 0)) return undefined;
	return askedWait(
		resetSeconds >= EPOCH_THRESHOLD_SECONDS ? resetSeconds * 1000 - now : resetSeconds * 1000,
	);
}

/**
 * How long a 429 answer asks us to wait: `Retry-After` (seconds or an HTTP date) first, then
 * `X-RateLimit-Reset` (UNIX time in seconds, or seconds from now). A value that is not a positive wait
 * (zero, negative, in the past, unparseable) counts as absent, so the back-off applies.
 */
export function rateLimitWaitMs(
	headers: IDataObject | undefined,
	now = Date.now(),
): number | undefined {
	const retryAfter = header(headers, 'retry-after')?.trim();
	if (retryAfter) {
		const delaySeconds = plainNumber(retryAfter);
		if (delaySeconds > 0) return askedWait(delaySeconds * 1000);
		const date = Number.isNaN(delaySeconds) ? Date.parse(retryAfter) : NaN;
		if (date - now > 0) return askedWait(date - now);
	}
	return resetWaitMs(headers, now);
}

/**
 * The rate-limit budget an answer gives, or undefined when it says nothing of it. A 429 leaves none
 * until the wait it asks for is over; any other answer gives `X-Ratelimit-Remaining`, and the reset time
 * when it carries `X-RateLimit-Reset`.
 */
export function budgetOf(
	statusCode: number,
	headers: IDataObject | undefined,
	now = Date.now(),
): RateBudget | undefined {
	if (statusCode === 429) {
		const wait = rateLimitWaitMs(headers, now);
		return { remaining: 0, resetAt: wait === undefined ? undefined : now + wait };
	}
	const remaining = header(headers, 'x-ratelimit-remaining')?.trim() ?? '';
	if (!/^\d+$/.test(remaining)) return undefined;
	const wait = resetWaitMs(headers, now);
	return { remaining: Number(remaining), resetAt: wait === undefined ? undefined : now + wait };
}

/**
 * How long to wait before sending so as not to send into a spent budget: until the reset, when the API
 * said none is left and when it comes back; else 0 (with the reset unknown, a 429 tells it).
 */
export const pacingWaitMs = (budget: RateBudget, now = Date.now()): number =>
	budget.remaining === 0 && budget.resetAt !== undefined ? Math.max(0, budget.resetAt - now) : 0;
