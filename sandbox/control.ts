import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';

import { EVENT_NAMES } from '../nodes/MaintenanceManagementTrigger/events';
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

/** The events a buy order's new state fires besides BUY_ORDER_STATE_CHANGED. */
const BUY_ORDER_STATE_EVENTS: Record<string, string> = {
	CREATED: 'BUY_ORDER_STARTED',
	RECEIVED: 'BUY_ORDER_RECEIVED',
	CONFIRMED: 'BUY_ORDER_CONFIRMED',
};

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
		const { state, deliveries } = this;
		const parts = path.split('/').filter(Boolean);
		if (method === 'GET' && path === '/requests')
			return send(res, 200, { requests: state.log.list() });
		if (method === 'DELETE' && path === '/requests') {
			state.log.clear();
			return send(res, 200, { cleared: true });
		}
		if (method === 'POST' && path === '/reset') {
			deliveries.reset();
			state.reset(body);
			return send(res, 200, { reset: true, seed: state.seed });
		}
		if (path === '/faults') {
			if (method === 'DELETE') state.clearFaults();
			else
				state.addFault({
					status: body.status as number,
					drop: Boolean(body.drop),
					count: Number(body.count ?? 1),
					method: body.method as string,
					path: body.path as string,
				});
			return send(res, 200, { faults: state.faults });
		}
		if (method === 'POST' && path === '/rate-limit') {
			state.setRateLimit(
				body.limit
					? { limit: Number(body.limit), windowMs: Number(body.windowMs ?? 60_000) }
					: null,
			);
			return send(res, 200, { rateLimit: state.rateLimit });
		}
		if (path === '/violations') {
			if (method === 'DELETE') state.clearViolations();
			return send(res, 200, { violations: state.violations });
		}
		if (method === 'POST' && path === '/page-caps') {
			try {
				state.setPageCaps({ ...(body as PageCaps) });
			} catch (error) {
				return send(res, 400, { error: (error as Error).message });
			}
			return send(res, 200, { pageCaps: state.pageCaps });
		}
		if (method === 'POST' && path === '/latency') {
			state.setLatency(Number(body.ms ?? 0));
			return send(res, 200, { latencyMs: state.latencyMs });
		}
		if (method === 'GET' && path === '/info')
			return send(res, 200, {
				events: EVENT_SOURCES,
				failureActions: FAILURE_ACTIONS,
				webhookSecret: this.options.webhookSecret ?? null,
			});
		if (path === '/deliveries') {
			if (method === 'DELETE') deliveries.made = [];
			return send(res, 200, { deliveries: deliveries.made });
		}
		if (method === 'DELETE' && parts[0] === 'webhooks' && parts.length === 2) {
			const before = deliveries.subscriptions.length;
			deliveries.subscriptions = deliveries.subscriptions.filter((s) => s.id !== parts[1]);
			if (deliveries.subscriptions.length === before)
				return send(res, 404, { error: 'No such webhook' });
			return send(res, 200, { webhooks: deliveries.subscriptions });
		}
		if (path === '/webhooks') return this.webhooks(method, body, res);
		const env: Environment =
			(body.env ?? query.get('env')) === 'production' ? 'production' : 'sandbox';
		if (method === 'POST' && path === '/events') return await this.event(env, body, res);
		if (method === 'GET' && parts[0] === 'records' && parts.length === 2) {
			const collection = (state.storeOf(env) as unknown as Record<string, Collection | undefined>)[
				parts[1]
			];
			if (!(collection instanceof Collection))
				return send(res, 404, { error: `No collection ${parts[1]}` });
			// The newest first, as a user looks for what they just did.
			return send(res, 200, { data: collection.items.slice(-50).reverse() });
		}
		if (method === 'GET' && parts[0] === 'state' && parts.length === 3) {
			const store = state.storeOf(env) as unknown as Record<
				string,
				{ byId?: Map<string, Resource> }
			>;
			if (parts[1] === 'stock') {
				const [warehouse, material] = parts[2].split(':');
				return send(res, 200, {
					warehouse: Number(warehouse),
					material: Number(material),
					quantity: state.storeOf(env).stock.get(`${warehouse}:${material}`) ?? 0,
				});
			}
			const found = store[parts[1]]?.byId?.get(parts[2]);
			return found ? send(res, 200, found) : send(res, 404, { error: 'No such record' });
		}
		if (method === 'POST' && parts[0] === 'buy-orders' && parts[2] === 'state')
			return await this.buyOrderState(env, parts[1], body, res);
		if (method === 'POST' && parts[0] === 'failures' && parts.length === 1) {
			const store = state.storeOf(env);
			if (body.local_id !== undefined && !store.locations.byId.has(String(body.local_id)))
				return send(res, 400, {
					error: `local_id: no location ${String(body.local_id)} in the sandbox; use the id of a location`,
				});
			const failure = reportedFailure(store, body);
			return send(res, 201, {
				data: failure,
				deliveries: await deliveries.deliver('FAILURE_CREATED', failure),
			});
		}
		if (method === 'POST' && parts[0] === 'failures' && parts.length === 3)
			return await this.failureAction(env, parts[1], parts[2], body, res);
		return send(res, 404, { error: `Unknown control endpoint ${method} ${path}` });
	}

	/** `/webhooks`: lists, removes all, or registers one. */
	private webhooks(method: string, body: Record<string, unknown>, res: ServerResponse): void {
		const { deliveries } = this;
		if (method === 'GET') return send(res, 200, { webhooks: deliveries.subscriptions });
		if (method === 'DELETE') {
			deliveries.subscriptions = [];
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
		deliveries.subscriptions.push(subscription);
		return send(res, 201, subscription);
	}

	/** `POST /events`: fires one event about a record of the store, or about the `data` sent. */
	private async event(
		env: Environment,
		body: Record<string, unknown>,
		res: ServerResponse,
	): Promise<void> {
		const event = String(body.event ?? '');
		if (!EVENT_NAMES.has(event))
			return send(res, 400, {
				error: `Unknown event "${event}": use one of the 47 event names of the spec`,
			});
		// The record the event is about, from the store (the first one unless an id is given); a test
		// may send a payload of its own as `data`.
		const collection = this.state.storeOf(env)[sourceOf(event)] as Collection;
		const record =
			body.data ??
			(body.id === undefined ? collection.items[0] : collection.byId.get(String(body.id)));
		if (!record)
			return send(res, 404, { error: `No ${collection.type} ${String(body.id)} in the sandbox` });
		return send(res, 200, {
			data: record,
			deliveries: await this.deliveries.deliver(event, record),
		});
	}

	/** `POST /buy-orders/<id>/state`: moves a buy order to a state, with the state's events. */
	private async buyOrderState(
		env: Environment,
		id: string,
		body: Record<string, unknown>,
		res: ServerResponse,
	): Promise<void> {
		const order = this.state.storeOf(env).buyOrders.byId.get(id);
		if (!order) return send(res, 404, { error: 'No such buy order' });
		const state = String(body.state);
		const moved = order.attributes.state !== state;
		order.attributes.state = state;
		const now = sqlNow();
		if (state === 'CREATED')
			Object.assign(order.attributes, { processed_at: now, processed_by: 1 });
		if (state === 'RECEIVED')
			Object.assign(order.attributes, { completed_at: now, completed_by: 1 });
		const also = BUY_ORDER_STATE_EVENTS[state];
		const events = moved ? ['BUY_ORDER_STATE_CHANGED', ...(also ? [also] : [])] : [];
		return send(res, 200, {
			data: order,
			events,
			deliveries: await this.deliveries.fire(events, order),
		});
	}

	/** `POST /failures/<id>/<action>`: a user's action on a work order, or `status` to set its status. */
	private async failureAction(
		env: Environment,
		id: string,
		action: string,
		body: Record<string, unknown>,
		res: ServerResponse,
	): Promise<void> {
		const failure = this.state.storeOf(env).failures.byId.get(id);
		if (!failure) return send(res, 404, { error: `No work order ${id} in the sandbox` });
		let events: string[];
		try {
			if (action === 'status') {
				setFailureStatus(failure.attributes, String(body.status));
				events = ['FAILURE_STATE_CHANGED'];
			} else events = actOnFailure(failure, action);
		} catch (error) {
			if (error instanceof ActionRefused) return send(res, 409, { error: error.message });
			throw error;
		}
		return send(res, 200, {
			data: failure,
			events,
			deliveries: await this.deliveries.fire(events, failure),
		});
	}
}
