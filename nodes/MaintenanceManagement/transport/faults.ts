/** What a failed request's error says of its connection. */

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

/**
 * Network codes that by themselves say the connection was never made: TCP refuses a connection only
 * while it is being made, and a host name not found stops it before it starts.
 */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** The system calls of making a connection: looking up the host's name, and connecting. */
const CONNECTING = new Set(['getaddrinfo', 'connect']);

/**
 * Whether a failed request never left: the system call that failed was the connect or the name lookup
 * before it, or the code says so by itself (refused, host name not found). Any other code may come
 * after the request was written: Linux also gives an unreachable host or network, and a time-out, on
 * an open connection whose retransmissions or keep-alive probes give up. Older n8n (1.x, 2.0) keeps
 * only the code, not the system call: there such a fault counts as one after sending, since a write
 * the API may have applied must never pass for one not sent.
 */
export const neverConnected = (error: unknown): boolean =>
	inChain(
		error,
		(link) =>
			hasCode(NEVER_CONNECTED)(link) ||
			(typeof link.syscall === 'string' && CONNECTING.has(link.syscall)),
	);
