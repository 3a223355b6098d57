import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { EVENT_NAMES } from '../nodes/MaintenanceManagementTrigger/events';
import { COLLECTIONS, matchRoute } from './api';
import { Contract, type ContractViolation } from './contract';
import type { Resource, SeedSizes, Store } from './data';
import { Collection, DEFAULT_SEED, seedStore } from './data';
import {
	actOnFailure,
	ActionRefused,
	EVENT_SOURCES,
	FAILURE_ACTIONS,
	reportedFailure,
	setFailureStatus,
	sourceOf,
	sqlNow,
} from './events';
import { apiRefusal, refusal } from './guard';
import { ApiError, BodyTooLarge, MAX_BODY_BYTES, MESSAGES, printable, readBody } from './http';
import { RequestLog } from './requestLog';

/** The request log keeps the latest requests up to these bounds (see RequestLog). */
const LOG_MAX_REQUESTS = 5000;
const LOG_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The contract violations kept, the newest first to stay: at most this many, this many of one request or
 * answer, and each message and path cut at this many characters, so no request can grow them without end.
 */
const MAX_VIOLATIONS = 500;
const MAX_VIOLATIONS_PER_CHECK = 10;
const MAX_VIOLATION_CHARS = 500;

export type Environment = 'production' | 'sandbox';

export interface SandboxOptions {
	port?: number;
	host?: string;
	seed?: Partial<SeedSizes>;
	rateLimit?: { limit: number; windowMs: number } | null;
	latencyMs?: number;
	quiet?: boolean;
	/**
	 * Checks every API request and answer against spec/openapi.yaml. Violations go to the request log
	 * (`violations` of an entry), to `violations()` and `GET /__sandbox/violations`, and, unless quiet, to
	 * the console.
	 */
	contract?: boolean;
	/**
	 * Page-size caps per collection, as the live API has: a list answers at most this many records
	 * whatever `limit` asks, with a `links.next`. Keys are collection paths without the leading slash
	 * (see COLLECTIONS), for example `{ failures: 100, locations: 50 }`.
	 */
	pageCaps?: PageCaps;
	/**
	 * The secret the console adds to an n8n webhook URL pasted there (as `npm run dev`'s webhook
	 * credential holds it); SANDBOX_WEBHOOK_SECRET in `npm run sandbox`.
	 */
	webhookSecret?: string;
	/** How long a webhook delivery may take, answer included: 10 seconds unless set. */
	deliveryTimeoutMs?: number;
	/** Bounds of the request log: 5000 requests and 16 MiB of logged text unless set. */
	requestLog?: { maxRequests?: number; maxBytes?: number };
}

export type PageCaps = Record<string, number>;

/** Reads page-size caps written as `failures=100,locations=50` (the SANDBOX_PAGE_CAPS variable). */
export function parsePageCaps(text: string): PageCaps {
	const caps: PageCaps = {};
	for (const part of text.split(',').map((p) => p.trim())) {
		if (!part) continue;
		const [name, value] = part.split('=').map((p) => p.trim());
		caps[name] = Number(value);
	}
	return checkPageCaps(caps);
}

/** Refuses a cap on something that is not a collection, or a cap that is not a positive whole number. */
function checkPageCaps(caps: PageCaps): PageCaps {
	for (const [name, value] of Object.entries(caps)) {
		if (!COLLECTIONS.includes(name))
			throw new Error(`No collection "${name}" to cap: use one of ${COLLECTIONS.join(', ')}`);
		if (!Number.isInteger(value) || value < 1)
			throw new Error(`The page-size cap of ${name} must be a positive whole number`);
	}
	return caps;
}

export interface EnvironmentInfo {
	baseUrl: string;
	token: string;
	readOnlyToken: string;
}

export interface RunningSandbox {
	url: string;
	controlUrl: string;
	/** The console: a web page to register webhooks, act as the service's users and fire events. */
	consoleUrl: string;
	environments: Record<Environment, EnvironmentInfo>;
	/** The contract violations seen since the start or the last clearViolations (contract mode only). */
	violations(): ContractViolation[];
	clearViolations(): void;
	close(): Promise<void>;
}

/** Fixed, documented tokens: each environment has its own, and a read-only one. */
export const TOKENS: Record<Environment, { token: string; readOnlyToken: string }> = {
	production: { token: 'prod-token-0001-full-access', readOnlyToken: 'prod-token-0002-read-only' },
	sandbox: { token: 'sbx-token-0001-full-access', readOnlyToken: 'sbx-token-0002-read-only' },
};

interface Fault {
	status?: number;
	drop?: boolean;
	count: number;
	method?: string;
	path?: string;
}

/** One webhook call the sandbox made, as the console shows it. */
export interface Delivery {
	at: string;
	event: string;
	url: string;
	method: string;
	/** The HTTP status, or 0 when no answer came (the error says why). */
	status: number;
	response?: string;
	error?: string;
	ms: number;
}

/** The deliveries kept for the console: the newest, up to this many. */
const MAX_DELIVERIES = 200;
/** How much of each answer a delivery keeps. */
const MAX_RESPONSE_CHARS = 2000;
/** How much of a receiver's answer a delivery reads at most; the rest is never read. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const DELIVERY_TIMEOUT_MS = 10_000;

/** The start of an answer's body, at most `limit` bytes: the stream is cancelled past them. */
async function readStart(response: Response, limit: number): Promise<string> {
	if (!response.body) return '';
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	while (size < limit) {
		const { done, value } = await reader.read();
		if (done) break;
		chunks.push(value);
		size += value.length;
	}
	if (size >= limit) await reader.cancel();
	return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

const CONSOLE = readFileSync(`${__dirname}/console.html`);

interface Subscription {
	id: string;
	url: string;
	method: 'POST' | 'PATCH';
	events: string[];
	headers: Record<string, string>;
}

export interface LoggedRequest {
	seq: number;
	method: string;
	path: string;
	env: Environment;
	query: Record<string, string>;
	body: unknown;
	status: number;
	headers: Record<string, string>;
	at: string;
	/** With the contract option: what in this request or its answer breaks spec/openapi.yaml. */
	violations?: string[];
}

const send = (
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void => {
	const text = body === undefined ? '' : JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(text),
		...headers,
	});
	res.end(text);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the sandbox: all 22 endpoints of the spec under /production/v3 and /sandbox/v3, and the control API under /__sandbox. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	let seed: SeedSizes = { ...DEFAULT_SEED, ...options.seed };
	let stores: Partial<Record<Environment, Store>> = {};
	let rateLimit = options.rateLimit ?? null;
	let latencyMs = options.latencyMs ?? 0;
	let faults: Fault[] = [];
	let subscriptions: Subscription[] = [];
	const log = new RequestLog<LoggedRequest>(
		options.requestLog?.maxRequests ?? LOG_MAX_REQUESTS,
		options.requestLog?.maxBytes ?? LOG_MAX_BYTES,
	);
	let seq = 0;
	let pageCaps: PageCaps = checkPageCaps({ ...options.pageCaps });
	let violations: ContractViolation[] = [];
	const contract = options.contract ? Contract.shared() : undefined;
	const report = (entry: LoggedRequest, kind: ContractViolation['kind'], found: string[]) => {
		const messages = found
			.slice(0, MAX_VIOLATIONS_PER_CHECK)
			.map((message) => printable(message, MAX_VIOLATION_CHARS));
		if (found.length > messages.length)
			messages.push(`and ${found.length - messages.length} more violations`);
		const path = printable(entry.path, MAX_VIOLATION_CHARS);
		for (const message of messages) {
			violations.push({ kind, method: entry.method, path, message });
			(entry.violations ??= []).push(`${kind}: ${message}`);
			if (!options.quiet)
				console.warn(`[sandbox] contract: ${entry.method} ${path} ${kind}: ${message}`);
		}
		violations.splice(0, violations.length - MAX_VIOLATIONS);
	};
	const windows = new Map<string, { start: number; count: number }>();
	const pending = new Set<Promise<unknown>>();
	const storeOf = (env: Environment): Store => (stores[env] ??= seedStore(seed));

	let deliveries: Delivery[] = [];
	// Aborted by close(): a delivery in progress never keeps the sandbox from stopping.
	const closing = new AbortController();
	const deliveryTimeoutMs = options.deliveryTimeoutMs ?? DELIVERY_TIMEOUT_MS;
	const deliver = async (event: string, data: unknown): Promise<Delivery[]> => {
		const payload = JSON.stringify({
			event,
			event_id: randomUUID(),
			occurred_at: new Date().toISOString(),
			data,
		});
		const targets = subscriptions.filter((s) => s.events.includes('*') || s.events.includes(event));
		return await Promise.all(
			targets.map(async (s) => {
				const started = Date.now();
				const delivery: Delivery = {
					at: new Date(started).toISOString(),
					event,
					url: s.url,
					method: s.method,
					status: 0,
					ms: 0,
				};
				try {
					const signal = AbortSignal.any([closing.signal, AbortSignal.timeout(deliveryTimeoutMs)]);
					// A redirect is not followed: the secret in the URL or a header stays with the URL
					// registered, as the service's webhooks do.
					const response = await fetch(s.url, {
						method: s.method,
						headers: { 'Content-Type': 'application/json', 'X-Event-Name': event, ...s.headers },
						body: payload,
						redirect: 'manual',
						signal,
					});
					delivery.status = response.status;
					delivery.response = (await readStart(response, MAX_RESPONSE_BYTES)).slice(
						0,
						MAX_RESPONSE_CHARS,
					);
					if (response.status >= 300 && response.status < 400)
						delivery.error = `The receiver redirected (to ${response.headers.get('location') ?? 'nowhere'}); deliveries do not follow redirects.`;
				} catch (error) {
					const { name, message } = error as Error;
					delivery.error =
						name === 'TimeoutError'
							? `No answer within ${deliveryTimeoutMs / 1000} s: the delivery was given up.`
							: name === 'AbortError'
								? 'The sandbox stopped before the receiver answered.'
								: message;
				}
				delivery.ms = Date.now() - started;
				deliveries = [delivery, ...deliveries].slice(0, MAX_DELIVERIES);
				return delivery;
			}),
		);
	};
	/** Fires events one after the other about one record, and returns every delivery. */
	const fire = async (events: string[], record: Resource): Promise<Delivery[]> => {
		const made: Delivery[] = [];
		for (const event of events) made.push(...(await deliver(event, record)));
		return made;
	};
	const emit = (event: string, resource: Resource) => {
		if (!subscriptions.length) return;
		const delivery = deliver(event, resource);
		pending.add(delivery);
		void delivery.finally(() => pending.delete(delivery));
	};

	const reset = (body: Record<string, unknown>) => {
		seed = { ...DEFAULT_SEED, ...options.seed, ...(body.seed as Partial<SeedSizes>) };
		stores = {};
		rateLimit = (body.rateLimit as typeof rateLimit) ?? null;
		latencyMs = Number(body.latencyMs ?? 0);
		faults = [];
		subscriptions = [];
		deliveries = [];
		log.clear();
		pageCaps = checkPageCaps({ ...options.pageCaps, ...(body.pageCaps as PageCaps) });
		windows.clear();
	};

	const control = async (
		method: string,
		path: string,
		body: Record<string, unknown>,
		res: ServerResponse,
		query: URLSearchParams,
	) => {
		const parts = path.split('/').filter(Boolean);
		if (method === 'GET' && path === '/requests') return send(res, 200, { requests: log.list() });
		if (method === 'DELETE' && path === '/requests') {
			log.clear();
			return send(res, 200, { cleared: true });
		}
		if (method === 'POST' && path === '/reset') {
			reset(body);
			return send(res, 200, { reset: true, seed });
		}
		if (path === '/faults') {
			if (method === 'DELETE') faults = [];
			else
				faults.push({
					status: body.status as number,
					drop: Boolean(body.drop),
					count: Number(body.count ?? 1),
					method: body.method as string,
					path: body.path as string,
				});
			return send(res, 200, { faults });
		}
		if (method === 'POST' && path === '/rate-limit') {
			rateLimit = body.limit
				? { limit: Number(body.limit), windowMs: Number(body.windowMs ?? 60_000) }
				: null;
			windows.clear();
			return send(res, 200, { rateLimit });
		}
		if (path === '/violations') {
			if (method === 'DELETE') violations = [];
			return send(res, 200, { violations });
		}
		if (method === 'POST' && path === '/page-caps') {
			try {
				pageCaps = checkPageCaps({ ...(body as PageCaps) });
			} catch (error) {
				return send(res, 400, { error: (error as Error).message });
			}
			return send(res, 200, { pageCaps });
		}
		if (method === 'POST' && path === '/latency') {
			latencyMs = Number(body.ms ?? 0);
			return send(res, 200, { latencyMs });
		}
		if (method === 'GET' && path === '/info')
			return send(res, 200, {
				events: EVENT_SOURCES,
				failureActions: FAILURE_ACTIONS,
				webhookSecret: options.webhookSecret ?? null,
			});
		if (path === '/deliveries') {
			if (method === 'DELETE') deliveries = [];
			return send(res, 200, { deliveries });
		}
		if (method === 'DELETE' && parts[0] === 'webhooks' && parts.length === 2) {
			const before = subscriptions.length;
			subscriptions = subscriptions.filter((s) => s.id !== parts[1]);
			if (subscriptions.length === before) return send(res, 404, { error: 'No such webhook' });
			return send(res, 200, { webhooks: subscriptions });
		}
		if (path === '/webhooks') {
			if (method === 'GET') return send(res, 200, { webhooks: subscriptions });
			if (method === 'DELETE') {
				subscriptions = [];
				return send(res, 200, { webhooks: [] });
			}
			const events = Array.isArray(body.events) ? (body.events as string[]) : ['*'];
			const unknown = events.filter((e) => e !== '*' && !EVENT_NAMES.has(e));
			if (typeof body.url !== 'string' || !/^https?:\/\//i.test(body.url) || unknown.length)
				return send(res, 400, {
					error: `An http(s) url and known events are required${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
				});
			const subscription: Subscription = {
				id: randomUUID(),
				url: body.url,
				method: body.method === 'PATCH' ? 'PATCH' : 'POST',
				events,
				headers: (body.headers as Record<string, string>) ?? {},
			};
			subscriptions.push(subscription);
			return send(res, 201, subscription);
		}
		const env: Environment =
			(body.env ?? query.get('env')) === 'production' ? 'production' : 'sandbox';
		if (method === 'POST' && path === '/events') {
			const event = String(body.event ?? '');
			if (!EVENT_NAMES.has(event))
				return send(res, 400, {
					error: `Unknown event "${event}": use one of the 47 event names of the spec`,
				});
			// The record the event is about, from the store (the first one unless an id is given); a test
			// may send a payload of its own as `data`.
			const collection = storeOf(env)[sourceOf(event)] as Collection;
			const record =
				body.data ??
				(body.id === undefined ? collection.items[0] : collection.byId.get(String(body.id)));
			if (!record)
				return send(res, 404, { error: `No ${collection.type} ${String(body.id)} in the sandbox` });
			return send(res, 200, { data: record, deliveries: await deliver(event, record) });
		}
		if (method === 'GET' && parts[0] === 'records' && parts.length === 2) {
			const collection = (storeOf(env) as unknown as Record<string, Collection | undefined>)[
				parts[1]
			];
			if (!(collection instanceof Collection))
				return send(res, 404, { error: `No collection ${parts[1]}` });
			// The newest first, as a user looks for what they just did.
			return send(res, 200, { data: collection.items.slice(-50).reverse() });
		}
		if (method === 'GET' && parts[0] === 'state' && parts.length === 3) {
			const store = storeOf(env) as unknown as Record<string, { byId?: Map<string, Resource> }>;
			if (parts[1] === 'stock') {
				const [warehouse, material] = parts[2].split(':');
				return send(res, 200, {
					warehouse: Number(warehouse),
					material: Number(material),
					quantity: storeOf(env).stock.get(`${warehouse}:${material}`) ?? 0,
				});
			}
			const found = store[parts[1]]?.byId?.get(parts[2]);
			return found ? send(res, 200, found) : send(res, 404, { error: 'No such record' });
		}
		if (method === 'POST' && parts[0] === 'buy-orders' && parts[2] === 'state') {
			const order = storeOf(env).buyOrders.byId.get(parts[1]);
			if (!order) return send(res, 404, { error: 'No such buy order' });
			const state = String(body.state);
			const moved = order.attributes.state !== state;
			order.attributes.state = state;
			const now = sqlNow();
			const also: Record<string, string> = {
				CREATED: 'BUY_ORDER_STARTED',
				RECEIVED: 'BUY_ORDER_RECEIVED',
				CONFIRMED: 'BUY_ORDER_CONFIRMED',
			};
			if (state === 'CREATED')
				Object.assign(order.attributes, { processed_at: now, processed_by: 1 });
			if (state === 'RECEIVED')
				Object.assign(order.attributes, { completed_at: now, completed_by: 1 });
			const events = moved
				? ['BUY_ORDER_STATE_CHANGED', ...(also[state] ? [also[state]] : [])]
				: [];
			return send(res, 200, { data: order, events, deliveries: await fire(events, order) });
		}
		if (method === 'POST' && parts[0] === 'failures' && parts.length === 1) {
			const store = storeOf(env);
			if (body.local_id !== undefined && !store.locations.byId.has(String(body.local_id)))
				return send(res, 400, {
					error: `local_id: no location ${String(body.local_id)} in the sandbox; use the id of a location`,
				});
			const failure = reportedFailure(store, body);
			return send(res, 201, {
				data: failure,
				deliveries: await deliver('FAILURE_CREATED', failure),
			});
		}
		if (method === 'POST' && parts[0] === 'failures' && parts.length === 3) {
			const failure = storeOf(env).failures.byId.get(parts[1]);
			if (!failure) return send(res, 404, { error: `No work order ${parts[1]} in the sandbox` });
			let events: string[];
			try {
				if (parts[2] === 'status') {
					setFailureStatus(failure.attributes, String(body.status));
					events = ['FAILURE_STATE_CHANGED'];
				} else events = actOnFailure(failure, parts[2]);
			} catch (error) {
				if (error instanceof ActionRefused) return send(res, 409, { error: error.message });
				throw error;
			}
			return send(res, 200, { data: failure, events, deliveries: await fire(events, failure) });
		}
		return send(res, 404, { error: `Unknown control endpoint ${method} ${path}` });
	};

	const rateHeaders = (key: string): { headers: Record<string, string>; limited: boolean } => {
		if (!rateLimit)
			return {
				headers: { 'X-Ratelimit-Limit': '1000000', 'X-Ratelimit-Remaining': '1000000' },
				limited: false,
			};
		const now = Date.now();
		let window = windows.get(key);
		if (!window || now - window.start >= rateLimit.windowMs) {
			window = { start: now, count: 0 };
			windows.set(key, window);
		}
		window.count++;
		const limited = window.count > rateLimit.limit;
		const resetAt = window.start + rateLimit.windowMs;
		const headers: Record<string, string> = {
			'X-Ratelimit-Limit': String(rateLimit.limit),
			'X-Ratelimit-Remaining': String(Math.max(0, rateLimit.limit - window.count)),
		};
		if (limited) {
			headers['Retry-After'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
			headers['X-RateLimit-Reset'] = String(Math.ceil(resetAt / 1000));
		}
		return { headers, limited };
	};

	const selfOrigin = (host: string | undefined): string => {
		try {
			return new URL(`http://${host ?? ''}`).origin;
		} catch {
			return 'http://sandbox.local';
		}
	};

	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		let url: URL;
		try {
			// Links name the address the client used, as the live API's name its own host.
			url = new URL(req.url ?? '/', selfOrigin(req.headers.host));
		} catch {
			return send(
				res,
				400,
				new ApiError(400, MESSAGES[400], {
					url: ['The request target is not a valid URL.'],
				}).body(),
				{ Connection: 'close' },
			);
		}
		const isControl = url.pathname === '/' || url.pathname.startsWith('/__sandbox/');
		// Nothing of a request from a stranger's page is read: a control call from another origin, or an API
		// call to another Host or with a body that is not JSON, is refused on its headers alone.
		const refused = isControl
			? refusal(req.method ?? 'GET', req.headers, port)
			: apiRefusal(req.headers, port);
		if (typeof refused === 'string')
			return send(res, 403, { error: refused }, { Connection: 'close' });
		if (refused)
			return send(res, refused.status, new ApiError(refused.status, refused.message).body(), {
				Connection: 'close',
			});
		let text = '';
		let tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
		if (!tooLarge) {
			try {
				text = await readBody(req, MAX_BODY_BYTES);
			} catch (error) {
				// A client that went away has no one to answer: its socket is let go.
				if (!(error instanceof BodyTooLarge)) return void res.destroy();
				tooLarge = true;
			}
		}
		const tooLargeBody = () => new ApiError(413, MESSAGES[413]).body();
		let body: unknown = null;
		let malformed = false;
		if (text) {
			try {
				body = JSON.parse(text);
			} catch {
				malformed = true;
			}
		}
		if (isControl) {
			if (url.pathname === '/')
				return send(res, 302, undefined, { Location: '/__sandbox/console' });
			if (url.pathname === '/__sandbox/console') {
				res.writeHead(200, {
					'Content-Type': 'text/html; charset=utf-8',
					'Content-Security-Policy':
						"default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
					'X-Frame-Options': 'DENY',
				});
				return void res.end(CONSOLE);
			}
			if (tooLarge) return send(res, 413, tooLargeBody(), { Connection: 'close' });
			return await control(
				req.method ?? 'GET',
				url.pathname.slice('/__sandbox'.length),
				(body as Record<string, unknown>) ?? {},
				res,
				url.searchParams,
			);
		}
		const match = url.pathname.match(/^\/(production|sandbox)\/v3(\/.*)$/);
		if (!match) return send(res, 404, new ApiError(404, MESSAGES[404]).body());
		const env = match[1] as Environment;
		const path = match[2].replace(/\/+$/, '') || '/';
		const method = req.method ?? 'GET';
		const headers: Record<string, string> = {};
		let headerBytes = 0;
		for (const [name, value] of Object.entries(req.headers)) {
			headers[name] = name === 'authorization' ? 'Bearer ***' : String(value);
			headerBytes += name.length + headers[name].length;
		}
		const entry: LoggedRequest = {
			seq: ++seq,
			method,
			path,
			env,
			query: Object.fromEntries(url.searchParams),
			body,
			status: 0,
			headers,
			at: new Date().toISOString(),
		};
		log.add(entry, Buffer.byteLength(req.url ?? '') + headerBytes);
		const fault = faults.find(
			(f) => f.count > 0 && (!f.method || f.method === method) && (!f.path || f.path === path),
		);
		if (fault) {
			fault.count--;
			if (fault.drop) {
				entry.status = -1;
				req.socket.destroy();
				return;
			}
		}
		if (latencyMs) await sleep(latencyMs);
		const auth = req.headers.authorization;
		const tokens = TOKENS[env];
		const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
		const answer = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
			entry.status = status;
			if (contract)
				report(entry, 'response', contract.checkResponse(method, path, status, payload));
			send(res, status, payload, extra);
		};
		if (tooLarge) return answer(413, tooLargeBody(), { Connection: 'close' });
		if (!auth)
			return answer(401, {
				status: 'error',
				error: {
					http_code: 401,
					message: MESSAGES[401],
					more_info: 'The Authorization header is missing.',
				},
			});
		if (token !== tokens.token && token !== tokens.readOnlyToken)
			return answer(401, new ApiError(401, MESSAGES[401]).body());
		log.keepBody(entry, body, Buffer.byteLength(text));
		// Only a request with a valid token is checked against the contract: a stranger's text never
		// reaches the validator, the violation list or the terminal.
		if (contract)
			report(
				entry,
				'request',
				malformed
					? ['body: not valid JSON']
					: contract.checkRequest({
							method,
							path,
							query: url.searchParams,
							headers: req.headers,
							body: text ? body : undefined,
						}),
			);
		const limit = rateHeaders(`${env}:${token}`);
		if (limit.limited) return answer(429, new ApiError(429, MESSAGES[429]).body(), limit.headers);
		if (fault?.status)
			return answer(
				fault.status,
				new ApiError(
					fault.status,
					fault.status === 500 ? MESSAGES[500] : `HTTP ${fault.status}`,
				).body(),
				limit.headers,
			);
		const found = matchRoute(method, path);
		if (!found) return answer(404, new ApiError(404, MESSAGES[404]).body(), limit.headers);
		if (found === 'methodMismatch')
			return answer(
				405,
				{
					status: 'error',
					error: { http_code: 405, message: 'Method not allowed', more_info: null },
				},
				limit.headers,
			);
		if (token === tokens.readOnlyToken && (found.route.write || found.route.order))
			return answer(403, new ApiError(403, MESSAGES[403]).body(), limit.headers);
		if (malformed)
			return answer(
				400,
				new ApiError(400, MESSAGES[400], { body: ['The body is not valid JSON.'] }).body(),
				limit.headers,
			);
		try {
			const result = found.route.handler({
				store: storeOf(env),
				params: found.params,
				query: url.searchParams,
				body,
				url,
				emit,
				pageCap: pageCaps[found.route.pattern.slice(1)],
				bodyProblems: () => Contract.shared().bodyProblems(method, path, body),
			});
			return answer(result.status, result.body, limit.headers);
		} catch (error) {
			if (error instanceof ApiError) return answer(error.status, error.body(), limit.headers);
			if (!options.quiet) console.error(error);
			return answer(500, new ApiError(500, MESSAGES[500]).body(), limit.headers);
		}
	};
	let port = 0;
	const server = createServer((req, res) => {
		// Whatever a request does, the sandbox answers it or drops it, and keeps serving.
		handle(req, res).catch((error: unknown) => {
			if (!options.quiet) console.error(error);
			if (res.headersSent) res.destroy();
			else send(res, 500, new ApiError(500, MESSAGES[500]).body(), { Connection: 'close' });
		});
	});
	server.keepAliveTimeout = 5000;

	await new Promise<void>((resolve) =>
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
	);
	({ port } = server.address() as AddressInfo);
	const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
	return {
		url,
		controlUrl: `${url}/__sandbox`,
		consoleUrl: `${url}/__sandbox/console`,
		environments: {
			production: { baseUrl: `${url}/production/v3`, ...TOKENS.production },
			sandbox: { baseUrl: `${url}/sandbox/v3`, ...TOKENS.sandbox },
		},
		violations: () => [...violations],
		clearViolations: () => {
			violations = [];
		},
		close: async () => {
			closing.abort();
			await Promise.allSettled([...pending]);
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
