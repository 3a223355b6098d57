/**
 * What happened on the wire, classified: the cause of a failed request, declared on its error as n8n's
 * `failure` (n8n-workflow 2.3x and later) where the node knows it, which n8n reads (its poll back-off,
 * for one) without looking at the message; and what a network fault says of the connection (whether
 * it passes, whether it was ever made). An n8n whose errors take no `failure` ignores the option, so
 * the error is the same as without it.
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

const CONNECTION_FAULTS = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EAI_AGAIN',
	'UND_ERR_SOCKET',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

type ErrorLink = {
	code?: unknown;
	syscall?: unknown;
	httpCode?: unknown;
	message?: unknown;
	cause?: unknown;
	errorResponse?: unknown;
} | null;

/**
 * Whether an error, or one it wraps, matches. n8n wraps a network error in a NodeApiError whose own
 * `code` is empty: n8n 2.41 keeps the original error as its `cause`; older n8n (1.x, early 2.x) drops
 * the cause and keeps the network code as the error's `httpCode` (or, for a plain object, its
 * `errorResponse`). All of them are searched, so the check follows what the running n8n gives.
 */
function inChain(error: unknown, matches: (link: NonNullable<ErrorLink>) => boolean): boolean {
	const pending: unknown[] = [error];
	for (let seen = 0; pending.length > 0 && seen < 12; seen++) {
		const current = pending.shift() as ErrorLink;
		if (!current || typeof current !== 'object') continue;
		if (matches(current)) return true;
		pending.push(current.cause, current.errorResponse);
	}
	return false;
}

const hasCode = (codes: Set<string>) => (link: NonNullable<ErrorLink>) =>
	[link.code, link.httpCode].some((value) => typeof value === 'string' && codes.has(value));

/**
 * Whether a failed request never got an answer for a reason that passes: a connection refused, to an
 * unreachable host, reset or timed out. A host name not found, a certificate refused and any fault
 * that is no network's are not among them.
 */
export function isConnectionFault(error: unknown): boolean {
	return inChain(
		error,
		(link) =>
			hasCode(CONNECTION_FAULTS)(link) ||
			(typeof link.message === 'string' &&
				/socket hang up|other side closed|timeout of \d+ms/i.test(link.message)),
	);
}

/** Codes that by themselves say the connection was never made: a host name not found stops it before it starts. */
const NEVER_CONNECTED = new Set(['ENOTFOUND', 'EAI_AGAIN']);

/** The system calls of making a connection: looking up the host's name, and connecting. */
const CONNECTING = new Set(['getaddrinfo', 'connect']);

/**
 * Whether a failed request never left: the system call that failed was the connect or the name lookup
 * before it, or the code says so by itself (host name not found). Any other fault may come after the
 * request was written: Linux also gives a refused connection (an ICMP port unreachable taken as a soft
 * error, from a REJECT rule or a load balancer failing over), an unreachable host or network and a
 * time-out on an open connection whose retransmissions or keep-alive probes give up. Older n8n (1.x,
 * 2.0) keeps only the code, not the system call: there such a fault counts as one after sending, since
 * a write the API may have applied must never pass for one not sent.
 */
export const neverConnected = (error: unknown): boolean =>
	inChain(
		error,
		(link) =>
			hasCode(NEVER_CONNECTED)(link) ||
			(typeof link.syscall === 'string' && CONNECTING.has(link.syscall)),
	);
