/** The request policy, and when and how long a failed attempt waits before the next. */

export interface RequestPolicy {
	/** Attempts in all, the first one included. */
	maxAttempts: number;
	/**
	 * The most one request waits, in milliseconds: for the API's rate limit to reset before it is sent,
	 * and between its attempts. A long run whose requests keep succeeding is never stopped by it.
	 */
	maxRequestWaitMs: number;
	/** The most the node waits in all, in milliseconds, for the whole execution; Infinity for no cap. */
	maxTotalWaitMs: number;
	/** First back-off step when the answer gives no wait; it doubles each attempt. */
	baseDelayMs: number;
	/** How long one request may take before it is abandoned, in milliseconds. */
	timeoutMs: number;
	/** The most pages Return All reads before it stops with an error. */
	maxPages: number;
}

/** Hard ceilings: whatever an expression gives, a run never tries more often or pages further. */
export const POLICY_CEILING = { maxAttempts: 10, maxPages: 100_000 };

export const DEFAULT_POLICY: RequestPolicy = {
	maxAttempts: 5,
	maxRequestWaitMs: 300_000,
	maxTotalWaitMs: Infinity,
	baseDelayMs: 1000,
	timeoutMs: 60_000,
	maxPages: 10_000,
};

/** Exponential back-off with full jitter. */
export const backoffMs = (policy: RequestPolicy, attempt: number): number =>
	Math.round(policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() * 0.5));

/** Server errors a read is retried on: a gateway or an overloaded service, not a failed request. */
export const TRANSIENT_STATUSES = new Set([502, 503, 504]);
/** A 500 is tried once more at most: the API also answers it for a filter it does not support. */
export const MAX_ATTEMPTS_ON_500 = 2;
