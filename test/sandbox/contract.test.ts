import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';

import { parsePageCaps, startSandbox, type RunningSandbox } from '../../sandbox';
import { ROUTES } from '../../sandbox/api';
import { Contract, enumValues, SPEC_PATH } from '../../sandbox/contract';
import { MAX_BODY_BYTES } from '../../sandbox/http';

const contract = Contract.load();
let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true, contract: true });
});
afterAll(async () => await sandbox.close());
beforeEach(async () => {
	await fetch(`${sandbox.controlUrl}/reset`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
	});
	sandbox.clearViolations();
});

/** A request as the spec wants it: bearer token, Accept, and Content-Type with a body. */
async function api(method: string, path: string, body?: unknown, root?: RunningSandbox) {
	const { baseUrl, token } = (root ?? sandbox).environments.sandbox;
	const response = await fetch(`${baseUrl}${path}`, {
		method,
		headers: {
			Authorization: `Bearer ${token}`,
			Accept: 'application/json',
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('the document', () => {
	it('is a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator)', () => {
		const cli = join(
			require.resolve('@seriousme/openapi-schema-validator/package.json'),
			'..',
			'bin',
			'validate-api-cli.js',
		);
		const result = spawnSync(process.execPath, [cli, SPEC_PATH], { encoding: 'utf8' });
		expect(JSON.parse(result.stdout)).toEqual({ valid: true });
		expect(contract.document.openapi).toBe('3.1.0');
	});

	it("has the spec's operations, the same as the sandbox's routes", () => {
		const routes = ROUTES.map((r) => `${r.method} ${r.pattern}`);
		expect(routes.length).toBeGreaterThan(0);
		expect([...contract.operationNames].sort()).toEqual([...routes].sort());
	});

	it('gives the demo data its enums, null left out, and names a path that holds none', () => {
		const schemas = (contract.document.components as Record<string, any>).schemas;
		expect(enumValues('Orientation')).toEqual(
			schemas.Orientation.enum.filter((value: unknown) => value !== null),
		);
		expect(enumValues('Work', 'attributes', 'type')).toEqual(
			schemas.Work.properties.attributes.properties.type.enum.filter(Boolean),
		);
		expect(() => enumValues('Work', 'attributes', 'description')).toThrow(
			'spec/openapi.yaml has no enum at Work.attributes.description',
		);
	});
});

/** One valid request per operation, asking for the expanded relations where the spec names some. */
const CALLS: Array<[method: string, path: string, body?: unknown]> = [
	['GET', '/locations?limit=12&with_assets_count=true'],
	['GET', '/locations/1?with_assets_count=true'],
	['GET', '/locations/2'],
	['GET', '/locations/3'],
	[
		'PATCH',
		'/locations',
		{
			locations: [
				{ id: 3, name: 'Room 3b', orientation: 'North', area: 12.5, latitude: null },
				{ id: 2, code: 'F2b', observation: 'Second floor' },
			],
		},
	],
	['GET', '/failures?limit=2000&expanded=assignees,eventsPlanned,location'],
	['GET', '/failures/open?status=PAUSED&s_local_id=10'],
	[
		'POST',
		'/works',
		{
			_type: 'works',
			type: 'CYCLIC',
			name: 'Monthly lift inspection',
			work_type_id: 1,
			local_id: [3, 4],
			client_id: 1,
			interventions: [{ id: 1, elements: [{ id: '7' }] }],
			recurrence: { DTSTART: '2026-12-01T08:00:00Z', FREQ: 'MONTHLY', INTERVAL: 1 },
			any_responsible: false,
			operator_id: [2],
		},
	],
	[
		'POST',
		'/works',
		{
			_type: 'works',
			type: 'SPECIAL',
			name: 'Boiler repair',
			work_type_id: 1,
			local_id: [3],
			client_id: 1,
			procedures: [{ task: 'Replace the valve', quantity: 1, unit: 'h' }],
		},
	],
	['GET', '/works/scheduled?limit=2000&expanded=work,client,participants'],
	['GET', '/sales/buy-orders?limit=2000'],
	[
		'PATCH',
		'/sales/buy-orders/1',
		{ description: 'Urgent', related_to_type: 'FAILURE', related_to_id: 2 },
	],
	[
		'POST',
		'/sales/sell-orders/1/lines?expanded=cost_center,material,other_cost',
		{ type: 'MATERIAL', quantity: '2', unit_price: 10.5, material_id: 1, discount: 5, vat: 23 },
	],
	[
		'POST',
		'/sales/sell-orders/1/lines?expanded=other_cost',
		{ type: 'OTHER_COST', quantity: '12', unit_price: 0.4, other_cost_id: 1 },
	],
	[
		'POST',
		'/sales/quotes/1/lines',
		{ type: 'SERVICE', description: 'Labour', quantity: 2, unit_price: 30, vat: 23 },
	],
	[
		'POST',
		'/materials',
		{ _type: 'MATERIAL', name: 'Bolt', code: 'LM-NEW', units: 'unit', parent_id: 1, mean_price: 2 },
	],
	['POST', '/materials', { _type: 'FOLDER', name: 'Fixings', code: 'LM-FOLDER' }],
	['POST', '/stocks/materials', { material_type_id: 1, name: 'Valve', code: 'V-1', units: 'unit' }],
	[
		'PATCH',
		'/stocks/materials/1?expanded=material_type',
		{ material_type_id: 2, name: 'Material 1', code: 'MAT-1', units: 'unit', description: null },
	],
	['POST', '/stocks/material-types', { name: 'Pipes', parent_id: '1' }],
	[
		'POST',
		'/stocks/warehouses/1/stock-transactions',
		{ action: 'WAREHOUSE_ADD', transactions: [{ material_id: 1, quantity: 5, cost_price: 3 }] },
	],
	[
		'POST',
		'/stocks/stock-transactions/transfer',
		{ warehouse_from_id: 1, warehouse_to_id: 2, material_id: 1, quantity: 5 },
	],
	['GET', '/stock-movements'],
	[
		'POST',
		'/contacts',
		{ name: 'Ana', email: 'ana@example.com', direct_permissions: { failure_type: 'all' } },
	],
	['POST', '/contacts', { email: 'contact1@example.com' }],
	['POST', '/clients/1/contacts', { contact_ids: [1, 2] }],
	['GET', '/suppliers?expanded=contacts,files,handshake'],
	[
		'PATCH',
		'/suppliers/1',
		{ name: 'Supplier One', post_code: '1000-001', latitude: 38.7, contacts: [1] },
	],
	['PATCH', '/suppliers/2', { add_to_market: true }],
];

describe('every operation against the document', () => {
	it("answers each of the spec's operations with a 2xx that keeps spec/openapi.yaml, to requests that keep it", async () => {
		const answered = new Set<string>();
		for (const [method, path, body] of CALLS) {
			const { status } = await api(method, path, body);
			expect([method, path, status]).toEqual([method, path, expect.any(Number)]);
			expect(status).toBeGreaterThanOrEqual(200);
			expect(status).toBeLessThan(300);
			answered.add(contract.operation(method, path.split('?')[0])!.id);
		}
		expect(answered.size).toBe(contract.operationNames.length);
		expect(sandbox.violations()).toEqual([]);
	});

	it('keeps the document in its error answers: 400, 401, 403, 404, 405, 429', async () => {
		expect((await api('POST', '/works', { _type: 'works' })).status).toBe(400);
		expect((await api('GET', '/locations/99999')).status).toBe(404);
		expect((await api('PUT', '/locations')).status).toBe(405);
		const { baseUrl, readOnlyToken } = sandbox.environments.sandbox;
		const forbidden = await fetch(`${baseUrl}/sales/buy-orders`, {
			headers: { Authorization: `Bearer ${readOnlyToken}`, Accept: 'application/json' },
		});
		expect(forbidden.status).toBe(403);
		expect((await fetch(`${baseUrl}/failures`)).status).toBe(401);
		await fetch(`${sandbox.controlUrl}/rate-limit`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ limit: 1 }),
		});
		await api('GET', '/suppliers');
		expect((await api('GET', '/suppliers')).status).toBe(429);
		expect(sandbox.violations().filter((v) => v.kind === 'response')).toEqual([]);
	});

	it('logs a request that breaks the document: a field the spec lacks, a wrong type, a missing header', async () => {
		const { baseUrl, token } = sandbox.environments.sandbox;
		await fetch(`${baseUrl}/stocks/stock-transactions/transfer`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({
				warehouse_from_id: 1,
				warehouse_to_id: '2',
				material_id: 1,
				quantity: 1,
				colour: 'red',
			}),
		});
		const expected = [
			'request: header Accept does not name application/json',
			'request: body must NOT have additional properties (colour)',
			'request: body/warehouse_to_id must be integer',
		];
		const { requests } = (await (await fetch(`${sandbox.controlUrl}/requests`)).json()) as {
			requests: Array<{ violations?: string[] }>;
		};
		expect(requests[0].violations).toEqual(expected);
		const { violations } = (await (await fetch(`${sandbox.controlUrl}/violations`)).json()) as {
			violations: unknown[];
		};
		expect(violations).toHaveLength(3);
		expect(sandbox.violations().map((v) => `${v.kind}: ${v.message}`)).toEqual(expected);
	});

	it('finds the drift the sandbox had: UUIDs that are not UUIDs, the batch enum on a transfer result', async () => {
		const page = (await api('GET', '/failures?limit=1')).body;
		page.data[0].attributes.uuid = 'f00000001-0000-4000-8000-00000000000';
		expect(contract.checkResponse('GET', '/failures', 200, page)).toEqual([
			'body/data/0/attributes/uuid must match format "uuid"',
		]);
		const transfer = (
			await api('POST', '/stocks/stock-transactions/transfer', {
				warehouse_from_id: 1,
				warehouse_to_id: 2,
				material_id: 1,
				quantity: 1,
			})
		).body;
		expect(transfer.data.attributes.source_type).toBe('MANUEL');
		transfer.data.attributes.source_type = 'MANUAL';
		expect(
			contract.checkResponse('POST', '/stocks/stock-transactions/transfer', 201, transfer),
		).toEqual([
			'body/data/attributes/source_type must be equal to one of the allowed values (FAILURE, SCHEDULED_WORK_ORDER, BUY_ORDER, ELEMENT, MANUEL)',
		]);
		expect(sandbox.violations()).toEqual([]);
	});

	it('generates UUIDs in version 4 form, none repeated', async () => {
		const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
		const uuids: string[] = [];
		const collect = (resources: Array<{ attributes: Record<string, unknown> }>) => {
			for (const { attributes } of resources)
				for (const [key, value] of Object.entries(attributes))
					if (/uuid$/.test(key) && typeof value === 'string') uuids.push(value);
		};
		collect((await api('GET', '/locations?limit=2000')).body.data);
		collect((await api('GET', '/failures?limit=2000')).body.data);
		collect((await api('GET', '/suppliers?limit=2000')).body.data);
		collect(
			(await api('GET', '/works/scheduled?limit=1&expanded=client,participants')).body.included,
		);
		expect(uuids.length).toBeGreaterThan(100);
		expect(uuids.filter((u) => !V4.test(u))).toEqual([]);
		expect(new Set(uuids).size).toBe(uuids.length);
	});
});

/** Sends raw bytes on a loopback socket and reads whatever comes back until the server closes or `waitMs` passes. */
function raw(
	text: string | Buffer[],
	options: { abortAfterWrite?: boolean; waitMs?: number } = {},
): Promise<string> {
	const { port } = new URL(sandbox.url);
	return new Promise((resolve) => {
		let answer = '';
		const socket = connect(Number(port), '127.0.0.1', () => {
			for (const chunk of Array.isArray(text) ? text : [text]) socket.write(chunk);
			if (options.abortAfterWrite) socket.destroy();
		});
		const done = () => {
			clearTimeout(timer);
			resolve(answer);
		};
		const timer = setTimeout(() => socket.destroy(), options.waitMs ?? 5000);
		socket.on('data', (data) => (answer += data.toString('latin1')));
		socket.on('close', done);
		socket.on('error', done);
	});
}

const statusLine = (answer: string) => answer.split('\r\n')[0];
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
const stillServing = async () => expect((await api('GET', '/suppliers?limit=1')).status).toBe(200);

describe('bad input does not stop the sandbox', () => {
	it('answers a malformed request target with 400 in the error body, and keeps serving', async () => {
		const answer = await raw('GET http://a:99999/x HTTP/1.1\r\nHost: a\r\n\r\n');
		expect(statusLine(answer)).toBe('HTTP/1.1 400 Bad Request');
		expect(bodyOf(answer)).toMatchObject({ status: 'error', error: { http_code: 400 } });
		await stillServing();
	});

	it('keeps serving after a client aborts in the middle of a body', async () => {
		const head = `POST /sandbox/v3/works HTTP/1.1\r\nHost: ${new URL(sandbox.url).host}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n`;
		expect(await raw(`${head}{"_type":"wor`, { abortAfterWrite: true })).toBe('');
		await stillServing();
		await stillServing();
	});

	it('answers 413 to a body declared larger than the limit, without reading it', async () => {
		const answer = await raw(
			`POST /sandbox/v3/works HTTP/1.1\r\nHost: ${new URL(sandbox.url).host}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`,
		);
		expect(statusLine(answer)).toBe('HTTP/1.1 413 Payload Too Large');
		expect(bodyOf(answer)).toEqual({
			status: 'error',
			error: {
				http_code: 413,
				message: 'Request body too large: the limit is 10 MB.',
				more_info: 'https://developers.example.com/errors/413',
			},
		});
		await stillServing();
	});

	it('answers 413 to a chunked body that grows past the limit, and logs it', async () => {
		const megabyte = Buffer.alloc(1024 * 1024, 'a');
		const chunk = Buffer.concat([Buffer.from('100000\r\n'), megabyte, Buffer.from('\r\n')]);
		const { token } = sandbox.environments.sandbox;
		const head = `POST /sandbox/v3/contacts HTTP/1.1\r\nHost: ${new URL(sandbox.url).host}\r\nAuthorization: Bearer ${token}\r\nAccept: application/json\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
		const answer = await raw([
			Buffer.from(head),
			...Array.from({ length: 11 }, () => chunk),
			Buffer.from('0\r\n\r\n'),
		]);
		expect(statusLine(answer)).toBe('HTTP/1.1 413 Payload Too Large');
		expect(bodyOf(answer).error.http_code).toBe(413);
		const { requests } = (await (await fetch(`${sandbox.controlUrl}/requests`)).json()) as {
			requests: Array<{ path: string; status: number }>;
		};
		expect(requests[0]).toMatchObject({ path: '/contacts', status: 413 });
		await stillServing();
		expect(sandbox.violations().filter((v) => v.kind === 'response')).toEqual([]);
	});
});

describe('page-size caps', () => {
	it('answers fewer records than asked, with links.next, until the last page', async () => {
		const capped = await startSandbox({
			port: 0,
			quiet: true,
			contract: true,
			seed: { failures: 250 },
			pageCaps: { failures: 100 },
		});
		try {
			const first = await api('GET', '/failures?limit=500', undefined, capped);
			expect(first.body.data).toHaveLength(100);
			expect(first.body.meta.pagination).toMatchObject({ count: 100, per_page: 100 });
			const pages = [first.body];
			while (pages.at(-1)!.links.next) {
				const next = new URL(pages.at(-1)!.links.next);
				const page = await api('GET', `/failures${next.search}`, undefined, capped);
				pages.push(page.body);
			}
			expect(pages.map((p) => p.data.length)).toEqual([100, 100, 50]);
			const ids = pages.flatMap((p) => p.data.map((f: { id: string }) => f.id));
			expect(new Set(ids).size).toBe(250);
			// Other collections keep the spec's limits, and a smaller limit than the cap is kept.
			expect((await api('GET', '/suppliers?limit=500', undefined, capped)).body.data).toHaveLength(
				24,
			);
			expect((await api('GET', '/failures?limit=30', undefined, capped)).body.data).toHaveLength(
				30,
			);
			expect(
				(await api('GET', '/failures/open?limit=500', undefined, capped)).body.data,
			).toHaveLength(167);
			expect(capped.violations()).toEqual([]);
		} finally {
			await capped.close();
		}
	});

	it('are set by the control API too, and reset restores the start options', async () => {
		const set = await fetch(`${sandbox.controlUrl}/page-caps`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ 'failures/open': 7 }),
		});
		expect(await set.json()).toEqual({ pageCaps: { 'failures/open': 7 } });
		const open = await api('GET', '/failures/open?limit=50');
		expect(open.body.data).toHaveLength(7);
		expect(open.body.links.next).toContain('limit=7');
		const wrong = await fetch(`${sandbox.controlUrl}/page-caps`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ works: 5 }),
		});
		expect(wrong.status).toBe(400);
		await fetch(`${sandbox.controlUrl}/reset`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
		});
		expect((await api('GET', '/failures/open?limit=50')).body.data).toHaveLength(32);
	});

	it('read from SANDBOX_PAGE_CAPS text, refusing unknown collections and bad numbers', () => {
		expect(parsePageCaps('failures=100, locations=50')).toEqual({ failures: 100, locations: 50 });
		expect(parsePageCaps('')).toEqual({});
		expect(() => parsePageCaps('failure=100')).toThrow(/No collection "failure"/);
		expect(() => parsePageCaps('failures=0')).toThrow(/positive whole number/);
	});
});
