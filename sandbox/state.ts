import type { ContractViolation } from './contract';
import type { SeedSizes, Store } from './data';
import { DEFAULT_SEED, seedStore } from './data';
import { printable } from './http';
import { checkPageCaps, type Environment, type PageCaps, type SandboxOptions } from './options';
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

/**
 * A fault the control API injects: the next `count` matching requests answer `status` in the API's error
 * envelope (its `http_code` is `httpCode`, else `status`; with `retryAfter`, seconds, a `Retry-After`
 * header too), or are dropped once read.
 */
export interface Fault {
	status?: number;
	httpCode?: number;
	retryAfter?: number;
	drop?: boolean;
	count: number;
	method?: string;
	path?: string;
}

export type RateLimit = { limit: number; windowMs: number } | null;

/** The rate-limit headers of a request, and whether it is over the limit. */
export interface RateCount {
	headers: Record<string, string>;
	limited: boolean;
}

/**
 * The state of the API under /production/v3 and /sandbox/v3: the stores of both environments, what the
 * control API sets about them (faults, rate limit, latency, page-size caps), the request log and the
 * contract violations. The API reads it; the control API changes it through these methods only.
 */
export class ApiState {
	private seedSizes: SeedSizes;

	private limit: RateLimit;

	private latency: number;

	private faultList: Fault[] = [];

	private caps: PageCaps;

	private violationList: ContractViolation[] = [];

	readonly log: RequestLog<LoggedRequest>;

	private stores: Partial<Record<Environment, Store>> = {};

	/** The rate-limit window of each environment and token. */
	private readonly windows = new Map<string, { start: number; count: number }>();

	private seq = 0;

	constructor(private readonly options: SandboxOptions) {
		this.seedSizes = { ...DEFAULT_SEED, ...options.seed };
		this.limit = options.rateLimit ?? null;
		this.latency = options.latencyMs ?? 0;
		this.log = new RequestLog<LoggedRequest>(
			options.requestLog?.maxRequests ?? LOG_MAX_REQUESTS,
			options.requestLog?.maxBytes ?? LOG_MAX_BYTES,
		);
		this.caps = checkPageCaps({ ...options.pageCaps });
	}

	get seed(): SeedSizes {
		return this.seedSizes;
	}

	get rateLimit(): RateLimit {
		return this.limit;
	}

	get latencyMs(): number {
		return this.latency;
	}

	get faults(): readonly Fault[] {
		return this.faultList;
	}

	get pageCaps(): PageCaps {
		return this.caps;
	}

	get violations(): readonly ContractViolation[] {
		return this.violationList;
	}

	/** The store of an environment, seeded on its first use. */
	storeOf(env: Environment): Store {
		return (this.stores[env] ??= seedStore(this.seedSizes));
	}

	/** The next number of a logged request. */
	nextSeq(): number {
		return ++this.seq;
	}

	setRateLimit(rateLimit: RateLimit): void {
		this.limit = rateLimit;
		this.windows.clear();
	}

	setLatency(ms: number): void {
		this.latency = ms;
	}

	/** Sets the page-size caps; throws, changing nothing, when one is not a collection's or not valid. */
	setPageCaps(caps: PageCaps): void {
		this.caps = checkPageCaps(caps);
	}

	addFault(fault: Fault): void {
		this.faultList.push(fault);
	}

	clearFaults(): void {
		this.faultList = [];
	}

	/** The first fault left that matches a request, counted as used; a spent fault leaves the list. */
	takeFault(method: string, path: string): Fault | undefined {
		const fault = this.faultList.find(
			(f) => f.count > 0 && (!f.method || f.method === method) && (!f.path || f.path === path),
		);
		if (fault && --fault.count <= 0) this.faultList = this.faultList.filter((f) => f !== fault);
		return fault;
	}

	clearViolations(): void {
		this.violationList = [];
	}

	/** Back to the start options, with what `body` of POST /__sandbox/reset sets. */
	reset(body: Record<string, unknown>): void {
		this.seedSizes = {
			...DEFAULT_SEED,
			...this.options.seed,
			...(body.seed as Partial<SeedSizes>),
		};
		this.stores = {};
		this.limit = (body.rateLimit as RateLimit) ?? null;
		this.latency = Number(body.latencyMs ?? 0);
		this.faultList = [];
		this.log.clear();
		this.caps = checkPageCaps({ ...this.options.pageCaps, ...(body.pageCaps as PageCaps) });
		this.windows.clear();
	}

	/** Records what a contract check found, in the request's log entry and the violations kept. */
	report(entry: LoggedRequest, kind: ContractViolation['kind'], found: string[]): void {
		const messages = found
			.slice(0, MAX_VIOLATIONS_PER_CHECK)
			.map((message) => printable(message, MAX_VIOLATION_CHARS));
		if (found.length > messages.length)
			messages.push(`and ${found.length - messages.length} more violations`);
		const path = printable(entry.path, MAX_VIOLATION_CHARS);
		for (const message of messages) {
			this.violationList.push({ kind, method: entry.method, path, message });
			(entry.violations ??= []).push(`${kind}: ${message}`);
			if (!this.options.quiet)
				console.warn(`[sandbox] contract: ${entry.method} ${path} ${kind}: ${message}`);
		}
		this.violationList.splice(0, this.violationList.length - MAX_VIOLATIONS);
	}

	/** Counts a request in the window of `key` (environment and token). */
	countRequest(key: string): RateCount {
		const rateLimit = this.limit;
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
