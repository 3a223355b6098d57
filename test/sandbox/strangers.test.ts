import type { OutgoingHttpHeaders } from 'node:http';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { rawHttp } from '../helpers/rawHttp';

/**
 * What a stranger reaches of the API routes: a web page's no-cors POST, a DNS-rebinding page, a request
 * without a token, text meant for the developer's terminal. The sandbox checks the contract and prints
 * violations (not quiet), so the test watches console.warn.
 */
jest.setTimeout(30_000);

let sandbox: RunningSandbox;
let port: number;
let token: string;
let warn: jest.SpyInstance;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, contract: true });
	port = Number(new URL(sandbox.url).port);
	token = sandbox.environments.sandbox.token;
});
afterAll(async () => await sandbox.close());
beforeEach(async () => {
	warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
	await raw('POST', '/__sandbox/reset', { 'content-type': 'application/json' });
	sandbox.clearViolations();
});
afterEach(() => warn.mockRestore());

/** A raw HTTP call, so that the test chooses every header, Host included. */
const raw = (method: string, path: string, headers: OutgoingHttpHeaders, body?: string) =>
	rawHttp(port, method, path, headers, body);

const requests = async () =>
	JSON.parse((await raw('GET', '/__sandbox/requests', {})).text) as {
		requests: Array<{ path: string; status: number }>;
	};

/** A planned job body that breaks the contract, with property names meant for a terminal. */
const hostileBody = (nameLength = 40) => {
	const body: Record<string, unknown> = { name: 'x' };
	for (let i = 0; i < 30; i++) body[`\u001b]0;owned ${i}\u0007\u202e${'y'.repeat(nameLength)}`] = i;
	return JSON.stringify(body);
};

describe('the API routes before authentication', () => {
	it('refuses a web page no-cors text/plain POST with 415, before any check or log', async () => {
		for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
			const answer = await raw(
				'POST',
				'/sandbox/v3/works',
				{ 'content-type': type },
				hostileBody(),
			);
			expect(answer.status).toBe(415);
			expect(JSON.parse(answer.text)).toMatchObject({
				status: 'error',
				error: {
					http_code: 415,
					message: expect.stringContaining('Content-Type: application/json'),
				},
			});
		}
		const untyped = await raw('POST', '/sandbox/v3/works', {}, '{}');
		expect(untyped.status).toBe(415);
		expect(sandbox.violations()).toEqual([]);
		expect((await requests()).requests).toEqual([]);
		expect(warn).not.toHaveBeenCalled();
	});

	it('answers a request without a valid token 401 and checks none of it against the contract', async () => {
		for (const authorization of [undefined, 'Bearer wrong-token'])
			expect(
				(
					await raw(
						'POST',
						'/sandbox/v3/works',
						{ 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
						hostileBody(),
					)
				).status,
			).toBe(401);
		expect(sandbox.violations().filter((v) => v.kind === 'request')).toEqual([]);
		expect(JSON.stringify(warn.mock.calls)).not.toContain('owned');
	});

	it("lets a web page's image (no token) use up no fault, so the developer's fault is the one applied", async () => {
		const control = { 'content-type': 'application/json' };
		const faults = [
			{ status: 500, count: 1, path: '/failures' },
			{ drop: true, count: 1, path: '/locations' },
		];
		for (const fault of faults)
			await raw('POST', '/__sandbox/faults', control, JSON.stringify(fault));
		// What an <img src="http://127.0.0.1:…/sandbox/v3/failures"> on any page sends: no token.
		const image = { origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' };
		for (const path of ['/failures', '/locations'])
			for (const method of ['GET', 'HEAD'])
				expect((await raw(method, `/sandbox/v3${path}`, image)).status).toBe(401);
		const listed = JSON.parse((await raw('GET', '/__sandbox/faults', {})).text) as {
			faults: unknown[];
		};
		expect(listed.faults).toEqual(faults.map((fault) => expect.objectContaining(fault)));
		// A stranger's request is logged as refused, without its body, and nothing more.
		expect((await requests()).requests.map(({ path, status }) => [path, status])).toEqual([
			['/failures', 401],
			['/failures', 401],
			['/locations', 401],
			['/locations', 401],
		]);
		const authorization = `Bearer ${token}`;
		expect((await raw('GET', '/sandbox/v3/failures', { authorization })).status).toBe(500);
		await expect(raw('GET', '/sandbox/v3/locations', { authorization })).rejects.toThrow();
		expect(JSON.parse((await raw('GET', '/__sandbox/faults', {})).text)).toEqual({ faults: [] });
	});

	it('refuses any Host but loopback with its port (DNS rebinding) with 421, and changes nothing', async () => {
		await raw(
			'POST',
			'/__sandbox/webhooks',
			{ 'content-type': 'application/json' },
			JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['*'] }),
		);
		for (const host of [`rebound.example:${port}`, 'rebound.example', `127.0.0.1:${port + 1}`]) {
			const read = await raw('GET', '/sandbox/v3/failures', {
				host,
				authorization: `Bearer ${token}`,
			});
			expect(read.status).toBe(421);
			expect(JSON.parse(read.text).error.message).toContain(`127.0.0.1:${port}`);
			const write = await raw(
				'PATCH',
				'/sandbox/v3/sales/buy-orders/3',
				{ host, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
				JSON.stringify({ external_sale_id: 'rebound' }),
			);
			expect(write.status).toBe(421);
			expect((await raw('GET', '/nowhere', { host })).status).toBe(421);
		}
		expect((await requests()).requests).toEqual([]);
		const deliveries = JSON.parse((await raw('GET', '/__sandbox/deliveries', {})).text) as {
			deliveries: unknown[];
		};
		expect(deliveries.deliveries).toEqual([]);
		const order = JSON.parse((await raw('GET', '/__sandbox/state/buyOrders/3', {})).text) as {
			attributes: Record<string, unknown>;
		};
		expect(order.attributes.external_sale_id).not.toBe('rebound');
		// The same request on a loopback name goes through.
		for (const host of [`localhost:${port}`, `[::1]:${port}`])
			expect(
				(
					await raw('GET', '/sandbox/v3/failures?limit=1', {
						host,
						authorization: `Bearer ${token}`,
					})
				).status,
			).toBe(200);
	});
});

describe('contract violations of an authenticated request', () => {
	const send = (body: string) =>
		raw(
			'POST',
			'/sandbox/v3/works',
			{
				authorization: `Bearer ${token}`,
				accept: 'application/json',
				'content-type': 'application/json',
			},
			body,
		);

	it('are printed with control and format characters escaped, never as they are', async () => {
		expect((await send(hostileBody())).status).toBe(400);
		const printed = warn.mock.calls.map((call) => String(call[0]));
		expect(printed.join('\n')).toContain('owned 0');
		expect(printed.join('\n')).toContain('\\u001b]0;owned 0\\u0007\\u202e');
		for (const line of printed) expect(line).not.toMatch(/[\p{Cc}\p{Cf}]/u);
		for (const violation of sandbox.violations())
			expect(violation.message).not.toMatch(/[\p{Cc}\p{Cf}]/u);
	});

	it('are kept bounded: a count per request, a length per message, a count in all', async () => {
		const huge = hostileBody(2048);
		for (let i = 0; i < 60; i++) expect((await send(huge)).status).toBe(400);
		const kept = sandbox.violations();
		expect(kept.length).toBeLessThanOrEqual(500);
		expect(kept.length).toBeGreaterThan(400);
		for (const violation of kept) expect(violation.message.length).toBeLessThanOrEqual(600);
		const answer = await raw('GET', '/__sandbox/violations', {});
		expect(answer.text.length).toBeLessThan(500 * 800);
		expect(Math.max(...warn.mock.calls.map((call) => String(call[0]).length))).toBeLessThan(1200);
	});
});

describe('a port another program holds', () => {
	it('makes startSandbox reject with EADDRINUSE, for its caller to word, rather than crash', async () => {
		await expect(startSandbox({ port, contract: false, quiet: true })).rejects.toMatchObject({
			code: 'EADDRINUSE',
		});
	});
});
