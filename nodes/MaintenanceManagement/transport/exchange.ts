/**
 * One HTTP exchange and reading its answer, and following redirects within one origin, so that the
 * credential never leaves it; and the API's envelope: the shape of every answer, its error envelope
 * among them, and what the node takes from it.
 */

import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { isPlainObject } from '../../shared/values';

export interface FullResponse {
	statusCode: number;
	headers: IDataObject;
	/** The body parsed as JSON, or its text when it is no JSON. */
	body: unknown;
	/**
	 * The body's text as it came, when it was one: what the redaction's quick look reads instead of
	 * writing the parsed body out again. Never output, and dropped with the answer.
	 */
	text?: string;
}

/**
 * The body as n8n's request helper parses it by default (axios's own parsing): a text that is JSON
 * becomes its value, any other text stays as it is.
 */
function parsed(text: string): unknown {
	if (!text) return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** A header of an answer, by its name as given or in lower case. */
export const header = (headers: IDataObject | undefined, name: string): string | undefined => {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	return value === undefined ? undefined : String(value);
};

/** A request that got no answer: the error n8n threw for it, and whether the Timeout ended it. */
export class NoAnswer {
	constructor(
		readonly error: unknown,
		readonly timedOut = false,
	) {}
}

/** What one exchange came to: an answer of any status, or none. */
export type Answer = FullResponse | NoAnswer;

export interface Exchange {
	method: IHttpRequestMethods;
	url: string;
	qs?: IDataObject;
	headers: IDataObject;
	body?: IDataObject;
	/** How long the exchange may take in all, from the connect to the answer's last byte. */
	timeoutMs: number;
}

/**
 * Request options whose abort signal ends the exchange at `deadline`. n8n-core puts its own signal,
 * the execution's cancel, on the options it is given (in every n8n the package supports), which would
 * replace a signal set beforehand: the options keep both, so the exchange ends on whichever comes first.
 * n8n's own `timeout` cannot serve: it limits each wait for a byte, not the whole exchange, so an
 * answer that trickles in never passes it.
 */
function endingAt(options: IHttpRequestOptions, deadline: AbortSignal): IHttpRequestOptions {
	let signal = deadline;
	return Object.defineProperty(options, 'abortSignal', {
		enumerable: true,
		get: () => signal,
		set: (cancel?: AbortSignal) => {
			signal = cancel ? AbortSignal.any([cancel, deadline]) : deadline;
		},
	});
}

/**
 * Sends one request with the credential's authentication and reads its answer whatever its status;
 * a redirect is returned, not followed.
 */
export async function exchange(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	credentialType: string,
	request: Exchange,
): Promise<Answer> {
	const deadline = AbortSignal.timeout(request.timeoutMs);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: request.url,
		qs: request.qs,
		headers: request.headers,
		body: request.body,
		json: true,
		// The text, parsed here: the redaction's quick look reads it rather than a copy written anew.
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		// Also the longest wait for a byte, which n8n would otherwise set to its own default.
		timeout: request.timeoutMs,
	};
	let response: FullResponse;
	try {
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			credentialType,
			endingAt(options, deadline),
		)) as FullResponse;
	} catch (error) {
		return new NoAnswer(error, deadline.aborted);
	}
	const { statusCode, headers, body } = response;
	return typeof body === 'string'
		? { statusCode, headers, body: parsed(body), text: body }
		: { statusCode, headers, body };
}

export const MAX_REDIRECTS = 5;

/** Where a request goes; a redirect moves it there for the attempts after it too. */
export interface Target {
	url: string;
	qs?: IDataObject;
	/** Redirects followed so far, over all attempts. */
	redirects: number;
}

/** Why a redirect to a web address is not followed. */
type Refusal = 'another origin' | 'too many' | 'changes the method';

/** A redirect that is not followed, and why: where it points, or that it points nowhere readable. */
export type RefusedRedirect =
	| { reason: Refusal; statusCode: number; location: URL }
	| { reason: 'no location'; statusCode: number }
	| { reason: 'unreadable location'; statusCode: number; given: string };

function refusalOf(
	statusCode: number,
	location: URL,
	origin: string,
	method: string,
	followed: number,
): Refusal | undefined {
	if (location.origin !== origin) return 'another origin';
	if (followed >= MAX_REDIRECTS) return 'too many';
	const keepsMethod = statusCode === 307 || statusCode === 308;
	return method !== 'GET' && !keepsMethod ? 'changes the method' : undefined;
}

/**
 * Sends to the target and follows its redirects within `origin`, at most `MAX_REDIRECTS` in all and
 * a write's only with 307 or 308; a redirect moves the target and drops its query. Any other redirect
 * (one without a Location, or with one that is no web address, among them) is thrown as `refuse`
 * words it.
 */
export async function followingRedirects(
	target: Target,
	origin: string,
	method: string,
	send: () => Promise<Answer>,
	refuse: (redirect: RefusedRedirect) => Error,
): Promise<Answer> {
	for (;;) {
		const answer = await send();
		if (answer instanceof NoAnswer) return answer;
		const { statusCode } = answer;
		if (statusCode < 300 || statusCode >= 400) return answer;
		const location = header(answer.headers, 'location');
		if (!location) throw refuse({ reason: 'no location', statusCode });
		if (!URL.canParse(location, target.url))
			throw refuse({ reason: 'unreadable location', statusCode, given: location });
		const to = new URL(location, target.url);
		const reason = refusalOf(statusCode, to, origin, method, target.redirects);
		if (reason) throw refuse({ reason, statusCode, location: to });
		target.redirects++;
		target.url = to.toString();
		target.qs = undefined;
	}
}

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

const isResource = (value: unknown): value is ApiResource => isPlainObject(value);

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

export type AnswerShape = 'one record' | 'a list of records';

/** The shape of an envelope's `data`. */
export const shapeOf = (envelope: ApiEnvelope): AnswerShape =>
	Array.isArray(envelope.data) ? 'a list of records' : 'one record';

export const isEnvelope = (body: unknown): body is ApiEnvelope =>
	typeof body === 'object' &&
	body !== null &&
	!Array.isArray(body) &&
	typeof (body as ApiEnvelope).data === 'object' &&
	(body as ApiEnvelope).data !== null;

/** The error body the spec defines: `{ status: 'error', error: { http_code, message, more_info, properties?, dev_message? } }`. */
export interface ApiErrorBody {
	http_code?: number;
	message?: string;
	more_info?: string | null;
	dev_message?: string;
	properties?: Record<string, unknown>;
}

export const readErrorBody = (body: unknown): ApiErrorBody => {
	if (body && typeof body === 'object' && 'error' in body) {
		const inner = (body as { error: unknown }).error;
		if (inner && typeof inner === 'object') return inner as ApiErrorBody;
	}
	return {};
};

/** Whether a body is the API's error envelope: `status: 'error'`, or an `error` object. */
export const isErrorEnvelope = (body: unknown): boolean =>
	(typeof body === 'object' &&
		body !== null &&
		(body as { status?: unknown }).status === 'error') ||
	Object.keys(readErrorBody(body)).length > 0;
