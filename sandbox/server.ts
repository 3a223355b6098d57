import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { matchRoute } from './api';
import { Contract, type ContractViolation } from './contract';
import type { Control } from './control';
import type { SeedSizes, Store } from './data';
import { DEFAULT_SEED, seedStore } from './data';
import type { Deliveries } from './deliveries';
import { apiRefusal, refusal } from './guard';
import {
	ApiError,
	BodyTooLarge,
	MAX_BODY_BYTES,
	MESSAGES,
	printable,
	readBody,
	send,
} from './http';
import {
	checkPageCaps,
	TOKENS,
	type Environment,
	type PageCaps,
	type SandboxOptions,
} from './options';
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

/** A fault the control API injects: the next `count` matching requests answer `status`, or are dropped. */
export interface Fault {
	status?: number;
	drop?: boolean;
	count: number;
	method?: string;
	path?: string;
}

export type RateLimit = { limit: number; windowMs: number } | null;

/** A request's body as the server read it. */
export interface ReceivedBody {
	text: string;
	/** The parsed JSON, or null when there is none or it is not JSON. */
	body: unknown;
	/** A body that is not valid JSON. */
	malformed: boolean;
	/** A body over MAX_BODY_BYTES, which was not kept. */
	tooLarge: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tooLargeBody = () => new ApiError(413, MESSAGES[413]).body();

/**
 * The API under /production/v3 and /sandbox/v3: the stores of both environments, and what the control API
 * sets about them (faults, rate limit, latency, page-size caps), the request log and the contract
 * violations. It answers each request: auth, rate limit, contract checks, then the route of ROUTES.
 */
export class Api {
	seed: SeedSizes;

	rateLimit: RateLimit;

	latencyMs: number;

	faults: Fault[] = [];

	pageCaps: PageCaps;

	violations: ContractViolation[] = [];

	readonly log: RequestLog<LoggedRequest>;

	private stores: Partial<Record<Environment, Store>> = {};

	/** The rate-limit window of each environment and token. */
	private readonly windows = new Map<string, { start: number; count: number }>();

	private seq = 0;

	private readonly contract: Contract | undefined;

	constructor(
		private readonly options: SandboxOptions,
		private readonly deliveries: Deliveries,
	) {
		this.seed = { ...DEFAULT_SEED, ...options.seed };
		this.rateLimit = options.rateLimit ?? null;
		this.latencyMs = options.latencyMs ?? 0;
		this.log = new RequestLog<LoggedRequest>(
			options.requestLog?.maxRequests ?? LOG_MAX_REQUESTS,
			options.requestLog?.maxBytes ?? LOG_MAX_BYTES,
		);
		this.pageCaps = checkPageCaps({ ...options.pageCaps });
		this.contract = options.contract ? Contract.shared() : undefined;
	}

	/** The store of an environment, seeded on its first use. */
	storeOf(env: Environment): Store {
		return (this.stores[env] ??= seedStore(this.seed));
	}

	setRateLimit(rateLimit: RateLimit): void {
		this.rateLimit = rateLimit;
		this.windows.clear();
	}

	/** Back to the start options, with what `body` of POST /__sandbox/reset sets. */
	reset(body: Record<string, unknown>): void {
		this.seed = { ...DEFAULT_SEED, ...this.options.seed, ...(body.seed as Partial<SeedSizes>) };
		this.stores = {};
		this.rateLimit = (body.rateLimit as RateLimit) ?? null;
		this.latencyMs = Number(body.latencyMs ?? 0);
		this.faults = [];
		this.log.clear();
		this.pageCaps = checkPageCaps({ ...this.options.pageCaps, ...(body.pageCaps as PageCaps) });
		this.windows.clear();
	}

	/** Answers a request to the API, `url` its target and `received` its body. */
	async handle(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		received: ReceivedBody,
	): Promise<void> {
		const { text, body, malformed, tooLarge } = received;
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
			seq: ++this.seq,
			method,
			path,
			env,
			query: Object.fromEntries(url.searchParams),
			body,
			status: 0,
			headers,
			at: new Date().toISOString(),
		};
		this.log.add(entry, Buffer.byteLength(req.url ?? '') + headerBytes);
		const fault = this.faults.find(
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
		if (this.latencyMs) await sleep(this.latencyMs);
		const auth = req.headers.authorization;
		const tokens = TOKENS[env];
		const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
		const contract = this.contract;
		const answer = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
			entry.status = status;
			if (contract)
				this.report(entry, 'response', contract.checkResponse(method, path, status, payload));
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
		this.log.keepBody(entry, body, Buffer.byteLength(text));
		// Only a request with a valid token is checked against the contract: a stranger's text never
		// reaches the validator, the violation list or the terminal.
		if (contract)
			this.report(
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
		const limit = this.rateHeaders(`${env}:${token}`);
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
				store: this.storeOf(env),
				params: found.params,
				query: url.searchParams,
				body,
				url,
				emit: (event, resource) => this.deliveries.emit(event, resource),
				pageCap: this.pageCaps[found.route.pattern.slice(1)],
				bodyProblems: () => Contract.shared().bodyProblems(method, path, body),
			});
			return answer(result.status, result.body, limit.headers);
		} catch (error) {
			if (error instanceof ApiError) return answer(error.status, error.body(), limit.headers);
			if (!this.options.quiet) console.error(error);
			return answer(500, new ApiError(500, MESSAGES[500]).body(), limit.headers);
		}
	}

	/** Records what a contract check found, in the request's log entry and the violations kept. */
	private report(entry: LoggedRequest, kind: ContractViolation['kind'], found: string[]): void {
		const messages = found
			.slice(0, MAX_VIOLATIONS_PER_CHECK)
			.map((message) => printable(message, MAX_VIOLATION_CHARS));
		if (found.length > messages.length)
			messages.push(`and ${found.length - messages.length} more violations`);
		const path = printable(entry.path, MAX_VIOLATION_CHARS);
		for (const message of messages) {
			this.violations.push({ kind, method: entry.method, path, message });
			(entry.violations ??= []).push(`${kind}: ${message}`);
			if (!this.options.quiet)
				console.warn(`[sandbox] contract: ${entry.method} ${path} ${kind}: ${message}`);
		}
		this.violations.splice(0, this.violations.length - MAX_VIOLATIONS);
	}

	/** Counts a request in its window: the rate-limit headers, and whether it is over the limit. */
	private rateHeaders(key: string): { headers: Record<string, string>; limited: boolean } {
		const rateLimit = this.rateLimit;
		if (!rateLimit)
			return {
				headers: { 'X-Ratelimit-Limit': '1000000', 'X-Ratelimit-Remaining': '1000000' },
				limited: false,
			};
		const now = Date.now();
		let window = this.windows.get(key);
		if (!window || now - window.start >= rateLimit.windowMs) {
			window = { start: now, count: 0 };
			this.windows.set(key, window);
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
	}
}

const selfOrigin = (host: string | undefined): string => {
	try {
		return new URL(`http://${host ?? ''}`).origin;
	} catch {
		return 'http://sandbox.local';
	}
};

/**
 * The HTTP server: refuses what a stranger's page sends on its headers alone, reads the body, and hands
 * the request to the control API (`/__sandbox/...` and `/`) or to the API.
 */
export class SandboxServer {
	private readonly server: Server;

	/** The port listened on, once listening. */
	port = 0;

	constructor(
		private readonly options: SandboxOptions,
		private readonly api: Api,
		private readonly control: Control,
	) {
		this.server = createServer((req, res) => {
			// Whatever a request does, the sandbox answers it or drops it, and keeps serving.
			this.handle(req, res).catch((error: unknown) => {
				if (!options.quiet) console.error(error);
				if (res.headersSent) res.destroy();
				else send(res, 500, new ApiError(500, MESSAGES[500]).body(), { Connection: 'close' });
			});
		});
		this.server.keepAliveTimeout = 5000;
	}

	/** Listens on the options' host and port (a free port unless set), and returns the base URL. */
	async listen(): Promise<string> {
		const host = this.options.host ?? '127.0.0.1';
		await new Promise<void>((resolve) => this.server.listen(this.options.port ?? 0, host, resolve));
		({ port: this.port } = this.server.address() as AddressInfo);
		return `http://${host}:${this.port}`;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
			? refusal(req.method ?? 'GET', req.headers, this.port)
			: apiRefusal(req.headers, this.port);
		if (typeof refused === 'string')
			return send(res, 403, { error: refused }, { Connection: 'close' });
		if (refused)
			return send(res, refused.status, new ApiError(refused.status, refused.message).body(), {
				Connection: 'close',
			});
		const received = await this.receive(req);
		if (!received) return void res.destroy();
		if (isControl) return await this.control.handle(req.method ?? 'GET', url, received, res);
		return await this.api.handle(req, res, url, received);
	}

	/** Reads and parses a request's body; undefined when the client went away before it ended. */
	private async receive(req: IncomingMessage): Promise<ReceivedBody | undefined> {
		let text = '';
		let tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
		if (!tooLarge) {
			try {
				text = await readBody(req, MAX_BODY_BYTES);
			} catch (error) {
				// A client that went away has no one to answer: its socket is let go.
				if (!(error instanceof BodyTooLarge)) return undefined;
				tooLarge = true;
			}
		}
		let body: unknown = null;
		let malformed = false;
		if (text) {
			try {
				body = JSON.parse(text);
			} catch {
				malformed = true;
			}
		}
		return { text, body, malformed, tooLarge };
	}
}
