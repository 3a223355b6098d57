import { randomUUID } from 'node:crypto';

import { isEventName, type EventName } from '../nodes/MaintenanceManagementTrigger/events';
import type { Resource } from './data';

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

/** A webhook registered in the console or through the control API. */
export interface Subscription {
	id: string;
	url: string;
	method: 'POST' | 'PATCH';
	events: string[];
	headers: Record<string, string>;
}

/** Fails on a name that is no event of spec/openapi.yaml, naming it. */
function assertEvent(event: string): asserts event is EventName {
	if (!isEventName(event))
		throw new Error(
			`The sandbox fires "${event}", which is no event of spec/openapi.yaml (webhooks): fix the name`,
		);
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

/**
 * The webhooks of the sandbox: the subscriptions, the events delivered to them and the record of each
 * delivery, the newest kept. A delivery is bounded in time, and close() gives up the ones under way.
 */
export class Deliveries {
	subscriptions: Subscription[] = [];

	/** The deliveries made, the newest first. */
	made: Delivery[] = [];

	/** The deliveries of events the API emits, which no one awaits but close(). */
	private readonly pending = new Set<Promise<unknown>>();

	// Aborted by close(): a delivery in progress never keeps the sandbox from stopping.
	private readonly closing = new AbortController();

	constructor(private readonly timeoutMs = DELIVERY_TIMEOUT_MS) {}

	/**
	 * Delivers one event to every subscription that takes it, and returns the deliveries. An event that
	 * spec/openapi.yaml does not name is a defect of the sandbox, and fails, naming it.
	 */
	async deliver(event: EventName, data: unknown): Promise<Delivery[]> {
		assertEvent(event);
		const payload = JSON.stringify({
			event,
			event_id: randomUUID(),
			occurred_at: new Date().toISOString(),
			data,
		});
		const targets = this.subscriptions.filter(
			(s) => s.events.includes('*') || s.events.includes(event),
		);
		return await Promise.all(targets.map((s) => this.deliverTo(s, event, payload)));
	}

	/** Fires events one after the other about one record, and returns every delivery. */
	async fire(events: EventName[], record: Resource): Promise<Delivery[]> {
		const made: Delivery[] = [];
		for (const event of events) made.push(...(await this.deliver(event, record)));
		return made;
	}

	/** Delivers an event the API emits, without waiting for it. */
	emit(event: EventName, resource: Resource): void {
		assertEvent(event);
		if (!this.subscriptions.length) return;
		const delivery = this.deliver(event, resource);
		this.pending.add(delivery);
		void delivery.finally(() => this.pending.delete(delivery));
	}

	/** Forgets the subscriptions and the deliveries made. */
	reset(): void {
		this.subscriptions = [];
		this.made = [];
	}

	/** Gives up the deliveries under way and waits until they end. */
	async close(): Promise<void> {
		this.closing.abort();
		await Promise.allSettled([...this.pending]);
	}

	private async deliverTo(s: Subscription, event: string, payload: string): Promise<Delivery> {
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
			const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.timeoutMs)]);
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
					? `No answer within ${this.timeoutMs / 1000} s: the delivery was given up.`
					: name === 'AbortError'
						? 'The sandbox stopped before the receiver answered.'
						: message;
		}
		delivery.ms = Date.now() - started;
		this.made = [delivery, ...this.made].slice(0, MAX_DELIVERIES);
		return delivery;
	}
}
