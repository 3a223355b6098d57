import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { EVENTS } from '../../nodes/MaintenanceManagementTrigger/events';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { specEventNames } from '../helpers/contract';
import { rawHttp } from '../helpers/rawHttp';

/** The sandbox's console and the control API under it: protection, user actions and their events. */
let sandbox: RunningSandbox;
let port: number;
let receiver: Server;
let received: Array<{ method: string; url: string; event: string; body: Record<string, unknown> }>;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true, webhookSecret: 'console-secret-0123' });
	port = Number(new URL(sandbox.url).port);
	receiver = createServer((req, res) => {
		let text = '';
		req.on('data', (chunk: Buffer) => (text += chunk.toString()));
		req.on('end', () => {
			received.push({
				method: req.method ?? '',
				url: req.url ?? '',
				event: String(req.headers['x-event-name']),
				body: JSON.parse(text) as Record<string, unknown>,
			});
			res.writeHead(req.url?.includes('fail') ? 500 : 200, { 'Content-Type': 'application/json' });
			res.end('{"received":true}');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
	await sandbox.close();
	await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(async () => {
	received = [];
	await call('POST', '/reset', {});
});

const hook = (path = '/hook') =>
	`http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;

/** A raw HTTP call to the sandbox, so that the test chooses every header, Host included. */
const raw = (method: string, path: string, headers: IncomingHttpHeaders, body?: string) =>
	rawHttp(port, method, path, headers, body);

/** A call as the console makes it: same origin, JSON. */
async function call(
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
	const answer = await raw(
		method,
		`/__sandbox${path}`,
		{
			'content-type': 'application/json',
			origin: `http://127.0.0.1:${port}`,
			'sec-fetch-site': 'same-origin',
		},
		body === undefined ? undefined : JSON.stringify(body),
	);
	if (!answer.text) throw new Error(`${method} ${path}: ${answer.status} empty`);
	return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
}

const webhookCount = async () =>
	((await call('GET', '/webhooks')).body.webhooks as unknown[]).length;

describe('the control API and console accept only loopback, same-origin, JSON calls', () => {
	it('accepts a same-origin console request, on each loopback name', async () => {
		const added = await call('POST', '/webhooks', { url: hook(), events: ['*'] });
		expect(added.status).toBe(201);
		for (const host of [`localhost:${port}`, `[::1]:${port}`]) {
			const answer = await raw('GET', '/__sandbox/webhooks', { host });
			expect(answer.status).toBe(200);
		}
		expect(await webhookCount()).toBe(1);
	});

	it('refuses a DNS-rebinding Host, for reads and the console page alike', async () => {
		for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1:${port + 1}`])
			for (const path of ['/__sandbox/requests', '/__sandbox/console', '/']) {
				const answer = await raw('GET', path, { host });
				expect(answer.status).toBe(403);
				expect(answer.text).toContain('answers only requests addressed to 127.0.0.1');
			}
		const write = await raw(
			'POST',
			'/__sandbox/webhooks',
			{ host: `rebound.example:${port}`, 'content-type': 'application/json' },
			JSON.stringify({ url: hook() }),
		);
		expect(write.status).toBe(403);
		expect(await webhookCount()).toBe(0);
	});

	it('refuses a cross-site request: another Origin, a cross-site fetch, a text/plain or form body', async () => {
		await call('POST', '/webhooks', { url: hook(), events: ['*'] });
		const body = JSON.stringify({ url: 'http://attacker.example/x' });
		const attempts: Array<[IncomingHttpHeaders, string]> = [
			[{ 'content-type': 'application/json', origin: 'http://attacker.example' }, 'not from'],
			[{ 'content-type': 'application/json', origin: `http://127.0.0.1:${port + 1}` }, 'not from'],
			[{ 'content-type': 'application/json', origin: 'null' }, 'not from'],
			[{ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, 'Sec-Fetch-Site'],
			[{ 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }, 'Sec-Fetch-Site'],
			[{ 'content-type': 'text/plain' }, 'Content-Type: application/json'],
			[{ 'content-type': 'application/x-www-form-urlencoded' }, 'Content-Type'],
			[{}, 'Content-Type'],
		];
		for (const [headers, reason] of attempts) {
			for (const path of ['/__sandbox/webhooks', '/__sandbox/reset', '/__sandbox/events']) {
				const answer = await raw('POST', path, headers, body);
				expect(answer.status).toBe(403);
				expect(answer.text).toContain(reason);
			}
			expect((await raw('DELETE', '/__sandbox/webhooks', headers)).status).toBe(403);
		}
		// Nothing changed: the one webhook is still the only one, and nothing was delivered.
		expect(await webhookCount()).toBe(1);
		expect(received).toEqual([]);
	});

	/** What a web page's link, image or no-cors fetch sends: another origin, and no JSON. */
	const CROSS_SITE = { origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' };

	/** Every route of the control API as docs/sandbox.md lists it, its placeholders filled in. */
	const documentedPaths = (): string[] => {
		const docs = readFileSync(join(__dirname, '../../docs/sandbox.md'), 'utf8');
		const section = docs.slice(docs.indexOf('## The control API'), docs.indexOf('### Rate limit'));
		const paths = [...section.matchAll(/`(?:GET|POST|DELETE) (\/[^`]*)`/g)].map(([, path]) =>
			path.replace('<id>', '3').replace('<collection>', 'failures').replace('<action>', 'approve'),
		);
		return [...new Set(paths)];
	};

	/** What the control API shows of the sandbox's state. */
	const stateShown = async () => {
		const shown: Record<string, unknown> = {};
		for (const path of ['/faults', '/webhooks', '/deliveries', '/violations', '/requests'])
			shown[path] = (await call('GET', path)).body;
		shown.failure = (await call('GET', '/state/failures/3')).body;
		return shown;
	};

	it('lets no cross-site GET or HEAD add a fault, so a fault injected later is the one applied', async () => {
		for (const method of ['GET', 'HEAD'])
			for (let attempt = 0; attempt < 3; attempt++)
				expect((await raw(method, '/__sandbox/faults', CROSS_SITE)).status).toBeLessThan(500);
		expect((await call('GET', '/faults')).body.faults).toEqual([]);
		await call('POST', '/faults', { status: 500, count: 1, path: '/failures' });
		const { baseUrl, token } = sandbox.environments.sandbox;
		const answer = await fetch(`${baseUrl}/failures`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(answer.status).toBe(500);
	});

	it('lets no GET or HEAD to any documented control route change the sandbox', async () => {
		const paths = documentedPaths();
		expect(paths).toEqual(expect.arrayContaining(['/faults', '/webhooks', '/reset', '/events']));
		const before = await stateShown();
		for (const path of paths)
			for (const method of ['GET', 'HEAD']) {
				await raw(method, `/__sandbox${path}`, CROSS_SITE);
				expect([path, method, await stateShown()]).toEqual([path, method, before]);
			}
		expect(received).toEqual([]);
	});

	it('keeps at most 100 faults, refusing more with a clear error, and forgets a spent one', async () => {
		for (let index = 0; index < 100; index++)
			expect((await call('POST', '/faults', { status: 503, path: `/x${index}` })).status).toBe(200);
		const over = await call('POST', '/faults', { status: 503 });
		expect(over.status).toBe(400);
		expect(over.body.error).toBe(
			'The sandbox holds at most 100 faults: DELETE /__sandbox/faults removes them.',
		);
		expect((await call('GET', '/faults')).body.faults).toHaveLength(100);
		await call('DELETE', '/faults');
		await call('POST', '/faults', { status: 500, count: 1, path: '/failures' });
		const { baseUrl, token } = sandbox.environments.sandbox;
		await fetch(`${baseUrl}/failures`, { headers: { authorization: `Bearer ${token}` } });
		expect((await call('GET', '/faults')).body.faults).toEqual([]);
	});

	it('refuses a fault whose count is not a positive whole number, naming count and the fix', async () => {
		for (const count of [0, -1, 1.5, 'NaN', '2', null, true])
			expect([count, await call('POST', '/faults', { status: 500, count })]).toEqual([
				count,
				{
					status: 400,
					body: {
						error:
							'count: give a positive whole number of requests, such as 1, or leave it out for 1.',
					},
				},
			]);
		expect((await call('GET', '/faults')).body.faults).toEqual([]);
		// Left out, count is 1: the fault is spent by one request and leaves the list.
		expect((await call('POST', '/faults', { status: 503, path: '/failures' })).status).toBe(200);
		expect((await call('GET', '/faults')).body.faults).toEqual([
			expect.objectContaining({ status: 503, count: 1 }),
		]);
		const { baseUrl, token } = sandbox.environments.sandbox;
		const headers = { authorization: `Bearer ${token}` };
		expect((await fetch(`${baseUrl}/failures`, { headers })).status).toBe(503);
		expect((await fetch(`${baseUrl}/failures`, { headers })).status).toBe(200);
		expect((await call('GET', '/faults')).body.faults).toEqual([]);
	});

	it('serves the console page, and redirects / to it', async () => {
		const page = await raw('GET', '/__sandbox/console', {});
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toMatch(/^text\/html/);
		expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
		expect(page.text).toContain('Register a webhook URL');
		const root = await raw('GET', '/', {});
		expect(root.status).toBe(302);
		expect(root.headers.location).toBe('/__sandbox/console');
	});

	it('tells the console the events with their record kinds, the actions and the dev secret', async () => {
		const { body } = await call('GET', '/info');
		expect(body.webhookSecret).toBe('console-secret-0123');
		// No n8n given: the console's example of a URL names no address.
		expect(body.n8nUrl).toBeNull();
		expect(body.events).toHaveLength(EVENTS.length);
		expect(body.events).toContainEqual(
			expect.objectContaining({ value: 'FAILURE_CREATED', collection: 'failures' }),
		);
		expect(Object.keys(body.failureActions as object)).toEqual(
			expect.arrayContaining(['approve', 'decline', 'start', 'pause', 'complete']),
		);
	});
});

describe('acting as the service users: work orders and their events', () => {
	beforeEach(async () => {
		await call('POST', '/webhooks', { url: hook(), events: ['*'] });
	});

	const report = async () => {
		const answer = await call('POST', '/failures', { description: 'Leak', local_id: 3 });
		expect(answer.status).toBe(201);
		return answer.body.data as { id: string; attributes: Record<string, unknown> };
	};

	it('a reported work order waits for approval, with no approval fields, and FAILURE_CREATED carries it', async () => {
		const failure = await report();
		expect(failure.attributes).toMatchObject({
			status: 'WAITING_APPROVAL',
			approved: false,
			approved_date: null,
			started: false,
			completed: false,
			description: 'Leak',
			local_id: 3,
		});
		expect(received).toHaveLength(1);
		expect(received[0].event).toBe('FAILURE_CREATED');
		expect(received[0].body).toMatchObject({
			event: 'FAILURE_CREATED',
			event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			occurred_at: expect.any(String),
			data: failure,
		});
		const stored = await call('GET', `/state/failures/${failure.id}`);
		expect(stored.body).toEqual(failure);
	});

	it("a reported work order's times agree: created, updated and reported now; approving updates it", async () => {
		const sql = (date: Date) => date.toISOString().replace('T', ' ').slice(0, 19);
		const before = sql(new Date());
		const failure = await report();
		const after = sql(new Date());
		const { created_at, updated_at, start_date, last_status_change_date, time_statistics } =
			failure.attributes as Record<string, string | Record<string, unknown>>;
		expect(created_at >= before && created_at <= after).toBe(true);
		expect([updated_at, start_date, last_status_change_date]).toEqual([
			created_at,
			created_at,
			created_at,
		]);
		// No history yet: no approval, start or completion times from another record.
		expect(Object.values(time_statistics).every((value) => value === null)).toBe(true);
		const approved = (await call('POST', `/failures/${failure.id}/approve`)).body.data as {
			attributes: Record<string, string>;
		};
		expect(approved.attributes.created_at).toBe(created_at);
		expect(approved.attributes.updated_at >= created_at).toBe(true);
		expect(approved.attributes.updated_at).toBe(approved.attributes.last_status_change_date);
	});

	it('approve fires FAILURE_APPROVED and FAILURE_STATE_CHANGED, with the approval recorded', async () => {
		const failure = await report();
		received = [];
		const approved = await call('POST', `/failures/${failure.id}/approve`, {});
		expect(approved.body.events).toEqual(['FAILURE_APPROVED', 'FAILURE_STATE_CHANGED']);
		expect(received.map((r) => r.event)).toEqual(['FAILURE_APPROVED', 'FAILURE_STATE_CHANGED']);
		const data = received[0].body.data as { attributes: Record<string, unknown> };
		expect(data.attributes).toMatchObject({
			status: 'WAITING_RESOLUTION',
			approved: true,
			approved_date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
		});
	});

	it('walks start, pause, resume, complete and confirm, each state consistent', async () => {
		const failure = await report();
		await call('POST', `/failures/${failure.id}/approve`, {});
		const steps: Array<[string, string, Record<string, unknown>]> = [
			['start', 'FAILURE_STARTED', { status: 'IN_RESOLUTION', started: true, paused: false }],
			['pause', 'FAILURE_PAUSED', { status: 'PAUSED', paused: true, pause_reason_id: 1 }],
			['resume', 'FAILURE_RESUMED', { status: 'IN_RESOLUTION', paused: false, paused_date: null }],
			['complete', 'FAILURE_CLOSED', { status: 'COMPLETED', completed: true, archived: false }],
			[
				'confirm-completion',
				'FAILURE_COMPLETED_CONFIRMED',
				{ status: 'ARCHIVED', completed: true, confirmed: true, approved: true },
			],
		];
		for (const [action, event, state] of steps) {
			received = [];
			const answer = await call('POST', `/failures/${failure.id}/${action}`, {});
			expect(answer.status).toBe(200);
			expect(received.map((r) => r.event)).toEqual([event, 'FAILURE_STATE_CHANGED']);
			expect((answer.body.data as { attributes: unknown }).attributes).toMatchObject(state);
		}
	});

	it('decline fires FAILURE_NOT_APPROVED and archives the work order unapproved', async () => {
		const failure = await report();
		received = [];
		const declined = await call('POST', `/failures/${failure.id}/decline`, {});
		expect(received.map((r) => r.event)).toEqual(['FAILURE_NOT_APPROVED', 'FAILURE_STATE_CHANGED']);
		expect((declined.body.data as { attributes: unknown }).attributes).toMatchObject({
			status: 'ARCHIVED',
			approved: false,
			approved_date: null,
			completed: false,
			confirmed: false,
		});
	});

	it('refuses an action the status does not allow, a wrong action, an unknown work order or location', async () => {
		const failure = await report();
		received = [];
		const early = await call('POST', `/failures/${failure.id}/start`, {});
		expect(early.status).toBe(409);
		expect(early.body.error).toBe(
			`Work order ${failure.id} is WAITING_APPROVAL; "start" needs WAITING_RESOLUTION`,
		);
		const wrong = await call('POST', `/failures/${failure.id}/explode`, {});
		expect(wrong.status).toBe(409);
		expect(wrong.body.error).toMatch(/^No work order action "explode": use one of approve, /);
		expect((await call('POST', '/failures/999999/approve', {})).status).toBe(404);
		const nowhere = await call('POST', '/failures', { local_id: 999999 });
		expect(nowhere.status).toBe(400);
		expect(nowhere.body.error).toMatch(/^local_id: no location 999999/);
		expect(received).toEqual([]);
		expect((await call('GET', `/state/failures/${failure.id}`)).body).toMatchObject({
			attributes: { status: 'WAITING_APPROVAL' },
		});
	});
});

describe('firing events for real records, and the delivery log', () => {
	it('each event of the spec carries a record of the sandbox, the first one or the one chosen', async () => {
		await call('POST', '/webhooks', { url: hook(), events: ['*'] });
		const { body } = await call('GET', '/info');
		const events = body.events as Array<{ value: string; collection: string }>;
		expect(events.map((event) => event.value)).toEqual(specEventNames());
		for (const event of events) {
			received = [];
			const { body: listed } = await call('GET', `/records/${event.collection}`);
			const records = listed.data as Array<{ id: string; type: string; attributes: object }>;
			const chosen = records[records.length - 1];
			const fired = await call('POST', '/events', { event: event.value, id: chosen.id });
			expect(fired.status).toBe(200);
			expect(received).toHaveLength(1);
			expect(received[0].body).toMatchObject({ event: event.value, data: chosen });
			expect(Object.keys(chosen.attributes).length).toBeGreaterThan(3);
		}
		received = [];
		await call('POST', '/events', { event: 'FAILURE_UPDATED' });
		expect(received[0].body.data).toMatchObject({ id: '1', type: 'failure' });
		const missing = await call('POST', '/events', { event: 'FAILURE_UPDATED', id: '999999' });
		expect(missing.status).toBe(404);
		expect(missing.body.error).toBe('No failure 999999 in the sandbox');
	});

	it('lists each delivery with URL, status, response and time; a removed webhook gets nothing', async () => {
		const good = (await call('POST', '/webhooks', { url: hook('/ok'), events: ['*'] })).body;
		await call('POST', '/webhooks', {
			url: hook('/fail'),
			method: 'PATCH',
			events: ['FAILURE_CREATED'],
			headers: { 'X-Webhook-Secret': 'console-secret-0123' },
		});
		await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/closed', events: ['*'] });
		await call('POST', '/failures', {});
		const { body } = await call('GET', '/deliveries');
		const deliveries = body.deliveries as Array<Record<string, unknown>>;
		expect(deliveries).toHaveLength(3);
		const byUrl = (path: string) => deliveries.find((d) => String(d.url).endsWith(path));
		expect(byUrl('/ok')).toMatchObject({
			event: 'FAILURE_CREATED',
			method: 'POST',
			status: 200,
			response: '{"received":true}',
			ms: expect.any(Number),
			at: expect.any(String),
		});
		expect(byUrl('/fail')).toMatchObject({ method: 'PATCH', status: 500 });
		expect(byUrl('/closed')).toMatchObject({ status: 0, error: expect.any(String) });

		expect((await call('DELETE', `/webhooks/${String(good.id)}`)).status).toBe(200);
		expect((await call('DELETE', `/webhooks/${String(good.id)}`)).status).toBe(404);
		received = [];
		await call('POST', '/events', { event: 'FILE_CREATED' });
		expect(received).toEqual([]);
		expect(((await call('DELETE', '/deliveries')).body.deliveries as unknown[]).length).toBe(0);
	});

	it('refuses a webhook that is not an http(s) URL', async () => {
		const answer = await call('POST', '/webhooks', { url: 'file:///etc/passwd' });
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatch(/http\(s\) url/);
	});
});

describe("the console's example of a webhook URL", () => {
	it("names the n8n it was given (npm run dev's editor), and no address in the page itself", async () => {
		const given = await startSandbox({ port: 0, quiet: true, n8nUrl: 'http://127.0.0.1:5701' });
		try {
			const info = (await (await fetch(`${given.controlUrl}/info`)).json()) as { n8nUrl: string };
			expect(info.n8nUrl).toBe('http://127.0.0.1:5701');
			const page = await (await fetch(given.consoleUrl)).text();
			expect(page).toContain('${info.n8nUrl}/webhook-test/…/webhook');
			expect(page).not.toMatch(/127\.0\.0\.1|localhost|:5678/);
		} finally {
			await given.close();
		}
	});
});
