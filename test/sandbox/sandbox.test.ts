import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { keepsContract } from '../helpers/contract';

let sandbox: RunningSandbox;
let base: string;
let token: string;

beforeAll(async () => {
	// Lenient on query names, as the live API is: the service's filter forms are tested on any field.
	sandbox = await startSandbox({ port: 0, quiet: true, contract: true, lenientQuery: true });
	base = sandbox.environments.sandbox.baseUrl;
	token = sandbox.environments.sandbox.token;
});
afterAll(async () => await sandbox.close());
// Every answer keeps spec/openapi.yaml; requests here break it on purpose, to test the refusals.
keepsContract(() => sandbox, ['response']);
beforeEach(async () => {
	await control('POST', '/reset');
});

async function control(
	method: string,
	path: string,
	body?: unknown,
): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandbox.controlUrl}${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return (await response.json()) as Record<string, unknown>;
}

async function api(
	method: string,
	path: string,
	body?: unknown,
	headers: Record<string, string> = { Authorization: `Bearer ${token}` },
	root = base,
) {
	const response = await fetch(`${root}${path}`, {
		method,
		headers: {
			Accept: 'application/json',
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
			...headers,
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return {
		status: response.status,
		headers: response.headers,
		body: (await response.json()) as Record<string, any>,
	};
}

const propertiesOf = (answer: { body: Record<string, any> }) =>
	Object.keys(answer.body.error?.properties ?? {});

describe('envelope and pagination', () => {
	it('lists with data, included, meta.pagination (five members) and links', async () => {
		const { status, body } = await api('GET', '/failures?limit=10&page=2');
		expect(status).toBe(200);
		expect(body.data).toHaveLength(10);
		expect(body.data[0]).toMatchObject({
			id: '11',
			type: 'failure',
			attributes: expect.objectContaining({ failure_id: 11, code: 'WO-11' }),
		});
		expect(body.included).toEqual([]);
		expect(Object.keys(body.meta.pagination).sort()).toEqual([
			'count',
			'current_page',
			'per_page',
			'total',
			'total_pages',
		]);
		expect(body.meta.pagination).toMatchObject({
			count: 10,
			total: 10,
			per_page: 10,
			current_page: 2,
		});
		expect(Object.keys(body.links).sort()).toEqual(['first', 'last', 'next', 'prev', 'self']);
	});

	it('has no prev on the first page and no next on the last', async () => {
		const first = await api('GET', '/failures?limit=20');
		expect(first.body.links.prev).toBeUndefined();
		expect(first.body.links.next).toContain('page=2');
		const last = await api('GET', '/failures?limit=20&page=3');
		expect(last.body.data).toHaveLength(8);
		expect(last.body.links.next).toBeUndefined();
	});

	it('defaults to 200, caps at 2000, and answers a page beyond the last with empty data', async () => {
		await control('POST', '/reset', { seed: { failures: 2500 } });
		expect((await api('GET', '/failures')).body.data).toHaveLength(200);
		const capped = await api('GET', '/failures?limit=5000');
		expect(capped.body.data).toHaveLength(2000);
		expect(capped.body.meta.pagination.per_page).toBe(2000);
		expect((await api('GET', '/failures?limit=2000&page=9')).body.data).toEqual([]);
	});

	it('refuses a page or limit that is not a positive whole number', async () => {
		const answer = await api('GET', '/failures?limit=0&page=x');
		expect(answer.status).toBe(400);
		expect(propertiesOf(answer).sort()).toEqual(['limit', 'page']);
	});

	it('fills included from expanded', async () => {
		const { body } = await api('GET', '/works/scheduled?limit=1&expanded=work,client');
		expect(body.data[0].relationships.work.data).toEqual({ type: 'work', id: '1' });
		expect(body.included.map((r: { type: string }) => r.type).sort()).toEqual(['client', 'work']);
	});
});

describe('filters', () => {
	it('open failures exclude COMPLETED and ARCHIVED, and filter by status and s_local_id', async () => {
		const open = await api('GET', '/failures/open?limit=2000');
		expect(
			open.body.data.every((f: any) => !['COMPLETED', 'ARCHIVED'].includes(f.attributes.status)),
		).toBe(true);
		expect((await api('GET', '/failures/open?status=COMPLETED')).body.data).toEqual([]);
		const paused = await api('GET', '/failures/open?status=PAUSED&s_local_id=10');
		expect(paused.body.data.length).toBeGreaterThan(0);
		expect(
			paused.body.data.every(
				(f: any) => f.attributes.status === 'PAUSED' && f.attributes.local_id === 10,
			),
		).toBe(true);
	});

	it('open failures match an ID exactly and a date without its time by the whole day', async () => {
		const [first] = (await api('GET', '/failures/open?limit=1')).body.data;
		const id = first.attributes.failure_id as number;
		const byId = await api('GET', `/failures/open?failure_id=${id}&limit=2000`);
		expect(byId.body.data.map((f: any) => f.attributes.failure_id)).toEqual([id]);
		const day = String(first.attributes.start_date).slice(0, 10);
		const byDay = await api('GET', `/failures/open?start_date=${day}&limit=2000`);
		expect(byDay.body.data.length).toBeGreaterThan(0);
		expect(byDay.body.data.every((f: any) => String(f.attributes.start_date).startsWith(day))).toBe(
			true,
		);
		expect(byDay.body.data.map((f: any) => f.attributes.failure_id)).toContain(id);
	});

	it('supports s_<field>_in, _like, date ranges and sort', async () => {
		const within = await api('GET', '/suppliers?s_code_in=SUP-2,SUP-3');
		expect(within.body.data.map((s: any) => s.attributes.code)).toEqual(['SUP-2', 'SUP-3']);
		const like = await api('GET', '/suppliers?s_name_like=plier 1');
		expect(like.body.data.every((s: any) => s.attributes.name.includes('plier 1'))).toBe(true);
		const sorted = await api('GET', '/failures?limit=3&sort=failure_id-');
		expect(sorted.body.data.map((f: any) => f.attributes.failure_id)).toEqual([48, 47, 46]);
		const ranged = await api(
			'GET',
			'/failures?limit=2000&date_min_start_date=2026-01-02&date_max_start_date=2026-01-03',
		);
		expect(ranged.body.data.length).toBeGreaterThan(0);
		expect(
			ranged.body.data.every(
				(f: any) =>
					f.attributes.start_date >= '2026-01-02' && f.attributes.start_date <= '2026-01-03',
			),
		).toBe(true);
	});

	describe('s_<field>_like', () => {
		/** Sets location 3's observation and answers the IDs of the locations the pattern matches. */
		const matching = async (observation: string, pattern: string): Promise<string[]> => {
			const patched = await api('PATCH', '/locations', { locations: [{ id: 3, observation }] });
			expect(patched.status).toBe(200);
			const query = new URLSearchParams({ s_observation_like: pattern, limit: '2000' });
			const answer = await api('GET', `/locations?${query}`);
			expect(answer.status).toBe(200);
			return answer.body.data.map((l: any) => l.id);
		};

		it.each([
			['Pump ROOM 12', 'room', true],
			['Pump ROOM 12', 'pump%12', true],
			['Pump ROOM 12', '%room%', true],
			['Pump ROOM 12', 'room%', false],
			['Pump ROOM 12', '%12', true],
			['Pump ROOM 12', '%%', true],
			['Pump ROOM 12', 'pump%room%room', false],
			['abab', 'ab%ab', true],
			['aba', 'ab%ba', false],
			['a.b*c', 'a.b*%', true],
			['axbyc', 'a.b%', false],
		])('%j matches %j: %s', async (observation, pattern, matches) => {
			expect((await matching(observation, pattern)).includes('3')).toBe(matches);
		});
	});

	it('adds assets_count only with with_assets_count=true', async () => {
		expect((await api('GET', '/locations/1')).body.data.attributes.assets_count).toBeUndefined();
		expect(
			typeof (await api('GET', '/locations/1?with_assets_count=true')).body.data.attributes
				.assets_count,
		).toBe('number');
	});
});

describe('validation', () => {
	const work = {
		_type: 'works',
		type: 'SPECIAL',
		name: 'Job',
		work_type_id: 1,
		local_id: [3],
		client_id: 1,
	};
	it.each([
		['a missing required field', '/works', { ...work, name: undefined }, 'name'],
		['a wrong type', '/works', { ...work, work_type_id: 'one' }, 'work_type_id'],
		['an unknown enum value', '/works', { ...work, type: 'WEEKLY' }, 'type'],
		[
			'CYCLIC HOURLY without calendar',
			'/works',
			{ ...work, type: 'CYCLIC', interventions: [{ id: 1 }], recurrence: { FREQ: 'HOURLY' } },
			'calendar_id',
		],
		[
			'CYCLIC HOURLY without INTERVAL',
			'/works',
			{
				...work,
				type: 'CYCLIC',
				calendar_id: 1,
				interventions: [{ id: 1 }],
				recurrence: { FREQ: 'HOURLY' },
			},
			'recurrence.INTERVAL',
		],
		['any_responsible false alone', '/works', { ...work, any_responsible: false }, 'operator_id'],
		['auto_close on SPECIAL', '/works', { ...work, auto_close: true }, 'auto_close'],
		['PLAN without interventions', '/works', { ...work, type: 'PLAN' }, 'interventions'],
		[
			'procedures on PLAN',
			'/works',
			{ ...work, type: 'PLAN', interventions: [{ id: 1 }], procedures: [{ task: 'x' }] },
			'procedures',
		],
		[
			'pause reasons missing',
			'/works',
			{ ...work, sla_rules: [{ specify_pause_reason: true }] },
			'sla_rules[0].pause_reasons',
		],
		[
			'a SERVICE line without description',
			'/sales/sell-orders/1/lines',
			{ type: 'SERVICE', quantity: '1', unit_price: 1 },
			'description',
		],
		[
			'a MATERIAL line without material',
			'/sales/quotes/1/lines',
			{ type: 'MATERIAL' },
			'material_id',
		],
		[
			'an OTHER_COST line without other cost',
			'/sales/sell-orders/1/lines',
			{ type: 'OTHER_COST', quantity: '1', unit_price: 1 },
			'other_cost_id',
		],
		[
			'a legacy MATERIAL without units',
			'/materials',
			{ _type: 'MATERIAL', name: 'M', code: 'LM-Z', parent_id: 1 },
			'units',
		],
		[
			'a duplicate material code',
			'/stocks/materials',
			{ material_type_id: 1, name: 'M', code: 'MAT-1', units: 'u' },
			'code',
		],
		[
			'a transfer to the same warehouse',
			'/stocks/stock-transactions/transfer',
			{ warehouse_from_id: 1, warehouse_to_id: 1, material_id: 1, quantity: 1 },
			'warehouse_to_id',
		],
	])('answers %s with the spec 400 body', async (_label, path, body, property) => {
		const answer = await api('POST', path, body);
		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({
			status: 'error',
			error: {
				http_code: 400,
				message: 'Property validation error.',
				dev_message: expect.any(String),
			},
		});
		expect(propertiesOf(answer)).toContain(property);
	});

	it('keeps related_to_type and related_to_id together, and 50 locations per PATCH at most', async () => {
		expect(
			propertiesOf(await api('PATCH', '/sales/buy-orders/2', { related_to_type: 'FAILURE' })),
		).toContain('related_to_id');
		const locations = Array.from({ length: 51 }, (_, i) => ({ id: i + 1, name: `L${i}` }));
		await control('POST', '/reset', { seed: { locations: 60 } });
		expect(propertiesOf(await api('PATCH', '/locations', { locations }))).toContain('locations');
	});
});

describe('state', () => {
	it('persists creates and updates: a created material can be updated, a PATCHed location reads back', async () => {
		const created = await api('POST', '/stocks/materials', {
			material_type_id: 1,
			name: 'Belt',
			code: 'BELT-1',
			units: 'u',
		});
		expect(created.status).toBe(201);
		const updated = await api('PATCH', `/stocks/materials/${created.body.data.id}`, {
			material_type_id: 1,
			name: 'Belt XL',
			code: 'BELT-1',
			units: 'u',
		});
		expect(updated.body.data.attributes.name).toBe('Belt XL');
		await api('PATCH', '/locations', { locations: [{ id: 4, name: 'Plant room' }] });
		expect((await api('GET', '/locations/4')).body.data.attributes.name).toBe('Plant room');
	});

	it('PATCH /locations answers Location and location-folder resources, and refuses a building', async () => {
		const types = async (id: number) => (await api('GET', `/locations/${id}`)).body.data.type;
		expect([await types(1), await types(2), await types(3)]).toEqual([
			'building',
			'location-folder',
			'location',
		]);
		const updated = await api('PATCH', '/locations', {
			locations: [
				{ id: 2, name: 'Floor two' },
				{ id: 3, name: 'Room three' },
			],
		});
		expect(updated.status).toBe(200);
		expect(updated.body.data.map((l: any) => [l.id, l.type, l.attributes.name])).toEqual([
			['2', 'location-folder', 'Floor two'],
			['3', 'location', 'Room three'],
		]);
		const building = await api('PATCH', '/locations', {
			locations: [
				{ id: 3, name: 'Not applied' },
				{ id: 1, name: 'Headquarters' },
			],
		});
		expect(building.status).toBe(400);
		expect(building.body.error.properties).toEqual({
			'locations[1].id': [
				'This is a building: only locations and location folders are updated here.',
			],
		});
		expect((await api('GET', '/locations/1')).body.data.attributes.name).toBe('Building 1');
		expect((await api('GET', '/locations/3')).body.data.attributes.name).toBe('Room three');
	});

	it('changes stock with batches and transfers, and refuses to go below zero', async () => {
		const stock = async (key: string) => (await control('GET', `/state/stock/${key}`)).quantity;
		await api('POST', '/stocks/warehouses/1/stock-transactions', {
			action: 'WAREHOUSE_SUBTRACT',
			transactions: [{ material_id: 5, quantity: 30, cost_price: 2 }],
		});
		expect(await stock('1:5')).toBe(70);
		await api('POST', '/stocks/stock-transactions/transfer', {
			warehouse_from_id: 1,
			warehouse_to_id: 3,
			material_id: 5,
			quantity: 20,
		});
		expect([await stock('1:5'), await stock('3:5')]).toEqual([50, 120]);
		const tooMuch = await api('POST', '/stocks/stock-transactions/transfer', {
			warehouse_from_id: 1,
			warehouse_to_id: 3,
			material_id: 5,
			quantity: 51,
		});
		expect(propertiesOf(tooMuch)).toContain('quantity');
	});
});

describe('auth', () => {
	it('refuses a missing header, a token of the other environment and a malformed Bearer', async () => {
		const attempts: Array<Record<string, string>> = [
			{},
			{ Authorization: `Bearer ${sandbox.environments.production.token}` },
			{ Authorization: `Bearer  ${token}` },
			{ Authorization: token },
		];
		for (const headers of attempts) {
			const answer = await api('GET', '/failures', undefined, headers);
			expect(answer.status).toBe(401);
			expect(answer.body.error.message).toBe('Authentication token invalid.');
		}
		const production = await api(
			'GET',
			'/failures',
			undefined,
			{ Authorization: `Bearer ${sandbox.environments.production.token}` },
			sandbox.environments.production.baseUrl,
		);
		expect(production.status).toBe(200);
	});

	it('gives a read-only token 403 on order endpoints and writes, and 404 for unknown ids', async () => {
		const readOnly = { Authorization: `Bearer ${sandbox.environments.sandbox.readOnlyToken}` };
		expect((await api('GET', '/failures', undefined, readOnly)).status).toBe(200);
		const forbidden = await api('GET', '/sales/buy-orders', undefined, readOnly);
		expect(forbidden.status).toBe(403);
		expect(forbidden.body.error.message).toBe('Action unauthorized');
		expect((await api('POST', '/contacts', { email: 'a@b.c' }, readOnly)).status).toBe(403);
		const missing = await api('GET', '/locations/99999');
		expect(missing.status).toBe(404);
		expect(missing.body.error).toMatchObject({ message: 'Resource not found', more_info: null });
	});

	it('logs requests with the token redacted', async () => {
		await control('DELETE', '/requests');
		await api('GET', '/suppliers?limit=1');
		const { requests } = (await control('GET', '/requests')) as {
			requests: Array<Record<string, any>>;
		};
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			path: '/suppliers',
			env: 'sandbox',
			status: 200,
			query: { limit: '1' },
		});
		expect(JSON.stringify(requests)).not.toContain(token);
	});
});

describe('faults on demand', () => {
	it('injects 500s for the next N requests of a route', async () => {
		await control('POST', '/faults', { status: 500, count: 2, path: '/failures' });
		expect((await api('GET', '/failures')).status).toBe(500);
		expect((await api('GET', '/suppliers')).status).toBe(200);
		expect((await api('GET', '/failures')).body.error.message).toBe(
			'An error has occurred during the request.',
		);
		expect((await api('GET', '/failures')).status).toBe(200);
	});

	it('drops connections', async () => {
		await control('POST', '/faults', { drop: true, count: 1 });
		await expect(api('GET', '/failures')).rejects.toThrow();
		expect((await api('GET', '/failures')).status).toBe(200);
	});

	it('drops a write once read: the request log has it, the record is unchanged', async () => {
		await control('POST', '/faults', { drop: true, method: 'PATCH', path: '/stocks/materials/2' });
		const body = { material_type_id: 2, name: 'Dropped', code: 'MAT-2', units: 'unit' };
		await expect(api('PATCH', '/stocks/materials/2', body)).rejects.toThrow();
		const { requests } = (await control('GET', '/requests')) as {
			requests: Array<{ method: string; path: string; status: number; body: unknown }>;
		};
		expect(
			requests.map(({ method, path, status, body }) => ({ method, path, status, body })),
		).toEqual([{ method: 'PATCH', path: '/stocks/materials/2', status: -1, body }]);
		const stored = (await control('GET', '/state/stockMaterials/2')) as {
			attributes: { name: string };
		};
		expect(stored.attributes.name).not.toBe('Dropped');
	});

	it("answers a fault's Retry-After, and a 2xx in the API's error envelope of another http_code", async () => {
		await control('POST', '/faults', { status: 429, retryAfter: 600, path: '/suppliers' });
		await control('POST', '/faults', { status: 200, httpCode: 429, path: '/suppliers' });
		const limited = await api('GET', '/suppliers');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('600');
		expect(limited.headers.get('x-ratelimit-remaining')).toBe('1000000');
		const contradictory = await api('GET', '/suppliers');
		expect({ status: contradictory.status, body: contradictory.body }).toEqual({
			status: 200,
			body: {
				status: 'error',
				error: expect.objectContaining({ http_code: 429, message: 'HTTP 429' }),
			},
		});
		expect(contradictory.headers.get('retry-after')).toBeNull();
		expect((await api('GET', '/suppliers')).status).toBe(200);
		// A 200 in the error envelope breaks the spec's answer on purpose.
		await control('DELETE', '/violations');
	});

	it.each([
		[{ status: 200, httpCode: 99 }, /^httpCode: /],
		[{ status: 200, httpCode: '429' }, /^httpCode: /],
		[{ status: 429, retryAfter: -1 }, /^retryAfter: /],
		[{ status: 429, retryAfter: 1.5 }, /^retryAfter: /],
	])('refuses a fault with %j, naming the field', async (fault, named) => {
		const response = await fetch(`${sandbox.controlUrl}/faults`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(fault),
		});
		expect(response.status).toBe(400);
		expect(((await response.json()) as { error: string }).error).toMatch(named);
		expect((await control('GET', '/faults')).faults).toEqual([]);
	});

	it('rate limits with the headers of the service', async () => {
		await control('POST', '/rate-limit', { limit: 2, windowMs: 60_000 });
		const first = await api('GET', '/failures?limit=1');
		expect(first.headers.get('x-ratelimit-limit')).toBe('2');
		expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
		await api('GET', '/failures?limit=1');
		const limited = await api('GET', '/failures?limit=1');
		expect(limited.status).toBe(429);
		expect(limited.body.error.message).toBe('Too Many Requests.');
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
	});
});

describe('webhooks', () => {
	let receiver: Server;
	let received: Array<{ method: string; url: string; event: string | undefined; body: any }>;

	beforeAll(async () => {
		receiver = createServer((req: IncomingMessage, res) => {
			let text = '';
			req.on('data', (chunk) => (text += chunk));
			req.on('end', () => {
				received.push({
					method: req.method!,
					url: req.url!,
					event: req.headers['x-event-name'] as string,
					body: JSON.parse(text),
				});
				res.end('{}');
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise((resolve) => receiver.close(resolve)));
	beforeEach(() => (received = []));

	const url = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

	it('fires any event on demand, by POST or PATCH, to matching subscriptions', async () => {
		await control('POST', '/webhooks', { url: url(), method: 'PATCH', events: ['QUOTE_READY'] });
		await control('POST', '/webhooks', { url: `${url()}?all=1`, method: 'POST', events: ['*'] });
		const fired = await control('POST', '/events', {
			event: 'QUOTE_READY',
			data: { id: '4', type: 'quote', attributes: {} },
		});
		expect(fired.deliveries).toHaveLength(2);
		expect(received.map((r) => r.method).sort()).toEqual(['PATCH', 'POST']);
		expect(received[0].body).toMatchObject({
			event: 'QUOTE_READY',
			event_id: expect.any(String),
			occurred_at: expect.any(String),
			data: { id: '4' },
		});
		expect(received[0].event).toBe('QUOTE_READY');
		expect(
			(
				await fetch(`${sandbox.controlUrl}/events`, {
					method: 'POST',
					body: JSON.stringify({ event: 'NOPE' }),
					headers: { 'Content-Type': 'application/json' },
				})
			).status,
		).toBe(400);
	});

	it('emits BUY_ORDER_UPDATED on PATCH of a buy order, and the state events when its state moves', async () => {
		await control('POST', '/webhooks', { url: url(), method: 'POST', events: ['*'] });
		await api('PATCH', '/sales/buy-orders/3', { external_sale_id: 'E-1' });
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(received.map((r) => r.event)).toEqual(['BUY_ORDER_UPDATED']);
		received = [];
		await control('POST', '/buy-orders/3/state', { state: 'CONFIRMED' });
		expect(received.map((r) => r.event)).toEqual([
			'BUY_ORDER_STATE_CHANGED',
			'BUY_ORDER_CONFIRMED',
		]);
	});
});
