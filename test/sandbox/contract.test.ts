import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';

import { parsePageCaps, startSandbox, type RunningSandbox } from '../../sandbox';
import { ROUTES } from '../../sandbox/api';
import { Contract, enumValues, SPEC_PATH } from '../../sandbox/contract';
import { MAX_BODY_BYTES } from '../../sandbox/http';
import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import type { OperationModule } from '../../nodes/shared/types';
import { operationCases } from '../cases/operations';

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
		const documented = contract.operationNames;
		expect({
			'operations without a route in sandbox/api.ts': documented.filter((n) => !routes.includes(n)),
			'routes of no operation of the document': routes.filter((n) => !documented.includes(n)),
		}).toEqual({
			'operations without a route in sandbox/api.ts': [],
			'routes of no operation of the document': [],
		});
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

/**
 * The requests of the operation cases (test/cases/operations.ts), each sent to a reset sandbox as it is
 * and, where the node offers `expanded`, once more asking for every relation it offers.
 */
const unused = () => Promise.reject(new Error('the contract test runs no case checks'));
const cases = operationCases(unused, unused);
const CALLS = cases.flatMap(({ resource, operation, request }) => {
	const { method, path, body } = request;
	const query = new URLSearchParams(request.query);
	const label = `${resource} ${operation}: ${method} ${path}`;
	// A case whose operation the node has lost still checks the sandbox: its own tests name the loss.
	const operations = resources[resource]?.operations as Record<string, OperationModule> | undefined;
	const expanded = operations?.[operation]?.description.find((p) => p.name === 'expanded');
	const withQuery = () => (String(query) ? `${path}?${query}` : path);
	const calls = [{ label, method, path: withQuery(), body }];
	if (expanded) {
		query.set(
			'expanded',
			(expanded.options ?? []).map((o) => String((o as { value: string }).value)).join(','),
		);
		calls.push({
			label: `${label} expanded=${query.get('expanded')}`,
			method,
			path: withQuery(),
			body,
		});
	}
	return calls;
});

describe('every operation against the document', () => {
	it('has an operation case for each operation of the document', () => {
		const covered = new Set(
			cases.map(({ request }) => {
				const found = contract.operation(request.method, request.path);
				return found && `${found.method} ${found.template}`;
			}),
		);
		expect(contract.operationNames.filter((name) => !covered.has(name))).toEqual([]);
	});

	it.each(CALLS)(
		'$label: answers 2xx keeping spec/openapi.yaml',
		async ({ method, path, body }) => {
			const { status } = await api(method, path, body);
			expect({ status: Math.floor(status / 100) * 100, violations: sandbox.violations() }).toEqual({
				status: 200,
				violations: [],
			});
		},
	);

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

	it('refuses a query parameter the document does not list, as it refuses an unknown body field', async () => {
		const refused = await api(
			'GET',
			'/failures?limit=1&s_priority_in=4&completion_date=2026-01-01',
		);
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatchObject({
			message: 'Property validation error.',
			properties: { completion_date: ['This query parameter was not expected.'] },
		});
		expect(sandbox.violations().map((v) => `${v.kind}: ${v.message}`)).toEqual([
			'request: query completion_date is not a parameter of getFailures',
		]);
		sandbox.clearViolations();
		const listed = await api('GET', '/failures?limit=2000&s_priority_in=4&sort=priority-');
		expect(listed.status).toBe(200);
		expect(listed.body.data.length).toBeGreaterThan(0);
		expect(listed.body.data.every((f: any) => f.attributes.priority === 4)).toBe(true);
		expect(sandbox.violations()).toEqual([]);
	});

	it('with lenientQuery, answers as the live API does, the unlisted name ignored, and still reports it', async () => {
		const lenient = await startSandbox({
			port: 0,
			quiet: true,
			contract: true,
			lenientQuery: true,
		});
		try {
			const answer = await api(
				'GET',
				'/failures?limit=3&completion_date=2026-01-01',
				undefined,
				lenient,
			);
			expect(answer.status).toBe(200);
			expect(answer.body.data).toHaveLength(3);
			expect(lenient.violations().map((v) => v.message)).toEqual([
				'query completion_date is not a parameter of getFailures',
			]);
		} finally {
			await lenient.close();
		}
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
