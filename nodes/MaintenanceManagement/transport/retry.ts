/**
 * When a request waits: the request policy, the rate-limit budget an answer gives and how long it asks
 * the next request to wait, and how long a failed attempt waits before the next.
 */

import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { NoAnswer } from './exchange';
import { isConnectionFault } from '../../shared/errors/causes';
import { ssrfBlockOf } from './ssrf';
import { header } from './exchange';

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
	/** How long one exchange may take in all, connect to last byte, in whole milliseconds. */
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

/** Exponential back-off, each wait between half and all of its step (equal jitter). */
export const backoffMs = (policy: RequestPolicy, attempt: number): number =>
	Math.round(policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() * 0.5));

/** Server errors a read is retried on: a gateway or an overloaded service, not a failed request. */
const TRANSIENT_STATUSES = new Set([502, 503, 504]);
/** A 500 is tried once more at most: the API also answers it for a filter it does not support. */
const MAX_ATTEMPTS_ON_500 = 2;

/** Whether a request that got no answer is tried again: a read whose connection failed or timed out. */
export const retriesFault = ({ error, timedOut }: NoAnswer, method: string): boolean =>
	method === 'GET' && (timedOut || (ssrfBlockOf(error) === undefined && isConnectionFault(error)));

/**
 * Whether an answer is tried again: a 429 for every method (the request was not processed); a
 * gateway or overloaded service only for a read, so that no write is sent twice, and a 500 once.
 */
export const retriesStatus = (statusCode: number, method: string, attempt: number): boolean =>
	statusCode === 429 ||
	(method === 'GET' &&
		(TRANSIENT_STATUSES.has(statusCode) || (statusCode === 500 && attempt < MAX_ATTEMPTS_ON_500)));

/** The wait before trying an answer again: what a 429 asks for, else the back-off. */
export const statusWaitMs = (
	policy: RequestPolicy,
	attempt: number,
	statusCode: number,
	headers: IDataObject,
): number =>
	(statusCode === 429 ? rateLimitWaitMs(headers) : undefined) ?? backoffMs(policy, attempt);

/** What the execution has waited, and the rate-limit budget the API's last answer gave. */
export interface ExecutionWaits {
	/** Milliseconds already spent waiting in this execution. */
	waitedMs: number;
	/** What the API's last answer said of its rate limit. */
	budget: RateBudget;
}

/** The limit of the policy a wait would pass: Max Wait per Request, or Max Total Wait. */
export type WaitLimit = 'request' | 'execution';

/** Why a request waits: for the API's rate limit (a 429, or a spent budget), or before a retry. */
export type WaitReason = 'rateLimit' | 'retry';

/** How a wait is spent: n8n's `sleep`, or a run's own pause that reports progress while it lasts. */
export type Pause = (ms: number, reason: WaitReason) => Promise<void>;

/** A wait spent in n8n's `sleep`. */
const sleepFor: Pause = async (ms) => await sleep(ms);

const pauses = new WeakMap<object, Pause>();

/** Makes the requests of an execution context spend their waits in `pause`. */
export function pauseWaitsWith(context: object, pause: Pause): void {
	pauses.set(context, pause);
}

/** The pause of an execution context's waits: its own, else n8n's `sleep`. */
export const pauseOf = (context: object): Pause => pauses.get(context) ?? sleepFor;

/** The waits of one request, within the policy's limits for it and for its execution. */
export class Waits {
	/** Milliseconds this request has waited. */
	waitedMs = 0;

	constructor(
		private readonly policy: RequestPolicy,
		private readonly execution: ExecutionWaits,
		private readonly pause: Pause = sleepFor,
	) {}

	/** The limit a wait would pass, or undefined when it passes neither. */
	limitPassedBy(wait: number): WaitLimit | undefined {
		if (this.waitedMs + wait > this.policy.maxRequestWaitMs) return 'request';
		if (this.execution.waitedMs + wait > this.policy.maxTotalWaitMs) return 'execution';
		return undefined;
	}

	/**
	 * Waits unless that would pass a limit, and says which it would pass. A wait that leaves the
	 * budget spent (the reset not reached yet) leaves it unknown again, for a 429 to tell.
	 */
	async waitWithin(wait: number, reason: WaitReason): Promise<WaitLimit | 'waited'> {
		const passed = this.limitPassedBy(wait);
		if (passed) return passed;
		this.waitedMs += wait;
		this.execution.waitedMs += wait;
		await this.pause(wait, reason);
		if (pacingWaitMs(this.execution.budget) > 0) this.execution.budget = {};
		return 'waited';
	}
}

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
