import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Contract, type ContractViolation } from '../../sandbox/contract';
import { readBody } from '../../sandbox/http';
import { failClientOf, type SocketFault } from './socketFaults';

/** A request as the scripted server received it. */
export interface ReceivedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingMessage['headers'];
	rawHeaders: string[];
	body: unknown;
}

/**
 * An answer: a JSON body, or `raw` text sent as it is (with its own Content-Type header), sent at once
 * or one character every `trickleMs`; a dropped connection, none at all (`hang`), or none and the
 * client's socket failing once the whole request is read (`fault`, for a client in this process only:
 * see socketFaults.ts).
 */
export type Reply =
	| {
			status: number;
			headers?: Record<string, string>;
			body?: unknown;
			raw?: string;
			trickleMs?: number;
	  }
	| { fault: SocketFault }
	| 'drop'
	| 'hang';

/** An error answer in the API's envelope: `http_code` is the status, `error` the rest of its fields. */
export const apiError = (status: number, error: Record<string, unknown>) => ({
	status,
	body: { status: 'error', error: { http_code: status, ...error } },
});

export type Handler = (request: ReceivedRequest, index: number) => Reply;

/** Sends `text` one character every `everyMs`, to its end unless the client goes away first. */
function trickle(res: ServerResponse, text: string, everyMs: number): void {
	const characters = [...text];
	const timer = setInterval(() => {
		const next = characters.shift();
		if (next === undefined) {
			clearInterval(timer);
			res.end();
		} else res.write(next);
	}, everyMs);
	res.once('close', () => clearInterval(timer));
}

/**
 * A local HTTP server whose answers each test scripts, recording every request it receives. With
 * `contract`, it checks each request (the path after `/v3`) against spec/openapi.yaml; its scripted
 * answers are the test's own, so they are not checked.
 */
export class ScriptedServer {
	readonly requests: ReceivedRequest[] = [];

	private found: ContractViolation[] = [];

	private readonly contract?: Contract;

	constructor(options: { contract?: boolean } = {}) {
		if (options.contract) this.contract = Contract.load();
	}

	violations(): ContractViolation[] {
		return [...this.found];
	}

	clearViolations(): void {
		this.found = [];
	}

	handler: Handler = () => ({ status: 200, body: { data: [] } });

	private server?: Server;

	url = '';

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			void readBody(req).then((text) => {
				const url = new URL(req.url ?? '/', 'http://localhost');
				const request: ReceivedRequest = {
					method: req.method ?? 'GET',
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					headers: req.headers,
					rawHeaders: req.rawHeaders,
					body: text ? JSON.parse(text) : undefined,
				};
				this.requests.push(request);
				this.check(request, url.searchParams);
				const reply = this.handler(request, this.requests.length - 1);
				if (reply === 'hang') return;
				if (reply === 'drop') {
					req.socket.destroy();
					return;
				}
				if ('fault' in reply) {
					failClientOf(req.socket, reply.fault);
					return;
				}
				res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
				const answer = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
				if (reply.trickleMs === undefined) res.end(answer);
				else trickle(res, answer, reply.trickleMs);
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
	}

	private check(request: ReceivedRequest, query: URLSearchParams): void {
		if (!this.contract) return;
		const path = request.path.replace(/^.*?\/v3(?=\/)/, '');
		const { method, headers, body } = request;
		for (const message of this.contract.checkRequest({ method, path, query, headers, body }))
			this.found.push({ kind: 'request', method, path, message });
	}

	reset(handler: Handler): void {
		this.requests.length = 0;
		this.handler = handler;
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()));
	}
}

/** A collection page in the spec's envelope, for `total` records of which this page shows `page` of size `limit`. */
export function collectionPage(
	total: number,
	page: number,
	limit: number,
	options: { links?: boolean; type?: string; path?: string } = {},
) {
	const start = (page - 1) * limit;
	const count = Math.max(0, Math.min(limit, total - start));
	const lastPage = Math.max(1, Math.ceil(total / limit));
	const data = Array.from({ length: count }, (_, index) => ({
		id: String(start + index + 1),
		type: options.type ?? 'failure',
		attributes: { failure_id: start + index + 1, code: `WO-${start + index + 1}` },
	}));
	// Relative to the base URL, as resolved by the node; the live API sends them absolute.
	const link = (target: number) => `${options.path ?? 'failures'}?page=${target}&limit=${limit}`;
	const links: Record<string, string> = { self: link(page), first: link(1), last: link(lastPage) };
	if (page < lastPage) links.next = link(page + 1);
	if (page > 1) links.prev = link(page - 1);
	return {
		data,
		meta: {
			pagination: {
				total: count,
				count,
				per_page: limit,
				current_page: page,
				total_pages: page + 1,
			},
		},
		...(options.links === false ? {} : { links }),
	};
}
