import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { name as packageName, version } from '../../../package.json';
import { normalBaseUrl, pathWithinApi } from './address';
import type { Outcome } from './errors';
import {
	apiError,
	mayHaveBeenWritten,
	plainText,
	QUOTE_LIMITS,
	quoted,
	shownPath,
	withOutcome,
} from './errors';
import type { Redaction } from './redact';
import { redact, redactDeep, redactionFor } from './redact';
import { ssrfBlockOf, ssrfMessage } from './ssrf';

export { asNodeError } from './errors';

export const CREDENTIAL_TYPE = 'maintenanceManagementApi';

/** The spec's page-size limit: larger `limit` values are capped by the service. */
export const MAX_PAGE_SIZE = 2000;

type Context = IExecuteFunctions | ILoadOptionsFunctions;

/** A resource object of the spec's envelope. */
export interface ApiResource {
	id: string;
	type: string;
	attributes?: IDataObject;
	relationships?: Record<string, { data: ResourceRef | ResourceRef[] | null }>;
	meta?: IDataObject;
	[key: string]: unknown;
}

export interface ResourceRef {
	id: string;
	type: string;
}

export interface ApiEnvelope {
	data?: ApiResource | ApiResource[] | null;
	included?: ApiResource[];
	meta?: IDataObject;
	links?: Record<string, string | undefined>;
}

const isResource = (value: unknown): value is ApiResource =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The records of an answer: its `data`, whether one resource, a list or none. An element that is not
 * an object (a `null` in a list) is no record: it is skipped, so an item it stood for counts as not
 * confirmed while the others stay confirmed.
 */
export const recordsOf = (envelope: ApiEnvelope): ApiResource[] =>
	Array.isArray(envelope.data)
		? envelope.data.filter(isResource)
		: isResource(envelope.data)
			? [envelope.data]
			: [];

/**
 * Makes every key of parsed JSON an own field, in place: a `__proto__` key is removed (copied by
 * assignment, it would set an object's prototype instead of a field), and an object whose prototype
 * was set that way gets a plain one back. Iterative, so a deep answer cannot exhaust the stack.
 */
function ownFieldsOnly<T>(value: T): T {
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const current = pending.pop();
		if (typeof current !== 'object' || current === null) continue;
		const prototype: unknown = Object.getPrototypeOf(current);
		if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null)
			Object.setPrototypeOf(current, Array.isArray(current) ? Array.prototype : Object.prototype);
		if (Object.hasOwn(current, '__proto__'))
			delete (current as Record<string, unknown>)['__proto__'];
		for (const child of Object.values(current)) pending.push(child);
	}
	return value;
}

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

/** Sent with every request: the service asks clients to name themselves. */
const USER_AGENT = `${packageName}/${version}`;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path after the base URL, with its path parameters already encoded (see `buildPath`). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/**
	 * The shape of the answer's `data` the spec gives: one record or a list. An answer of the other
	 * shape is an error; unchecked when absent.
	 */
	answers?: AnswerShape;
}

export type AnswerShape = 'one record' | 'a list of records';

interface Connection {
	baseUrl: string;
	origin: string;
	environment: string;
	token: string;
	/** The token's forms, worked out once: every answer and error is redacted with them. */
	redaction: Redaction;
	/** Milliseconds already spent waiting in this execution. */
	waitedMs: number;
	/** What the API's last answer said of its rate limit. */
	budget: RateBudget;
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

const connections = new WeakMap<object, Promise<Connection>>();

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Why a base URL cannot be used, or undefined when it can. */
function baseUrlProblem(value: string): string | undefined {
	if (value === '') return 'is empty';
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return 'is not a web address';
	}
	if (url.username || url.password) return 'must not contain a user name or password';
	if (url.search || value.includes('?')) return 'must not contain a query (?…)';
	if (url.hash || value.includes('#')) return 'must not contain a fragment (#…)';
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname)))
		return 'must start with https:// (plain http:// is allowed only for localhost)';
	if (!/\/v3$/.test(url.pathname)) return 'must end with /v3';
	return undefined;
}

/** Reads the credential once per execution: the environment decides the base URL. */
async function getConnection(this: Context, itemIndex?: number): Promise<Connection> {
	const cached = connections.get(this);
	if (cached) return await cached;
	const pending = (async () => {
		const credentials = await this.getCredentials(CREDENTIAL_TYPE, itemIndex);
		const environment = credentials.environment === 'sandbox' ? 'sandbox' : 'production';
		const field = environment === 'sandbox' ? 'sandboxBaseUrl' : 'productionBaseUrl';
		const label = environment === 'sandbox' ? 'Sandbox Base URL' : 'Production Base URL';
		const typedBaseUrl = String(credentials[field] ?? '')
			.trim()
			.replace(/\/+$/, '');
		const token = String(credentials.accessToken ?? '').trim();
		if (!token) {
			throw new NodeOperationError(this.getNode(), 'The access token is missing', {
				description:
					'Enter the personal access token in the "Maintenance Management API" credential. No request was sent.',
				itemIndex,
			});
		}
		if (/\s/.test(token)) {
			throw new NodeOperationError(
				this.getNode(),
				'The access token contains a space or line break',
				{
					description:
						'A token is one unbroken text: the API refuses any space or line break in it. Paste the token again in the "Maintenance Management API" credential, on one line. No request was sent.',
					itemIndex,
				},
			);
		}
		const problem = baseUrlProblem(typedBaseUrl);
		if (problem) {
			throw new NodeOperationError(this.getNode(), `The credential's ${label} ${problem}`, {
				description: `Set "${label}" in the credential to the address of the API: https://, the host, and the path ending with /v3 (for example https://api.example.com/v3). No request was sent.`,
				itemIndex,
			});
		}
		const baseUrl = normalBaseUrl(typedBaseUrl);
		return {
			baseUrl,
			origin: new URL(baseUrl).origin,
			environment,
			token,
			redaction: redactionFor(token),
			waitedMs: 0,
			budget: {},
		};
	})();
	connections.set(this, pending);
	// A failed read is not kept, so a corrected credential is read again next time.
	pending.catch(() => connections.delete(this));
	return await pending;
}

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

/**
 * An error of the transport itself (not an API answer), with the token removed from its text and
 * what became of the request.
 */
const transportError = (
	node: INode,
	token: string,
	itemIndex: number | undefined,
	outcome: Outcome,
	message: string,
	description: string,
) =>
	withOutcome(
		new NodeOperationError(node, redact(message, token), {
			description: redact(description, token),
			itemIndex,
		}),
		outcome,
	);

const header = (headers: IDataObject | undefined, name: string): string | undefined => {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	return value === undefined ? undefined : String(value);
};

/** A count of seconds written plainly (digits, an optional fraction), else NaN. */
const secondsIn = (text: string): number => (/^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN);

/**
 * The longest wait the node reckons with: an answer that asks for more (a reset far in the future, a
 * number too large for a date) counts as asking for this, which no Max Wait per Request allows.
 */
const LONGEST_WAIT_MS = 366 * 86_400_000;

/** A wait the API asks for, or undefined when it is no positive wait; never past `LONGEST_WAIT_MS`. */
const askedWait = (ms: number): number | undefined =>
	ms > 0 ? Math.min(ms, LONGEST_WAIT_MS) : undefined;

/** A `X-RateLimit-Reset` below this is seconds from now; above it, a UNIX time in seconds. */
const EPOCH_THRESHOLD_SECONDS = 1_000_000_000;

/** How long until the `X-RateLimit-Reset` an answer carries: a UNIX time in seconds, or seconds from now. */
function resetWaitMs(headers: IDataObject | undefined, now: number): number | undefined {
	const reset = secondsIn(header(headers, 'x-ratelimit-reset')?.trim() ?? '');
	if (!(reset > 0)) return undefined;
	return askedWait(reset >= EPOCH_THRESHOLD_SECONDS ? reset * 1000 - now : reset * 1000);
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
		const seconds = secondsIn(retryAfter);
		if (seconds > 0) return askedWait(seconds * 1000);
		const date = Number.isNaN(seconds) ? Date.parse(retryAfter) : NaN;
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

/** Milliseconds as whole seconds, for messages. */
const seconds = (ms: number): number => Math.round(ms / 1000);

/** A wait the API asked for, for messages. */
const waitText = (ms: number): string =>
	ms >= LONGEST_WAIT_MS ? 'more than a year' : `${seconds(ms)} s`;

/** Exponential back-off with full jitter. */
const backoffMs = (policy: RequestPolicy, attempt: number): number =>
	Math.round(policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() * 0.5));

const CONNECTION_FAULTS = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EAI_AGAIN',
	'UND_ERR_SOCKET',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

type ErrorLink = {
	code?: unknown;
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

/** Whether a failed request never got an answer: a refused, dropped or timed-out connection. */
export function isConnectionFault(error: unknown): boolean {
	return inChain(
		error,
		(link) =>
			hasCode(CONNECTION_FAULTS)(link) ||
			(typeof link.message === 'string' &&
				/socket hang up|other side closed|timeout of \d+ms/i.test(link.message)),
	);
}

/** Network codes of a connection never made: the request did not leave. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether a failed request never left: its connection was refused or its host not found. */
export const neverConnected = (error: unknown): boolean => inChain(error, hasCode(NEVER_CONNECTED));

/** Server errors a read is retried on: a gateway or an overloaded service, not a failed request. */
const TRANSIENT_STATUSES = new Set([502, 503, 504]);
/** A 500 is tried once more at most: the API also answers it for a filter it does not support. */
const MAX_ATTEMPTS_ON_500 = 2;
const MAX_REDIRECTS = 5;

interface FullResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

const isEnvelope = (body: unknown): body is ApiEnvelope =>
	typeof body === 'object' &&
	body !== null &&
	!Array.isArray(body) &&
	typeof (body as ApiEnvelope).data === 'object' &&
	(body as ApiEnvelope).data !== null;

/**
 * Sends one API request. 429 answers are retried for every method (the request was not processed);
 * 502, 503, 504 and dropped connections only for GET, so that a POST or PATCH is never sent twice, and
 * a 500 at most once. Redirects are followed only within the API's origin, so the token never leaves
 * it. Before sending, it waits for the rate limit's reset when the API's last answer said none is left;
 * the waits of one request are bounded by Max Wait per Request, those of the execution by Max Total Wait.
 */
export async function apiRequest(
	this: Context,
	request: ApiRequest,
	retry: RequestPolicy = DEFAULT_POLICY,
	itemIndex?: number,
): Promise<ApiEnvelope> {
	const connection = await getConnection.call(this, itemIndex);
	const { baseUrl, environment, token } = connection;
	const headers: IDataObject = { Accept: 'application/json', 'User-Agent': USER_AGENT };
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';
	const method = request.method;
	let url = `${baseUrl}${request.path}`;
	let qs = request.qs;
	let redirects = 0;
	let attempt = 1;
	/**
	 * The path as the user knows it (after the base URL, without the query), the token removed: the
	 * one form of the path every message gets, also after a redirect or from a next link.
	 */
	const requestPath = () =>
		connection.redaction.text(
			(url.startsWith(baseUrl) ? url.slice(baseUrl.length) : new URL(url).pathname).split('?')[0],
		);
	/** The request as a message names it. */
	const where = () => `${method} ${shownPath(requestPath())}`;
	const fail = (outcome: Outcome, message: string, description: string) =>
		transportError(this.getNode(), token, itemIndex, outcome, message, description);
	/** A write whose answer the node cannot use may have been applied: its message says so. */
	const answerLost = (message: string, description: string) =>
		fail(
			'unknown',
			method === 'GET' ? message : `${message}. ${mayHaveBeenWritten(method)}`,
			description,
		);
	let waitedHere = 0;
	/** Which limit a wait would pass: Max Wait per Request, or Max Total Wait; undefined when neither. */
	const passedLimit = (wait: number): string | undefined =>
		waitedHere + wait > retry.maxRequestWaitMs
			? `Max Wait per Request (${seconds(retry.maxRequestWaitMs)} s)`
			: connection.waitedMs + wait > retry.maxTotalWaitMs
				? `Max Total Wait (${seconds(retry.maxTotalWaitMs)} s, ${seconds(connection.waitedMs)} s of it already waited in this execution)`
				: undefined;
	/** Waits when neither limit forbids it; a wait for the rate limit's reset leaves its budget unknown again. */
	const waitFor = async (wait: number): Promise<boolean> => {
		if (passedLimit(wait)) return false;
		waitedHere += wait;
		connection.waitedMs += wait;
		await sleep(wait);
		if (pacingWaitMs(connection.budget) > 0) connection.budget = {};
		return true;
	};
	for (; ; attempt++) {
		// The API said no request is left until a known time: wait for it before sending, not after a 429.
		const pause = pacingWaitMs(connection.budget);
		if (pause > 0 && !(await waitFor(pause))) {
			throw fail(
				'notSent',
				`Not sent: the API's rate limit allows no request for another ${waitText(pause)}`,
				`${where()} was not sent: the API's last answer said its limit is spent until ${new Date(Date.now() + pause).toISOString()}, and waiting that long would pass ${passedLimit(pause)}. Raise it under Request Options, or run the items again after that time.`,
			);
		}
		let response: FullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
				method,
				url,
				qs,
				headers,
				body: request.body,
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: retry.timeoutMs,
			} as IHttpRequestOptions)) as FullResponse;
		} catch (error) {
			const block = ssrfBlockOf(error);
			if (block) {
				// n8n refused it before anything left: the row can go again, unchanged, once allowed.
				throw withOutcome(
					new NodeApiError(this.getNode(), { code: null } as JsonObject, {
						...ssrfMessage(block, baseUrl),
						itemIndex,
					}),
					'notSent',
				);
			}
			const message = redact(error instanceof Error ? error.message : String(error), token);
			const retriable = method === 'GET' && isConnectionFault(error);
			if (retriable && attempt < retry.maxAttempts && (await waitFor(backoffMs(retry, attempt))))
				continue;
			// A refused connection sent nothing; any other fault may have come after the request arrived.
			const unsent = neverConnected(error);
			const lost = method !== 'GET' && !unsent;
			const nodeError = new NodeApiError(this.getNode(), { message, code: null } as JsonObject, {
				message: lost
					? `The API's answer to ${where()} was lost: ${plainText(message.replace(/\.$/, ''))}. ${mayHaveBeenWritten(method)}`
					: `Could not reach the API: ${plainText(message)}`,
				description:
					method === 'GET'
						? `The connection to ${plainText(baseUrl)} failed after ${attempt} attempt(s). Check the base URL in the credential and the network.`
						: unsent
							? `The connection to ${plainText(baseUrl)} could not be made, so the ${method} request was not sent. Check the base URL in the credential and the network, then run it again.`
							: `The connection to ${plainText(baseUrl)} failed after the ${method} request was sent (a dropped connection, or no answer within the Timeout). It was not retried, so that nothing is created or changed twice.`,
				itemIndex,
			});
			throw withOutcome(nodeError, unsent ? 'notSent' : 'unknown');
		}
		const { statusCode } = response;
		connection.budget = budgetOf(statusCode, response.headers) ?? connection.budget;
		const location = header(response.headers, 'location');
		if (statusCode >= 300 && statusCode < 400 && location) {
			const target = new URL(location, url);
			const keepsMethod = statusCode === 307 || statusCode === 308;
			if (target.origin !== connection.origin) {
				throw answerLost(
					`The API redirected to another address (${plainText(target.origin)}), which the node does not follow`,
					`${where()} answered HTTP ${statusCode} with Location ${plainText(target.origin)}${shownPath(target.pathname)}. The request was not sent there, so the access token stays with ${plainText(connection.origin)}. Check the base URL in the credential.`,
				);
			}
			if (redirects++ >= MAX_REDIRECTS || (method !== 'GET' && !keepsMethod)) {
				throw answerLost(
					redirects > MAX_REDIRECTS
						? `The API redirected ${where()} more than the node follows`
						: `The API answered ${where()} with a redirect (${statusCode}), which the node does not follow for a ${method}`,
					`It answered HTTP ${statusCode} with Location ${shownPath(target.pathname)}. The node follows at most ${MAX_REDIRECTS} redirects within the API, and redirects a ${method} only with 307 or 308. Check the base URL in the credential.`,
				);
			}
			url = target.toString();
			qs = undefined;
			attempt--;
			continue;
		}
		if (statusCode >= 200 && statusCode < 300) {
			if (isEnvelope(response.body)) {
				const given = Array.isArray(response.body.data) ? 'a list of records' : 'one record';
				if (request.answers && given !== request.answers) {
					throw answerLost(
						`The API answered ${where()} with ${given}, where the spec gives ${request.answers}`,
						`Nothing was output for it, so an answer of another shape passes neither for a record nor for a list. Check that the base URL in the credential points at the Maintenance Management API, version 3.`,
					);
				}
				return connection.redaction.answer(ownFieldsOnly(response.body));
			}
			const type = header(response.headers, 'content-type');
			const typed = type ? `Content-Type ${quoted(type, QUOTE_LIMITS.name)}` : 'no content type';
			throw answerLost(
				`The API answered HTTP ${statusCode} with ${typed} instead of its JSON envelope`,
				`${where()} returned a body without the "data" the API always sends (for example a maintenance page, a cut-off answer or an empty body). Nothing was output for it; check the base URL in the credential, and try again later.`,
			);
		}
		const retriable =
			statusCode === 429 ||
			(method === 'GET' &&
				(TRANSIENT_STATUSES.has(statusCode) ||
					(statusCode === 500 && attempt < MAX_ATTEMPTS_ON_500)));
		let refusedWait: string | undefined;
		if (retriable && attempt < retry.maxAttempts) {
			const asked = statusCode === 429 ? rateLimitWaitMs(response.headers) : undefined;
			const wait = asked ?? backoffMs(retry, attempt);
			if (await waitFor(wait)) continue;
			refusedWait = `The next wait (${waitText(wait)}) would pass ${passedLimit(wait)}.`;
		}
		throw apiError(
			this.getNode(),
			statusCode,
			redactDeep(response.body, token),
			{
				method,
				path: requestPath(),
				environment,
				attempts: attempt,
				waitedMs: waitedHere,
				refusedWait,
			},
			itemIndex,
		);
	}
}

export interface PageOptions {
	returnAll: boolean;
	/** Records wanted when not returning all. */
	limit?: number;
}

const pageKey = (data: ApiResource[]): string =>
	`${data.length}:${data[0]?.type}:${data[0]?.id}:${data[data.length - 1]?.id}`;

/**
 * Pages through a collection. The first request asks for `page=1` and a page size (the spec's largest
 * for Return All, or what a Limit needs); after that the node follows the server's `links.next`, whatever
 * page size the server chose. It stops when there is no next link, on an empty page, or on a page or a
 * next link already seen in this run; a next link to another address, or more pages than Max Pages,
 * is an error rather than a silent cut. Each page is turned into output records as it arrives
 * (`toRecords`, with that page's `included`), so the raw pages do not pile up in memory.
 */
export async function apiRequestAllItems(
	this: Context,
	request: ApiRequest,
	pages: PageOptions,
	toRecords: (data: ApiResource[], included: ApiResource[] | undefined) => IDataObject[],
	retry: RequestPolicy = DEFAULT_POLICY,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const { baseUrl, token } = await getConnection.call(this, itemIndex);
	const wanted = pages.returnAll ? Infinity : Math.max(1, Math.floor(pages.limit ?? 50));
	// The fewest pages that can hold the records wanted, then the smallest page size that fills them.
	const pageSize = pages.returnAll
		? MAX_PAGE_SIZE
		: Math.ceil(wanted / Math.ceil(wanted / MAX_PAGE_SIZE));
	const records: IDataObject[] = [];
	const seenPages = new Set<string>();
	const seenLinks = new Set<string>();
	const listRequest: ApiRequest = { ...request, answers: 'a list of records' };
	let next: ApiRequest | undefined = {
		...listRequest,
		qs: { ...request.qs, page: 1, limit: pageSize },
	};
	const fail = (message: string, description: string) =>
		transportError(this.getNode(), token, itemIndex, 'unknown', message, description);
	for (let page = 1; next && records.length < wanted; page++) {
		if (page > retry.maxPages) {
			throw fail(
				`Stopped after ${retry.maxPages} pages: the API kept offering more`,
				`${records.length} records were read, and the API still gave a next page. Nothing was output, so no partial list passes for the whole one. Narrow the request with Filters or a Limit, or raise Max Pages under Request Options.`,
			);
		}
		const envelope: ApiEnvelope = await apiRequest.call(this, next, retry, itemIndex);
		const pageData = recordsOf(envelope);
		if (pageData.length === 0) break;
		const key = pageKey(pageData);
		if (seenPages.has(key)) break;
		seenPages.add(key);
		const take = Math.min(pageData.length, wanted - records.length);
		for (const record of toRecords(
			take < pageData.length ? pageData.slice(0, take) : pageData,
			envelope.included,
		)) {
			records.push(record);
		}
		next = undefined;
		const link: string | undefined = envelope.links?.next;
		if (link) {
			const path = pathWithinApi(link, baseUrl);
			if (path === undefined) {
				const target = URL.canParse(link, `${baseUrl}/`) ? new URL(link, `${baseUrl}/`) : undefined;
				throw fail(
					`The API's next page link points outside the API (${target ? `${plainText(target.origin)}${shownPath(target.pathname)}` : 'not a web address'})`,
					`The node does not follow it, so the access token stays with ${plainText(baseUrl)}. ${records.length} records were read before it; nothing was output.`,
				);
			}
			if (!seenLinks.has(path)) {
				seenLinks.add(path);
				next = { method: request.method, path, answers: listRequest.answers };
			}
		} else if (envelope.links === undefined && pageData.length >= pageSize) {
			// An answer without links at all: the spec's rule, a full page means there may be more.
			next = { ...listRequest, qs: { ...request.qs, page: page + 1, limit: pageSize } };
		}
	}
	return records;
}
