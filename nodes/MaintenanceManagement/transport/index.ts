import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiError } from './errors';

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

export interface RetryPolicy {
	/** Attempts in all, the first one included. */
	maxAttempts: number;
	/** The most the node waits in all between attempts, in milliseconds. */
	maxTotalWaitMs: number;
	/** First back-off step when the answer gives no wait; it doubles each attempt. */
	baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 5,
	maxTotalWaitMs: 120_000,
	baseDelayMs: 1000,
};

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path after the base URL, with its path parameters already encoded (see `buildPath`). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
}

interface Connection {
	baseUrl: string;
	environment: string;
	token: string;
}

const connections = new WeakMap<object, Promise<Connection>>();

/** Reads the credential once per execution: the environment decides the base URL. */
async function getConnection(this: Context, itemIndex?: number): Promise<Connection> {
	const cached = connections.get(this);
	if (cached) return await cached;
	const pending = (async () => {
		const credentials = await this.getCredentials(CREDENTIAL_TYPE, itemIndex);
		const environment = credentials.environment === 'sandbox' ? 'sandbox' : 'production';
		const field = environment === 'sandbox' ? 'sandboxBaseUrl' : 'productionBaseUrl';
		const label = environment === 'sandbox' ? 'Sandbox Base URL' : 'Production Base URL';
		const baseUrl = String(credentials[field] ?? '')
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
		if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?\/v3$/i.test(baseUrl)) {
			throw new NodeOperationError(
				this.getNode(),
				`The credential's ${label} is not a valid API address`,
				{
					description: `Set "${label}" in the credential to the address of the API, starting with https:// and ending with /v3 (for example https://api.example.com/v3). No request was sent.`,
					itemIndex,
				},
			);
		}
		return { baseUrl, environment, token };
	})();
	connections.set(this, pending);
	// A failed read is not kept, so a corrected credential is read again next time.
	pending.catch(() => connections.delete(this));
	return await pending;
}

/** Fills `{slot}` placeholders of an endpoint path with URL-encoded values. */
export function buildPath(template: string, values: Record<string, string | number>): string {
	return template.replace(/\{([^}]+)\}/g, (_match, slot: string) => {
		const value = values[slot];
		if (value === undefined || value === '') {
			throw new Error(`Path parameter "${slot}" has no value`);
		}
		return encodeURIComponent(String(value));
	});
}

const redact = (text: string, token: string): string =>
	token ? text.split(token).join('***') : text;

const header = (headers: IDataObject | undefined, name: string): string | undefined => {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	return value === undefined ? undefined : String(value);
};

/** How long a 429 answer asks us to wait: `Retry-After` (seconds) first, then `X-RateLimit-Reset` (UNIX time). */
export function rateLimitWaitMs(
	headers: IDataObject | undefined,
	now = Date.now(),
): number | undefined {
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter !== undefined && retryAfter.trim() !== '') {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	const reset = Number(header(headers, 'x-ratelimit-reset'));
	if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
	return undefined;
}

/** Exponential back-off with full jitter. */
const backoffMs = (policy: RetryPolicy, attempt: number): number =>
	Math.round(policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() * 0.5));

const CONNECTION_FAULTS = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EAI_AGAIN',
	'UND_ERR_SOCKET',
]);

const isConnectionFault = (error: unknown): boolean => {
	const { code, message } = (error ?? {}) as { code?: string; message?: string };
	return (
		(code !== undefined && CONNECTION_FAULTS.has(code)) ||
		/socket hang up|ECONNRESET|other side closed/i.test(message ?? '')
	);
};

interface FullResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/**
 * Sends one API request. 429 answers are retried for every method (the request was not processed);
 * 5xx answers and dropped connections only for GET, so that a POST or PATCH is never sent twice.
 */
export async function apiRequest(
	this: Context,
	request: ApiRequest,
	retry: RetryPolicy = DEFAULT_RETRY,
	itemIndex?: number,
): Promise<ApiEnvelope> {
	const { baseUrl, environment, token } = await getConnection.call(this, itemIndex);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		headers: { Accept: 'application/json' },
		qs: request.qs,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (request.body !== undefined) {
		options.body = request.body;
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	const context = { method: request.method, path: request.path, environment };
	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		let response: FullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				options,
			)) as FullResponse;
		} catch (error) {
			const message = redact(error instanceof Error ? error.message : String(error), token);
			const retriable = request.method === 'GET' && isConnectionFault(error);
			const wait = backoffMs(retry, attempt);
			if (retriable && attempt < retry.maxAttempts && waitedMs + wait <= retry.maxTotalWaitMs) {
				waitedMs += wait;
				await sleep(wait);
				continue;
			}
			throw new NodeApiError(
				this.getNode(),
				{ message, code: (error as { code?: string }).code ?? null } as JsonObject,
				{
					message: `Could not reach the API: ${message}`,
					description:
						request.method === 'GET'
							? `The connection to ${baseUrl} failed after ${attempt} attempt(s). Check the base URL in the credential and the network.`
							: `The connection to ${baseUrl} failed. The ${request.method} request was not retried, so that nothing is created or changed twice; check whether the change was applied before running it again.`,
					itemIndex,
				},
			);
		}
		const { statusCode } = response;
		if (statusCode < 400) return (response.body ?? {}) as ApiEnvelope;
		const retriable = statusCode === 429 || (statusCode >= 500 && request.method === 'GET');
		if (retriable && attempt < retry.maxAttempts) {
			const asked = statusCode === 429 ? rateLimitWaitMs(response.headers) : undefined;
			const wait = asked ?? backoffMs(retry, attempt);
			if (waitedMs + wait <= retry.maxTotalWaitMs) {
				waitedMs += wait;
				await sleep(wait);
				continue;
			}
		}
		throw apiError(
			this.getNode(),
			statusCode,
			response.body,
			{ ...context, attempts: attempt, waitedMs },
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
 * Pages through a collection: `page` starts at 1 and keeps one `limit` throughout. It stops when a page
 * holds fewer records than the limit (the spec's rule), when `links.next` is absent, when data is empty,
 * or when a page repeats the previous one. With a Limit, it asks for no more records than needed.
 * Each page is turned into output records as it arrives (`toRecords`, with that page's `included`),
 * so the raw pages do not pile up in memory.
 */
export async function apiRequestAllItems(
	this: Context,
	request: ApiRequest,
	pages: PageOptions,
	toRecords: (data: ApiResource[], included: ApiResource[] | undefined) => IDataObject[],
	retry: RetryPolicy = DEFAULT_RETRY,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const wanted = pages.returnAll ? Infinity : Math.max(1, Math.floor(pages.limit ?? 50));
	// The fewest pages that can hold the records wanted, then the smallest page size that fills them.
	const pageSize = pages.returnAll
		? MAX_PAGE_SIZE
		: Math.ceil(wanted / Math.ceil(wanted / MAX_PAGE_SIZE));
	const records: IDataObject[] = [];
	let previous = '';
	for (let page = 1; records.length < wanted; page++) {
		const envelope = await apiRequest.call(
			this,
			{ ...request, qs: { ...request.qs, page, limit: pageSize } },
			retry,
			itemIndex,
		);
		const pageData = Array.isArray(envelope.data)
			? envelope.data
			: envelope.data
				? [envelope.data]
				: [];
		if (pageData.length === 0) break;
		const key = pageKey(pageData);
		if (key === previous) break;
		previous = key;
		const take = Math.min(pageData.length, wanted - records.length);
		for (const record of toRecords(
			take < pageData.length ? pageData.slice(0, take) : pageData,
			envelope.included,
		)) {
			records.push(record);
		}
		const lastPage =
			pageData.length < pageSize || (envelope.links !== undefined && !envelope.links.next);
		if (lastPage) break;
	}
	return records;
}
