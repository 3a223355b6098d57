import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';

import {
	EVENT_NAMES,
	isEventName,
	type EventName,
} from '../nodes/MaintenanceManagementTrigger/events';
import type { Resource } from './data';
import { Collection } from './data';
import type { Deliveries, Subscription } from './deliveries';
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
import { ApiError, MESSAGES } from './answers';
import { send, type ReceivedBody } from './http';
import type { Environment, PageCaps, SandboxOptions } from './options';
import type { ApiState } from './state';

const CONSOLE = readFileSync(`${__dirname}/console.html`);

type Body = Record<string, unknown>;

/** A control API answer: status and JSON body. */
interface Reply {
	status: number;
	body: unknown;
}

const ok = (body: unknown): Reply => ({ status: 200, body });

/** The events a buy order's new state fires besides BUY_ORDER_STATE_CHANGED. */
const BUY_ORDER_STATE_EVENTS: Record<string, EventName> = {
	CREATED: 'BUY_ORDER_STARTED',
	RECEIVED: 'BUY_ORDER_RECEIVED',
	CONFIRMED: 'BUY_ORDER_CONFIRMED',
};

/** The most faults waiting at once: a fault is meant for the next few requests, not to pile up. */
export const MAX_FAULTS = 100;

const isWholeNumber = (value: unknown, min: number): value is number =>
	typeof value === 'number' && Number.isInteger(value) && value >= min;

/** What is wrong with a fault's `httpCode` or `retryAfter`, or undefined when both are fine or absent. */
function faultAnswerProblem(body: Body): string | undefined {
	if (body.httpCode !== undefined && !(isWholeNumber(body.httpCode, 100) && body.httpCode < 600))
		return "httpCode: give the error envelope's http_code, a status from 100 to 599, such as 429.";
	if (body.retryAfter !== undefined && !isWholeNumber(body.retryAfter, 0))
		return 'retryAfter: give the Retry-After header in whole seconds, such as 600.';
	return undefined;
}

/** The methods of a list that is read and cleared, and of one that is also added to. */
const READ_OR_CLEAR = new Set(['GET', 'DELETE']);
const READ_CLEAR_OR_ADD = new Set(['GET', 'DELETE', 'POST']);

/**
 * The control API under /__sandbox and the console page that drives it: the request log, faults, limits
 * and caps of the API, the webhooks and their deliveries, and the service's users acting on records.
 */
export class Control {
	constructor(
		private readonly options: SandboxOptions,
		private readonly state: ApiState,
		private readonly deliveries: Deliveries,
	) {}

	/** Answers a request to `/` or under `/__sandbox/`. */
	async handle(
		method: string,
		url: URL,
		received: ReceivedBody,
		res: ServerResponse,
	): Promise<void> {
		if (url.pathname === '/') return send(res, 302, undefined, { Location: '/__sandbox/console' });
		if (url.pathname === '/__sandbox/console') {
			res.writeHead(200, {
				'Content-Type': 'text/html; charset=utf-8',
				'Content-Security-Policy':
					"default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
				'X-Frame-Options': 'DENY',
			});
			return void res.end(CONSOLE);
		}
		if (received.tooLarge)
			return send(res, 413, new ApiError(413, MESSAGES[413]).body(), { Connection: 'close' });
		return await this.call(
			method,
			url.pathname.slice('/__sandbox'.length),
			(received.body as Record<string, unknown>) ?? {},
			res,
			url.searchParams,
		);
	}

	private async call(
		method: string,
		path: string,
		body: Record<string, unknown>,
		res: ServerResponse,
		query: URLSearchParams,
	): Promise<void> {
		// A HEAD reads what a GET reads; neither changes anything, whoever sends it (a web page can).
		if (method === 'HEAD') method = 'GET';
		const reply =
			this.apiSetting(method, path, body) ??
			this.webhookSetting(method, path, body) ??
			(await this.userAction(method, path, body, query));
		return send(res, reply.status, reply.body);
	}

	/** The request log, reset, faults, limits and caps of the API, and what the console needs to know. */
	private apiSetting(method: string, path: string, body: Body): Reply | undefined {
		const { state } = this;
		if (method === 'GET' && path === '/requests') return ok({ requests: state.log.list() });
		if (method === 'DELETE' && path === '/requests') {
			state.log.clear();
			return ok({ cleared: true });
		}
		if (method === 'POST' && path === '/reset') {
			this.deliveries.reset();
			state.reset(body);
			return ok({ reset: true, seed: state.seed });
		}
		if (path === '/faults') return this.faults(method, body);
		if (path === '/violations' && READ_OR_CLEAR.has(method)) {
			if (method === 'DELETE') state.clearViolations();
			return ok({ violations: state.violations });
		}
		if (method === 'GET' && path === '/info')
			return ok({
				events: EVENT_SOURCES,
				failureActions: FAILURE_ACTIONS,
				webhookSecret: this.options.webhookSecret ?? null,
				n8nUrl: this.options.n8nUrl ?? null,
			});
		return method === 'POST' ? this.limitSetting(path, body) : undefined;
	}

	/** `/faults`: GET lists them, POST adds one (at most `MAX_FAULTS` wait), DELETE removes them all. */
	private faults(method: string, body: Body): Reply | undefined {
		const { state } = this;
		if (method === 'POST') {
			if (state.faults.length >= MAX_FAULTS) {
				const error = `The sandbox holds at most ${MAX_FAULTS} faults: DELETE /__sandbox/faults removes them.`;
				return { status: 400, body: { error } };
			}
			// A count that is not a positive whole number would never be used up, and hold its slot.
			const count = body.count === undefined ? 1 : body.count;
			if (!isWholeNumber(count, 1)) {
				const error =
					'count: give a positive whole number of requests, such as 1, or leave it out for 1.';
				return { status: 400, body: { error } };
			}
			const refused = faultAnswerProblem(body);
			if (refused) return { status: 400, body: { error: refused } };
			state.addFault({
				status: body.status as number,
				httpCode: body.httpCode as number | undefined,
				retryAfter: body.retryAfter as number | undefined,
				drop: Boolean(body.drop),
				count,
				method: body.method as string,
				path: body.path as string,
			});
		} else if (method === 'DELETE') state.clearFaults();
		else if (method !== 'GET') return undefined;
		return ok({ faults: state.faults });
	}

	/** `POST /rate-limit`, `/page-caps` and `/latency`: how the API answers from now on. */
	private limitSetting(path: string, body: Body): Reply | undefined {
		const { state } = this;
		if (path === '/rate-limit') {
			state.setRateLimit(
				body.limit
					? { limit: Number(body.limit), windowMs: Number(body.windowMs ?? 60_000) }
					: null,
			);
			return ok({ rateLimit: state.rateLimit });
		}
		if (path === '/page-caps') {
			try {
				state.setPageCaps({ ...(body as PageCaps) });
			} catch (error) {
				return { status: 400, body: { error: (error as Error).message } };
			}
			return ok({ pageCaps: state.pageCaps });
		}
		if (path === '/latency') {
			state.setLatency(Number(body.ms ?? 0));
			return ok({ latencyMs: state.latencyMs });
		}
		return undefined;
	}

	/** The deliveries made, and the webhooks: listed, registered, removed. */
	private webhookSetting(method: string, path: string, body: Body): Reply | undefined {
		const { deliveries } = this;
		const parts = path.split('/').filter(Boolean);
		if (path === '/deliveries' && READ_OR_CLEAR.has(method)) {
			if (method === 'DELETE') deliveries.made = [];
			return ok({ deliveries: deliveries.made });
		}
		if (method === 'DELETE' && parts[0] === 'webhooks' && parts.length === 2) {
			const before = deliveries.subscriptions.length;
			deliveries.subscriptions = deliveries.subscriptions.filter((s) => s.id !== parts[1]);
			if (deliveries.subscriptions.length === before)
				return { status: 404, body: { error: 'No such webhook' } };
			return ok({ webhooks: deliveries.subscriptions });
		}
		if (path === '/webhooks' && READ_CLEAR_OR_ADD.has(method)) return this.webhooks(method, body);
		return undefined;
	}

	/** What the service's users do in an environment (`env` of the body or query): events, records. */
	private async userAction(
		method: string,
		path: string,
		body: Body,
		query: URLSearchParams,
	): Promise<Reply> {
		const parts = path.split('/').filter(Boolean);
		const env: Environment =
			(body.env ?? query.get('env')) === 'production' ? 'production' : 'sandbox';
		if (method === 'POST' && path === '/events') return await this.event(env, body);
		if (method === 'GET' && parts[0] === 'records' && parts.length === 2)
			return this.records(env, parts[1]);
		if (method === 'GET' && parts[0] === 'state' && parts.length === 3)
			return this.record(env, parts[1], parts[2]);
		if (method === 'POST' && parts[0] === 'buy-orders' && parts[2] === 'state')
			return await this.buyOrderState(env, parts[1], body);
		if (method === 'POST' && parts[0] === 'failures' && parts.length === 1)
			return await this.reportFailure(env, body);
		if (method === 'POST' && parts[0] === 'failures' && parts.length === 3)
			return await this.failureAction(env, parts[1], parts[2], body);
		return { status: 404, body: { error: `Unknown control endpoint ${method} ${path}` } };
	}

	/** `GET /records/<collection>`: its latest 50 records. */
	private records(env: Environment, name: string): Reply {
		const collection = (this.state.storeOf(env) as unknown as Record<string, unknown>)[name];
		if (!(collection instanceof Collection))
			return { status: 404, body: { error: `No collection ${name}` } };
		// The newest first, as a user looks for what they just did.
		return ok({ data: collection.items.slice(-50).reverse() });
	}

	/** `GET /state/<collection>/<id>`: one record, or `stock/<warehouse>:<material>` a stock level. */
	private record(env: Environment, name: string, id: string): Reply {
		const store = this.state.storeOf(env);
		if (name === 'stock') {
			const [warehouse, material] = id.split(':');
			return ok({
				warehouse: Number(warehouse),
				material: Number(material),
				quantity: store.stock.get(`${warehouse}:${material}`) ?? 0,
			});
		}
		const collections = store as unknown as Record<string, { byId?: Map<string, Resource> }>;
		const found = collections[name]?.byId?.get(id);
		return found ? ok(found) : { status: 404, body: { error: 'No such record' } };
	}

	/** `/webhooks`: lists, removes all, or registers one. */
	private webhooks(method: string, body: Body): Reply {
		const { deliveries } = this;
		if (method === 'GET') return ok({ webhooks: deliveries.subscriptions });
		if (method === 'DELETE') {
			deliveries.subscriptions = [];
			return ok({ webhooks: [] });
		}
		const events = Array.isArray(body.events) ? (body.events as string[]) : ['*'];
		const unknown = events.filter((e) => e !== '*' && !EVENT_NAMES.has(e));
		if (typeof body.url !== 'string' || !/^https?:\/\//i.test(body.url) || unknown.length)
			return {
				status: 400,
				body: {
					error: `An http(s) url and known events are required${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
				},
			};
		const subscription: Subscription = {
			id: randomUUID(),
			url: body.url,
			method: body.method === 'PATCH' ? 'PATCH' : 'POST',
			events,
			headers: (body.headers as Record<string, string>) ?? {},
		};
		deliveries.subscriptions.push(subscription);
		return { status: 201, body: subscription };
	}

	/** `POST /events`: fires one event about a record of the store, or about the `data` sent. */
	private async event(env: Environment, body: Body): Promise<Reply> {
		const event = body.event;
		if (!isEventName(event))
			return {
				status: 400,
				body: {
					error: `Unknown event "${String(event ?? '')}": use one of the event names of the spec (GET /info lists them)`,
				},
			};
		// The record the event is about, from the store (the first one unless an id is given); a test
		// may send a payload of its own as `data`.
		const collection = this.state.storeOf(env)[sourceOf(event)] as Collection;
		const record =
			body.data ??
			(body.id === undefined ? collection.items[0] : collection.byId.get(String(body.id)));
		if (!record)
			return {
				status: 404,
				body: { error: `No ${collection.type} ${String(body.id)} in the sandbox` },
			};
		return ok({ data: record, deliveries: await this.deliveries.deliver(event, record) });
	}

	/** `POST /failures`: a work order reported by a user, with its FAILURE_CREATED event. */
	private async reportFailure(env: Environment, body: Body): Promise<Reply> {
		const store = this.state.storeOf(env);
		if (body.local_id !== undefined && !store.locations.byId.has(String(body.local_id)))
			return {
				status: 400,
				body: {
					error: `local_id: no location ${String(body.local_id)} in the sandbox; use the id of a location`,
				},
			};
		const failure = reportedFailure(store, body);
		return {
			status: 201,
			body: {
				data: failure,
				deliveries: await this.deliveries.deliver('FAILURE_CREATED', failure),
			},
		};
	}

	/** `POST /buy-orders/<id>/state`: moves a buy order to a state, with the state's events. */
	private async buyOrderState(env: Environment, id: string, body: Body): Promise<Reply> {
		const order = this.state.storeOf(env).buyOrders.byId.get(id);
		if (!order) return { status: 404, body: { error: 'No such buy order' } };
		const state = String(body.state);
		const moved = order.attributes.state !== state;
		order.attributes.state = state;
		const now = sqlNow();
		if (state === 'CREATED')
			Object.assign(order.attributes, { processed_at: now, processed_by: 1 });
		if (state === 'RECEIVED')
			Object.assign(order.attributes, { completed_at: now, completed_by: 1 });
		const also = BUY_ORDER_STATE_EVENTS[state];
		return await this.fired(
			order,
			moved ? ['BUY_ORDER_STATE_CHANGED', ...(also ? [also] : [])] : [],
		);
	}

	/** `POST /failures/<id>/<action>`: a user's action on a work order, or `status` to set its status. */
	private async failureAction(
		env: Environment,
		id: string,
		action: string,
		body: Body,
	): Promise<Reply> {
		const failure = this.state.storeOf(env).failures.byId.get(id);
		if (!failure) return { status: 404, body: { error: `No work order ${id} in the sandbox` } };
		let events: EventName[];
		try {
			if (action === 'status') {
				setFailureStatus(failure.attributes, String(body.status));
				events = ['FAILURE_STATE_CHANGED'];
			} else events = actOnFailure(failure, action);
		} catch (error) {
			if (error instanceof ActionRefused) return { status: 409, body: { error: error.message } };
			throw error;
		}
		return await this.fired(failure, events);
	}

	/** The record a user acted on, the events its change fires and their deliveries. */
	private async fired(record: Resource, events: EventName[]): Promise<Reply> {
		return ok({ data: record, events, deliveries: await this.deliveries.fire(events, record) });
	}
}
