import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { EVENTS } from '../../../nodes/MaintenanceManagementTrigger/events';
import { startSandbox } from '../../../sandbox';
import { readBody } from '../../../sandbox/http';
import type { Method, TriggerRun, TriggerSettings } from './harness';
import { deliver, startedItem } from './harness';

/**
 * Deliveries from the local API sandbox's webhook emitter, received by a tiny HTTP server that parses
 * the body as n8n does (JSON object or array, 422 for malformed JSON, {} for an empty body) and runs
 * each request through the trigger's webhook() with the harness.
 */

const SECRET = 'whsec_sandbox_5e6f7a8b9c0d';

interface Received {
	method: string;
	run: TriggerRun;
	status: number;
	body: unknown;
}

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let receiver: Server;
let receiverUrl: string;
let settings: TriggerSettings;
let received: Received[];

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true });
	receiver = createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', 'http://receiver.local');
		const text = await readBody(req);
		let body: unknown = {};
		if (text) {
			try {
				body = JSON.parse(text);
			} catch {
				res
					.writeHead(422, { 'Content-Type': 'application/json' })
					.end(JSON.stringify({ message: 'Failed to parse request body' }));
				return;
			}
		}
		try {
			const run = await deliver(settings, {
				method: req.method as Method,
				body,
				query: Object.fromEntries(url.searchParams),
				headers: req.headers as Record<string, string>,
			});
			const status = run.sent?.status ?? 200;
			const answer = run.sent ? run.sent.body : run.result.webhookResponse;
			received.push({ method: req.method ?? '', run, status, body: answer });
			res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
		} catch (error) {
			res
				.writeHead(500, { 'Content-Type': 'application/json' })
				.end(JSON.stringify({ message: (error as Error).message }));
		}
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
});

afterAll(async () => {
	await sandbox.close();
	receiver.closeAllConnections();
	await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(async () => {
	received = [];
	settings = { authentication: 'none' };
	await control('DELETE', '/webhooks');
});

async function control(method: string, path: string, body?: unknown): Promise<IDataObject> {
	const response = await fetch(`${sandbox.controlUrl}${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = (await response.json()) as IDataObject;
	if (!response.ok)
		throw new Error(
			`Sandbox control ${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`,
		);
	return json;
}

const subscribe = (subscription: {
	url?: string;
	method?: Method;
	events?: string[];
	headers?: Record<string, string>;
}) =>
	control('POST', '/webhooks', {
		url: receiverUrl,
		method: 'POST',
		events: ['*'],
		...subscription,
	});

/** Fires one event and returns the statuses the sandbox got back from the receiver. */
async function fire(
	event: string,
	data: IDataObject = { type: 'failure', id: '77', attributes: { status: 'WAITING_APPROVAL' } },
): Promise<number[]> {
	const { deliveries } = await control('POST', '/events', { event, data });
	return (deliveries as Array<{ status: number }>).map((d) => d.status);
}

describe('deliveries from the sandbox webhook emitter', () => {
	it('a selected event sent by POST starts the workflow with the payload as sent, behind a query-parameter secret', async () => {
		settings = {
			authentication: 'query',
			credentials: { secret: SECRET },
			events: ['FAILURE_CREATED'],
		};
		await subscribe({ url: `${receiverUrl}?token=${SECRET}`, events: ['FAILURE_CREATED'] });
		expect(await fire('FAILURE_CREATED')).toEqual([200]);
		expect(received).toHaveLength(1);
		const [delivery] = received;
		expect(delivery.body).toEqual({ received: true, event: 'FAILURE_CREATED' });
		const item = startedItem(delivery.run)!;
		expect(item).toMatchObject({ event: 'FAILURE_CREATED', method: 'POST' });
		expect(item.payload).toEqual({
			event: 'FAILURE_CREATED',
			event_id: expect.any(String),
			occurred_at: expect.any(String),
			data: { type: 'failure', id: '77', attributes: { status: 'WAITING_APPROVAL' } },
		});
		expect(item).not.toHaveProperty('query');
		expect(JSON.stringify(delivery.run.result)).not.toContain(SECRET);
	});

	it('a PATCH subscription with a header secret starts the workflow with method PATCH', async () => {
		settings = {
			authentication: 'header',
			credentials: { secret: SECRET },
			events: ['*'],
			options: { includeHeaders: true },
		};
		await subscribe({ method: 'PATCH', headers: { 'X-Webhook-Secret': SECRET } });
		expect(await fire('SCHEDULED_WORK_PAUSED')).toEqual([200]);
		const item = startedItem(received[0].run)!;
		expect(item).toMatchObject({ event: 'SCHEDULED_WORK_PAUSED', method: 'PATCH' });
		expect(item.headers).toMatchObject({
			'x-event-name': 'SCHEDULED_WORK_PAUSED',
			'content-type': 'application/json',
		});
		expect(JSON.stringify(received[0].run.result)).not.toContain(SECRET);
	});

	it('Basic auth set as a subscription header is accepted', async () => {
		settings = { authentication: 'basicAuth', credentials: { secret: SECRET, username: 'svc' } };
		await subscribe({
			headers: { Authorization: `Basic ${Buffer.from(`svc:${SECRET}`).toString('base64')}` },
		});
		expect(await fire('QUOTE_ACCEPTED')).toEqual([200]);
		expect(startedItem(received[0].run)?.event).toBe('QUOTE_ACCEPTED');
	});

	it('a wrong secret is answered 401 and starts nothing', async () => {
		settings = { authentication: 'query', credentials: { secret: SECRET } };
		await subscribe({ url: `${receiverUrl}?token=guessed-value` });
		expect(await fire('FAILURE_CREATED')).toEqual([401]);
		expect(received[0].run.result.workflowData).toBeUndefined();
		expect(JSON.stringify(received[0].body)).not.toContain(SECRET);
	});

	it('a missing secret is answered 401 and starts nothing', async () => {
		settings = { authentication: 'header', credentials: { secret: SECRET } };
		await subscribe({});
		expect(await fire('FAILURE_CREATED')).toEqual([401]);
		expect(received[0].run.result.workflowData).toBeUndefined();
	});

	it('an event that is not selected is answered 200 and starts nothing', async () => {
		settings = { authentication: 'none', events: ['FAILURE_CREATED'] };
		await subscribe({});
		expect(await fire('FILE_UPLOADED')).toEqual([200]);
		expect(received[0].run.result.workflowData).toBeUndefined();
		expect(received[0].body).toMatchObject({
			received: true,
			ignored: true,
			event: 'FILE_UPLOADED',
		});
	});

	it('the X-Event-Name header names the event when the payload path given holds none', async () => {
		settings = {
			authentication: 'none',
			events: ['MANUAL_METERING_CREATED'],
			options: { eventPath: 'meta.kind' },
		};
		await subscribe({});
		expect(await fire('MANUAL_METERING_CREATED')).toEqual([200]);
		expect(startedItem(received[0].run)?.event).toBe('MANUAL_METERING_CREATED');
	});

	it('an ?event= query parameter registered with the URL names the event when the payload path holds none', async () => {
		settings = {
			authentication: 'none',
			events: ['FILE_DELETED'],
			options: { eventPath: 'meta.kind' },
		};
		await subscribe({ url: `${receiverUrl}?event=FILE_DELETED`, events: ['FILE_DELETED'] });
		expect(await fire('FILE_DELETED')).toEqual([200]);
		expect(startedItem(received[0].run)).toMatchObject({
			event: 'FILE_DELETED',
			query: { event: 'FILE_DELETED' },
		});
	});

	it('every event arrives, by POST and by PATCH, and is recognised', async () => {
		settings = { authentication: 'none', events: ['*'] };
		await subscribe({ method: 'POST' });
		await subscribe({ method: 'PATCH' });
		for (const { value } of EVENTS) expect(await fire(value)).toEqual([200, 200]);
		expect(received).toHaveLength(2 * EVENTS.length);
		for (const { value } of EVENTS) {
			const runs = received.filter((r) => startedItem(r.run)?.event === value);
			expect(runs.map((r) => r.method).sort()).toEqual(['PATCH', 'POST']);
		}
	});

	it('an event emitted by an API action of the sandbox (a work order created) arrives', async () => {
		settings = { authentication: 'none', events: ['FAILURE_CREATED'] };
		await subscribe({ events: ['FAILURE_CREATED'] });
		const created = await control('POST', '/failures', { description: 'Leak in room 4' });
		expect((created.deliveries as Array<{ status: number }>).map((d) => d.status)).toEqual([200]);
		const item = startedItem(received[0].run)!;
		expect(item.event).toBe('FAILURE_CREATED');
		expect((item.payload as IDataObject).data).toEqual(created.data);
	});

	it('each delivery is passed on, duplicates included', async () => {
		settings = { authentication: 'none', events: ['FAILURE_UPDATED'] };
		await subscribe({});
		await subscribe({});
		expect(await fire('FAILURE_UPDATED')).toEqual([200, 200]);
		const items = received.map((r) => startedItem(r.run)!);
		expect(items).toHaveLength(2);
		expect((items[0].payload as IDataObject).event_id).toBe(
			(items[1].payload as IDataObject).event_id,
		);
	});
});
