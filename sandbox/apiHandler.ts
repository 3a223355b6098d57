import type { IncomingMessage, ServerResponse } from 'node:http';

import { ApiError, MESSAGES } from './answers';
import { matchRoute, type Route } from './api';
import { Contract } from './contract';
import type { Deliveries } from './deliveries';
import { send, type ReceivedBody } from './http';
import { TOKENS, type Environment, type SandboxOptions } from './options';
import type { ApiState, Fault, LoggedRequest } from './state';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An answer to give: status, body and headers. */
interface Reply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

/** One API request being answered: where it goes, its body and its log entry. */
interface Call {
	req: IncomingMessage;
	res: ServerResponse;
	url: URL;
	env: Environment;
	method: string;
	path: string;
	received: ReceivedBody;
	entry: LoggedRequest;
}

const errorReply = (
	status: number,
	message: string = MESSAGES[status as keyof typeof MESSAGES],
) => ({
	status,
	body: new ApiError(status, message).body(),
});

/**
 * Answers each request to the API under /production/v3 and /sandbox/v3, in this order: the log entry,
 * latency, auth, an injected fault, the contract check, the rate limit, then the route of ROUTES.
 */
export class ApiHandler {
	private readonly contract: Contract | undefined;

	constructor(
		private readonly options: SandboxOptions,
		private readonly state: ApiState,
		private readonly deliveries: Deliveries,
	) {
		this.contract = options.contract ? Contract.shared() : undefined;
	}

	/** Answers a request to the API, `url` its target and `received` its body. */
	async handle(
		req: IncomingMessage,
		res: ServerResponse,
		url: URL,
		received: ReceivedBody,
	): Promise<void> {
		const match = url.pathname.match(/^\/(production|sandbox)\/v3(\/.*)$/);
		if (!match) return send(res, 404, new ApiError(404, MESSAGES[404]).body());
		const env = match[1] as Environment;
		const path = match[2].replace(/\/+$/, '') || '/';
		const method = req.method ?? 'GET';
		const entry = this.logged(req, url, { method, path, env });
		const call: Call = { req, res, url, env, method, path, received, entry };
		if (this.state.latencyMs) await sleep(this.state.latencyMs);
		const auth = req.headers.authorization;
		const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
		const refused = this.unauthenticated(call, auth, token);
		if (refused) return this.answer(call, refused);
		// Only a request with a valid token uses up a fault: a web page's image or link, which sends
		// none, cannot spend the fault a developer injected.
		const fault = this.state.takeFault(method, path);
		this.state.log.keepBody(entry, received.body, Buffer.byteLength(received.text));
		// Dropped once read: the request reached the API, its answer never comes.
		if (fault?.drop) {
			entry.status = -1;
			req.socket.destroy();
			return;
		}
		// Only a request with a valid token is checked against the contract: a stranger's text never
		// reaches the validator, the violation list or the terminal.
		this.checkRequest(call);
		const limit = this.state.countRequest(`${env}:${token}`);
		const reply: Reply = limit.limited ? errorReply(429) : this.authenticated(call, token, fault);
		return this.answer(call, { ...reply, headers: { ...limit.headers, ...reply.headers } });
	}

	/** The log entry of a request, logged without its body until its token is accepted. */
	private logged(
		req: IncomingMessage,
		url: URL,
		target: Pick<LoggedRequest, 'method' | 'path' | 'env'>,
	): LoggedRequest {
		const headers: Record<string, string> = {};
		let headerBytes = 0;
		for (const [name, value] of Object.entries(req.headers)) {
			headers[name] = name === 'authorization' ? 'Bearer ***' : String(value);
			headerBytes += name.length + headers[name].length;
		}
		const entry: LoggedRequest = {
			seq: this.state.nextSeq(),
			...target,
			query: Object.fromEntries(url.searchParams),
			body: null,
			status: 0,
			headers,
			at: new Date().toISOString(),
		};
		this.state.log.add(entry, Buffer.byteLength(req.url ?? '') + headerBytes);
		return entry;
	}

	/** The answer to a body too large or a missing or unknown token; undefined when the token is valid. */
	private unauthenticated(call: Call, auth?: string, token?: string): Reply | undefined {
		if (call.received.tooLarge) return { ...errorReply(413), headers: { Connection: 'close' } };
		if (!auth)
			return {
				status: 401,
				body: {
					status: 'error',
					error: {
						http_code: 401,
						message: MESSAGES[401],
						more_info: 'The Authorization header is missing.',
					},
				},
			};
		const tokens = TOKENS[call.env];
		if (token !== tokens.token && token !== tokens.readOnlyToken) return errorReply(401);
		return undefined;
	}

	/** With the contract option, records what in the request breaks spec/openapi.yaml. */
	private checkRequest({ req, url, method, path, received, entry }: Call): void {
		if (!this.contract) return;
		const { text, body, malformed } = received;
		this.state.report(
			entry,
			'request',
			malformed
				? ['body: not valid JSON']
				: this.contract.checkRequest({
						method,
						path,
						query: url.searchParams,
						headers: req.headers,
						body: text ? body : undefined,
					}),
		);
	}

	/** The answer to an authenticated request within the rate limit. */
	private authenticated(call: Call, token: string | undefined, fault: Fault | undefined): Reply {
		if (fault?.status) {
			// The envelope's http_code may differ from the status: a 2xx in the API's error envelope.
			const httpCode = fault.httpCode ?? fault.status;
			const { body } = errorReply(httpCode, httpCode === 500 ? MESSAGES[500] : `HTTP ${httpCode}`);
			const headers: Record<string, string> =
				fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) };
			return { status: fault.status, body, headers };
		}
		const found = matchRoute(call.method, call.path);
		if (!found) return errorReply(404);
		if (found === 'methodMismatch')
			return {
				status: 405,
				body: {
					status: 'error',
					error: { http_code: 405, message: 'Method not allowed', more_info: null },
				},
			};
		if (token === TOKENS[call.env].readOnlyToken && (found.route.write || found.route.order))
			return errorReply(403);
		if (call.received.malformed)
			return {
				status: 400,
				body: new ApiError(400, MESSAGES[400], {
					body: ['The body is not valid JSON.'],
				}).body(),
			};
		const unlisted = this.refusedQuery(call);
		if (unlisted.length)
			return {
				status: 400,
				body: new ApiError(
					400,
					MESSAGES[400],
					Object.fromEntries(
						unlisted.map((name) => [name, ['This query parameter was not expected.']]),
					),
				).body(),
			};
		return this.route(call, found.route, found.params);
	}

	/**
	 * The query parameters refused: with the contract option (and not `lenientQuery`), those the document
	 * does not list for the operation, as a request body's unknown field is refused.
	 */
	private refusedQuery({ method, path, url }: Call): string[] {
		if (!this.contract || this.options.lenientQuery) return [];
		return this.contract.unlistedQuery(method, path, url.searchParams);
	}

	/** Runs the route's handler on the environment's store. */
	private route(call: Call, route: Route, params: Record<string, string>): Reply {
		const { method, path, url } = call;
		const { body } = call.received;
		try {
			return route.handler({
				store: this.state.storeOf(call.env),
				params,
				query: url.searchParams,
				body,
				url,
				emit: (event, resource) => this.deliveries.emit(event, resource),
				pageCap: this.state.pageCaps[route.pattern.slice(1)],
				bodyProblems: () => Contract.shared().bodyProblems(method, path, body),
			});
		} catch (thrown) {
			if (thrown instanceof ApiError) return { status: thrown.status, body: thrown.body() };
			if (!this.options.quiet) console.error(thrown);
			return errorReply(500);
		}
	}

	/** Sends an answer, logged with its status and, with the contract option, checked. */
	private answer({ res, entry, method, path }: Call, { status, body, headers }: Reply): void {
		entry.status = status;
		if (this.contract)
			this.state.report(entry, 'response', this.contract.checkResponse(method, path, status, body));
		send(res, status, body, headers);
	}
}
