import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import {
	isConnectionFault,
	neverConnected,
	rateLimitWaitMs,
} from '../../nodes/MaintenanceManagement/transport';
import { expr, runNode, type Credentials } from './helpers/harness';
import { apiError, collectionPage, ScriptedServer, type Reply } from '../helpers/scriptedServer';
import { notConfirmed, tokenNotOneText } from '../../nodes/shared/errors/messages';

/**
 * The transport against servers that misbehave, through n8n-core's real request path: redirects,
 * next links that leave the API or cycle, capped page sizes, bodies that are not the API's envelope,
 * dropped connections, odd rate-limit headers and odd input.
 */

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const sleepMock = sleep as jest.MockedFunction<typeof sleep>;
const TOKEN = 'tok_hostile_7c1e9d2a4b6f8e0a';
const api = new ScriptedServer();
const elsewhere = new ScriptedServer();
const node = new MaintenanceManagement();
let credentials: Credentials;

beforeAll(async () => {
	await api.start();
	await elsewhere.start();
	credentials = {
		accessToken: TOKEN,
		environment: 'production',
		productionBaseUrl: `${api.url}/v3`,
	};
});
afterAll(async () => {
	await api.stop();
	await elsewhere.stop();
});
beforeEach(() => {
	sleepMock.mockClear();
	api.reset(() => ({ status: 200, body: collectionPage(1, 1, 50) }));
	elsewhere.reset(() => ({ status: 200, body: collectionPage(1, 1, 50) }));
});

const run = (parameters: Record<string, unknown>, creds: Credentials = credentials) =>
	runNode({ node, credentials: creds, parameters });
const listLocations = (extra: Record<string, unknown> = {}, creds: Credentials = credentials) =>
	run({ resource: 'location', operation: 'getAll', ...extra }, creds);
const getLocation = (id: unknown) =>
	run({ resource: 'location', operation: 'get', id: { __rl: true, mode: 'id', value: id } });
const mentionsToken = (value: unknown) => JSON.stringify(value ?? '').includes(TOKEN);
const location = (id: number) => ({
	id: String(id),
	type: 'location',
	attributes: { name: `L${id}` },
});

describe('redirects', () => {
	it('does not follow a redirect to another origin, names it, and the token never reaches it', async () => {
		api.reset(() => ({ status: 302, headers: { Location: `${elsewhere.url}/v3/locations` } }));
		const { error, output } = await listLocations();
		expect(output).toHaveLength(0);
		expect(error?.message).toContain(`another address (${elsewhere.url})`);
		expect(error?.description).toMatch(/token stays with/);
		expect(elsewhere.requests).toHaveLength(0);
		expect(mentionsToken(error)).toBe(false);
	});

	it('follows a redirect within the API, with the token', async () => {
		api.reset((request) =>
			request.path === '/v3/locations'
				? { status: 301, headers: { Location: '/v3/moved/locations' } }
				: { status: 200, body: collectionPage(2, 1, 50) },
		);
		const { error, output } = await listLocations();
		expect(error).toBeUndefined();
		expect(output).toHaveLength(2);
		expect(api.requests.map((r) => r.path)).toEqual(['/v3/locations', '/v3/moved/locations']);
		expect(api.requests[1].headers.authorization).toBe(`Bearer ${TOKEN}`);
	});

	it('stops a redirect loop within the API with an error', async () => {
		api.reset(() => ({ status: 302, headers: { Location: '/v3/locations' } }));
		const { error } = await listLocations();
		expect(error?.message).toMatch(/redirected GET \/locations more than the node follows/);
		expect(api.requests).toHaveLength(6);
	});

	it('does not turn a redirected PATCH into another request', async () => {
		api.reset(() => ({ status: 302, headers: { Location: '/v3/other' } }));
		const { error } = await run({
			resource: 'location',
			operation: 'updateMany',
			id: { __rl: true, mode: 'id', value: '3' },
			updateFields: { name: 'A' },
		});
		expect(error?.message).toBe(
			'The API answered PATCH /locations with a redirect (302), which the node does not follow for a PATCH. The change may have been applied: check whether it is there before sending it again.',
		);
		expect(api.requests).toHaveLength(1);
	});
});

describe('Return All', () => {
	/** A server that caps every page at `cap` records, whatever limit is asked, and gives next links. */
	const capped = (total: number, cap: number) =>
		api.reset((request) => {
			const page = Number(request.query.page);
			const body = collectionPage(total, page, cap);
			return { status: 200, body };
		});

	it('reads every record when the server caps the page size below the limit asked', async () => {
		capped(250, 100);
		const { error, output } = await listLocations({ returnAll: true });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(250);
		expect(new Set(output.map((item) => item.json.id)).size).toBe(250);
		expect(api.requests.map((r) => `${r.query.page}/${r.query.limit}`)).toEqual([
			'1/2000',
			'2/100',
			'3/100',
		]);
	});

	it('a Limit is met across capped pages', async () => {
		capped(1000, 100);
		const { output } = await listLocations({ limit: 250 });
		expect(output).toHaveLength(250);
		expect(api.requests).toHaveLength(3);
	});

	it('stops when next links cycle (A, B, A…), without duplicates', async () => {
		api.reset((request) => {
			const page = request.query.page === '2' ? 2 : 1;
			const body = collectionPage(4, page, 2);
			body.links = { ...body.links, next: `failures?page=${page === 1 ? 2 : 1}&limit=2` };
			return { status: 200, body };
		});
		const { error, output } = await listLocations({ returnAll: true });
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.id)).toEqual(['1', '2', '3', '4']);
		expect(api.requests.length).toBeLessThanOrEqual(3);
	});

	it('stops when the same page comes back under a new link', async () => {
		let calls = 0;
		api.reset(() => {
			calls++;
			const body = collectionPage(10, 1, 5);
			body.links = { ...body.links, next: `failures?page=${calls + 1}&limit=5` };
			return { status: 200, body };
		});
		const { output } = await listLocations({ returnAll: true });
		expect(output).toHaveLength(5);
		expect(api.requests).toHaveLength(2);
	});

	it('refuses a next link to another origin, with nothing output', async () => {
		api.reset(() => {
			const body = collectionPage(10, 1, 5);
			body.links = { ...body.links, next: `${elsewhere.url}/v3/failures?page=2` };
			return { status: 200, body };
		});
		const { error, output } = await listLocations({ returnAll: true });
		expect(output).toHaveLength(0);
		expect(error?.message).toMatch(/next page link points outside the API/);
		expect(elsewhere.requests).toHaveLength(0);
	});

	it('ends with an error at Max Pages instead of a silent cut', async () => {
		api.reset((request) => {
			const page = Number(request.query.page);
			const body = collectionPage(1_000_000, page, 3);
			return { status: 200, body };
		});
		const { error, output } = await listLocations({
			returnAll: true,
			requestOptions: { maxPages: 4 },
		});
		expect(output).toHaveLength(0);
		expect(error?.message).toBe('Stopped after 4 pages: the API kept offering more');
		expect(error?.description).toMatch(/12 records were read/);
		expect(api.requests).toHaveLength(4);
	});
});

describe('Return All with a base URL not in normal form', () => {
	/** [label, the base URL as typed, the API's path as the server sends it in its links] */
	const forms: Array<[string, (origin: string) => string, string]> = [
		['an upper-case scheme', (origin) => `${origin.replace('http://', 'HTTP://')}/v3`, '/v3'],
		['a dot segment', (origin) => `${origin}/api/../v3`, '/v3'],
		['an encoded space', (origin) => `${origin}/my%20api/v3`, '/my%20api/v3'],
		['a space typed as is', (origin) => `${origin}/my api/v3/`, '/my%20api/v3'],
		['lower-case hex escapes', (origin) => `${origin}/a%2fb%7ec/v3`, '/a%2Fb~c/v3'],
		['an encoded dot segment', (origin) => `${origin}/x/%2e%2E/v3`, '/v3'],
	];

	it.each(forms)('reads every page with %s', async (_label, typed, apiPath) => {
		api.reset((request) => {
			const page = Number(request.query.page);
			const body = collectionPage(5, page, 2, { type: 'location' });
			// Absolute, in the server's own form, as the live API sends them.
			if (page < 3)
				body.links = {
					...body.links,
					next: `${api.url}${apiPath}/locations?page=${page + 1}&limit=2`,
				};
			return { status: 200, body };
		});
		const { error, output } = await listLocations(
			{ returnAll: true },
			{ ...credentials, productionBaseUrl: typed(api.url) },
		);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.id)).toEqual(['1', '2', '3', '4', '5']);
		expect(api.requests.map((r) => `${r.path}?${r.query.page}`)).toEqual([
			`${apiPath}/locations?1`,
			`${apiPath}/locations?2`,
			`${apiPath}/locations?3`,
		]);
	});

	it('still refuses a next link that leaves the base path by a dot segment', async () => {
		api.reset(() => {
			const body = collectionPage(10, 1, 5);
			body.links = { ...body.links, next: `${api.url}/v3/../v4/failures?page=2` };
			return { status: 200, body };
		});
		const { error, output } = await listLocations(
			{ returnAll: true },
			{ ...credentials, productionBaseUrl: `${api.url.toUpperCase()}/v3` },
		);
		expect(output).toHaveLength(0);
		expect(error?.message).toBe(
			`The API's next page link points outside the API (${api.url}/v4/failures)`,
		);
		expect(api.requests).toHaveLength(1);
	});
});

describe('answers that are not the API envelope', () => {
	const cases: Array<[string, Reply, RegExp]> = [
		[
			'an HTML maintenance page',
			{ status: 200, headers: { 'Content-Type': 'text/html' }, raw: '<html>Maintenance</html>' },
			/HTTP 200 with Content-Type "text\/html"/,
		],
		[
			'truncated JSON',
			{ status: 200, raw: '{"data": [{"id": "1"' },
			/HTTP 200 with Content-Type "application\/json" instead of its JSON envelope/,
		],
		['an empty body', { status: 201, raw: '' }, /HTTP 201 with Content-Type "application\/json"/],
		['data: null', { status: 200, body: { data: null } }, /HTTP 200/],
		['a JSON array', { status: 200, body: [location(1)] }, /HTTP 200/],
	];

	it.each(cases)(
		'%s is an error naming the status and content type',
		async (_label, reply, message) => {
			api.reset(() => reply);
			const { error, output } = await getLocation('3');
			expect(output).toHaveLength(0);
			expect(error?.message).toMatch(message);
		},
	);

	it('on a create, an empty 201 is an error that may have written the record, not an empty success', async () => {
		api.reset(() => ({ status: 201, raw: '' }));
		const { error } = await run({
			resource: 'materialType',
			operation: 'create',
			name: 'Bolts',
			parent_id: '1',
		});
		expect(error?.message).toMatch(/HTTP 201/);
		// A 2xx it cannot read may still have written the record: the message says to check first.
		expect(error?.message).toMatch(
			/\. It may have been written: check whether it exists before sending it again\.$/,
		);
		expect(error?.context?.outcome).toBe('unknown');
		expect(api.requests).toHaveLength(1);
	});
});

describe('answers of another shape than the spec gives', () => {
	it('a single-record operation answered with a list is an error, with nothing output', async () => {
		api.reset(() => ({ status: 200, body: { data: [location(3), location(4)] } }));
		const { error, output } = await getLocation('3');
		expect(output).toHaveLength(0);
		expect(error?.message).toBe(
			'The API answered GET /locations/3 with a list of records, where the spec gives one record',
		);
		expect(error?.description).toMatch(/points at the Maintenance Management API, version 3/);
	});

	it('a list operation answered with one record is an error, with nothing output', async () => {
		api.reset(() => ({ status: 200, body: { data: location(1) } }));
		const { error, output } = await listLocations({ returnAll: true });
		expect(output).toHaveLength(0);
		expect(error?.message).toBe(
			'The API answered GET /locations with one record, where the spec gives a list of records',
		);
	});

	it('a later page answered with one record is an error too', async () => {
		api.reset((request) =>
			request.query.page === '2'
				? { status: 200, body: { data: location(3) } }
				: { status: 200, body: collectionPage(4, 1, 2, { type: 'location', path: 'locations' }) },
		);
		const { error, output } = await listLocations({ limit: 4 });
		expect(output).toHaveLength(0);
		expect(error?.message).toMatch(/with one record, where the spec gives a list of records$/);
	});

	it('a null element of a list is no record, and no TypeError', async () => {
		api.reset(() => ({ status: 200, body: { data: [location(1), null, location(2)] } }));
		const { error, output } = await listLocations();
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.id)).toEqual(['1', '2']);
	});
});

describe('an attribute named __proto__', () => {
	const hostile = (id: number) =>
		JSON.parse(
			`{"id":"${id}","type":"location","attributes":{"name":"L${id}","__proto__":{"polluted":"yes","name":"inherited"}}}`,
		) as unknown;

	it.each([true, false])(
		'never becomes the prototype of an output item (Simplify %s)',
		async (simplify) => {
			api.reset((request) =>
				request.path === '/v3/locations/1'
					? { status: 200, body: { data: hostile(1) } }
					: { status: 200, body: { data: [hostile(2)] } },
			);
			const get = await run({
				resource: 'location',
				operation: 'get',
				id: { __rl: true, mode: 'id', value: '1' },
				simplify,
			});
			const list = await listLocations({ simplify });
			for (const { output, error } of [get, list]) {
				expect(error).toBeUndefined();
				expect(output).toHaveLength(1);
				const json = output[0].json;
				const record = (simplify ? json : json.attributes) as Record<string, unknown>;
				expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
				expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
				expect(record.polluted).toBeUndefined();
				expect(record.name).toMatch(/^L\d$/);
				expect(Object.keys(record)).not.toContain('__proto__');
			}
			expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		},
	);
});

describe('faults and retries', () => {
	it('retries a read after a dropped connection, in n8n-core', async () => {
		api.reset((_r, index) =>
			index < 2 ? 'drop' : { status: 200, body: collectionPage(1, 1, 50) },
		);
		const { error, output } = await listLocations();
		expect(error).toBeUndefined();
		expect(output).toHaveLength(1);
		expect(api.requests).toHaveLength(3);
	});

	it('retries a read after a refused connection, then reports it', async () => {
		const { error } = await listLocations(
			{},
			{ ...credentials, productionBaseUrl: 'http://127.0.0.1:9/v3' },
		);
		expect(error?.message).toMatch(/^Could not reach the API/);
		expect(error?.description).toMatch(/after 5 attempt\(s\)/);
		expect(sleepMock).toHaveBeenCalledTimes(4);
	});

	it.each([502, 503, 504])('retries a read on %i', async (status) => {
		api.reset((_r, index) =>
			index === 0 ? { status, body: {} } : { status: 200, body: collectionPage(1, 1, 50) },
		);
		const { error } = await listLocations();
		expect(error).toBeUndefined();
		expect(api.requests).toHaveLength(2);
	});

	it('retries a 500 once, then names the likely cause', async () => {
		api.reset(() => apiError(500, { message: 'An error has occurred during the request.' }));
		const { error } = await listLocations({
			options: { queryParameters: { parameters: [{ name: 's_unknown', value: '1' }] } },
		});
		expect(api.requests).toHaveLength(2);
		expect(error?.httpCode).toBe('500');
		expect(error?.description).toMatch(/filter/);
	});

	it('bounds Max Attempts whatever an expression gives', async () => {
		api.reset(() => ({ status: 429, headers: { 'Retry-After': '1' }, body: {} }));
		const { error } = await listLocations({ requestOptions: { maxAttempts: expr(1e9) } });
		expect(error?.httpCode).toBe('429');
		expect(api.requests).toHaveLength(10);
	});

	it('Max Total Wait bounds the whole execution, across items', async () => {
		api.reset((_r, index) =>
			index % 2 === 0
				? { status: 429, headers: { 'Retry-After': '30' }, body: {} }
				: { status: 200, body: collectionPage(1, 1, 50) },
		);
		const { output, error } = await runNode({
			node,
			credentials,
			items: [{}, {}, {}],
			parameters: {
				resource: 'location',
				operation: 'getAll',
				requestOptions: { maxWaitSeconds: 60 },
			},
		});
		const waited = sleepMock.mock.calls.reduce((sum, [ms]) => sum + Number(ms), 0);
		expect(waited).toBeLessThanOrEqual(60_000);
		expect(output.length).toBe(0);
		expect(error?.httpCode).toBe('429');
	});

	it('sends a User-Agent naming the package and its version', async () => {
		api.reset(() => ({ status: 200, body: collectionPage(1, 1, 50) }));
		await listLocations();
		expect(api.requests[0].headers['user-agent']).toMatch(
			/^n8n-nodes-maintenance-management\/\d+\.\d+\.\d+/,
		);
	});

	it('abandons a request that hangs past the Timeout', async () => {
		api.reset(() => 'hang');
		const { error } = await listLocations({
			requestOptions: { timeoutSeconds: 0.2, maxAttempts: 1 },
		});
		expect(error?.message).toBe(
			'No complete answer from the API within the Timeout (0.2 s). Raise the Timeout under Request Options, or try again later.',
		);
	});

	it('tries a read again once it passed the Timeout', async () => {
		api.reset((_request, index) => ({
			status: 200,
			body: { data: location(1) },
			...(index === 0 ? { trickleMs: 100 } : {}),
		}));
		const { error, output } = await run({
			resource: 'location',
			operation: 'get',
			id: { __rl: true, mode: 'id', value: '1' },
			// Time enough for an answer on loopback however busy the machine; the trickle takes seconds.
			requestOptions: { timeoutSeconds: 2, maxAttempts: 2 },
		});
		expect(error).toBeUndefined();
		expect(output.map(({ json }) => json.id)).toEqual(['1']);
		expect(api.requests).toHaveLength(2);
	});

	it('ends a read whose answer trickles in past the Timeout: it limits the whole request, not each wait for a byte', async () => {
		// A byte every 0.1 s, far below the Timeout; the whole answer takes seconds, and then ends.
		api.reset(() => ({ status: 200, body: { data: location(1) }, trickleMs: 100 }));
		const { error, output } = await run({
			resource: 'location',
			operation: 'get',
			id: { __rl: true, mode: 'id', value: '1' },
			// From an expression, any number of seconds: the limit is kept in whole milliseconds.
			requestOptions: { timeoutSeconds: '={{ 0.4444 }}', maxAttempts: 1 },
		});
		expect(output).toEqual([]);
		expect(error?.message).toBe(
			'No complete answer from the API within the Timeout (0.444 s). Raise the Timeout under Request Options, or try again later.',
		);
	});
});

describe('bulk update', () => {
	it('an item whose location the answer omits becomes its error item, not a success', async () => {
		api.reset((request) => {
			const sent = (request.body as { locations: Array<{ id: number }> }).locations;
			return {
				status: 200,
				body: { data: sent.filter((l) => l.id !== 2).map((l) => location(l.id)) },
			};
		});
		const { output, error } = await runNode({
			node,
			credentials,
			continueOnFail: true,
			items: [{ id: 1 }, { id: 2 }, { id: 3 }],
			parameters: {
				resource: 'location',
				operation: 'updateMany',
				id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
				updateFields: { name: 'Renamed' },
			},
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.id ?? item.json.error)).toEqual([
			'1',
			notConfirmed(1, 'PATCH').message,
			'3',
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('recognising a dropped connection in what n8n gives', () => {
	const node = {
		id: '1',
		name: 'Node',
		type: 'x',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as never;

	it('n8n 2.x: the network error is the cause of the NodeApiError', () => {
		const network = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const wrapped = new NodeApiError(
			node,
			Object.assign(new Error('Request failed'), { cause: network }) as never,
		);
		expect(wrapped.cause).toBeDefined();
		expect(isConnectionFault(wrapped)).toBe(true);
	});

	it("is an Error to the package's own checks, as n8n's errors are in n8n", () => {
		// n8n-workflow comes from another realm in this suite (test/setup/environment.js).
		const fromN8n = new NodeOperationError(node, 'socket hang up');
		expect(fromN8n instanceof Error).toBe(true);
		expect(new Error('made here') instanceof NodeOperationError).toBe(false);
	});

	it('n8n 1.x and early 2.x: the cause is gone, the network code is the httpCode', () => {
		// As those versions leave it: no cause and no errorResponse, only the code found in the error.
		const wrapped = Object.assign(new NodeApiError(node, { code: 'ECONNRESET', message: 'x' }), {
			cause: undefined,
			errorResponse: undefined,
		});
		expect(wrapped.httpCode).toBe('ECONNRESET');
		expect(isConnectionFault(wrapped)).toBe(true);
	});

	it("a plain object's fields kept as the errorResponse", () => {
		const wrapped = new NodeApiError(node, {
			code: 'ECONNREFUSED',
			message: 'connect ECONNREFUSED',
		});
		expect(isConnectionFault(wrapped)).toBe(true);
	});

	it.each([
		['EHOSTUNREACH', false],
		['ENETUNREACH', false],
		['ETIMEDOUT', false],
		['ECONNRESET', false],
		// Linux also refuses an open connection (an ICMP port unreachable taken as a soft error).
		['ECONNREFUSED', false],
		['ENOTFOUND', true],
		['EAI_AGAIN', true],
	])(
		'n8n 1.x and early 2.x, where the system call is lost: %s alone says never connected: %s',
		(code, unsent) => {
			const wrapped = Object.assign(new NodeApiError(node, { code, message: 'x' }), {
				cause: undefined,
				errorResponse: undefined,
			});
			expect(wrapped.httpCode).toBe(code);
			expect(neverConnected(wrapped)).toBe(unsent);
		},
	);

	it.each([
		['connect', 'EHOSTUNREACH', true],
		['getaddrinfo', 'ENOTFOUND', true],
		['read', 'EHOSTUNREACH', false],
		['write', 'ENETUNREACH', false],
	])(
		'n8n 2.x: the cause names the system call, %s %s: never connected: %s',
		(syscall, code, unsent) => {
			const network = Object.assign(new Error(`${syscall} ${code}`), { code, syscall });
			const wrapped = new NodeApiError(
				node,
				Object.assign(new Error('Request failed'), { cause: network }) as never,
			);
			expect(neverConnected(wrapped)).toBe(unsent);
		},
	);

	it('an HTTP error answer is not a connection fault', () => {
		const wrapped = new NodeApiError(node, { httpCode: '500', message: 'Server error' });
		expect(isConnectionFault(wrapped)).toBe(false);
	});
});

describe('rate-limit headers', () => {
	const now = Date.UTC(2026, 0, 1);
	it.each([
		['Retry-After of 0', { 'retry-after': '0' }],
		['negative Retry-After', { 'retry-after': '-5' }],
		['unparseable Retry-After', { 'retry-after': 'soon' }],
		['a Retry-After date in the past', { 'retry-after': new Date(now - 5000).toUTCString() }],
		['an X-RateLimit-Reset in the past', { 'x-ratelimit-reset': String(now / 1000 - 10) }],
	])('%s falls back to back-off', (_label, headers) => {
		expect(rateLimitWaitMs(headers, now)).toBeUndefined();
	});

	it('reads X-RateLimit-Reset as a UNIX time or as seconds from now', () => {
		expect(rateLimitWaitMs({ 'x-ratelimit-reset': String(now / 1000 + 7) }, now)).toBe(7000);
		expect(rateLimitWaitMs({ 'x-ratelimit-reset': '7' }, now)).toBe(7000);
	});

	/** Values no API should send: past any date, negative, fractional, not numbers at all. */
	const hostileValues = [
		'10000000000000',
		'99999999999999999999999999',
		'9'.repeat(400),
		'-10000000000000',
		'0.5',
		'1.5e3',
		'abc',
		'NaN',
		'Infinity',
		'Fri, 31 Dec 275760 23:59:59 GMT',
	];

	it.each(hostileValues)(
		"an X-RateLimit-Reset of %j with none left ends in the node's own message",
		async (value) => {
			api.reset(() => ({
				status: 200,
				headers: { 'X-Ratelimit-Remaining': '0', 'X-RateLimit-Reset': value },
				body: { data: location(1) },
			}));
			const { error, output } = await runNode({
				node,
				credentials,
				items: [{}, {}],
				parameters: {
					resource: 'location',
					operation: 'get',
					id: { __rl: true, mode: 'id', value: '1' },
				},
			});
			if (error) {
				expect(error.message).toMatch(
					/^Not sent: the API's rate limit allows no request for another/,
				);
				expect(error.description).toMatch(
					/was not sent: the API's last answer said its limit is spent until \d{4}-/,
				);
				expect(api.requests).toHaveLength(1);
			} else expect(output).toHaveLength(2);
		},
	);

	it.each(hostileValues)(
		"a 429 with Retry-After and X-RateLimit-Reset of %j ends in the node's own message",
		async (value) => {
			api.reset(() => ({
				status: 429,
				headers: { 'Retry-After': value, 'X-RateLimit-Reset': value },
				body: {},
			}));
			const { error } = await listLocations({ requestOptions: { maxAttempts: 3 } });
			expect(error?.message).toMatch(
				/^The rate limit was still exceeded \(429\) after [1-3] attempt\(s\)/,
			);
			expect(error?.message).not.toMatch(/Infinity|NaN|Invalid/);
			expect(api.requests.length).toBeLessThanOrEqual(3);
		},
	);

	it('waits out a negative Retry-After with back-off, not a burst', async () => {
		api.reset((_r, index) =>
			index === 0
				? { status: 429, headers: { 'Retry-After': '-5' }, body: {} }
				: { status: 200, body: collectionPage(1, 1, 50) },
		);
		await listLocations();
		expect(Number(sleepMock.mock.calls[0][0])).toBeGreaterThanOrEqual(500);
	});
});

describe('input refused before sending', () => {
	it.each(['.', '..', ' .. ', '   '])('Location Get refuses the ID %j', async (id) => {
		api.reset(() => ({ status: 200, body: { data: location(1) } }));
		const { error } = await getLocation(expr(id));
		expect(error?.message).toMatch(/"Location" (must be a whole-number ID|is empty)/);
		expect(api.requests).toHaveLength(0);
	});

	it('Supplier Update and Client Sync Contacts refuse ".." as their ID', async () => {
		api.reset(() => ({ status: 200, body: { data: location(1) } }));
		const supplier = await run({
			resource: 'supplier',
			operation: 'update',
			supplier: { __rl: true, mode: 'id', value: expr('..') },
			updateFields: { city: 'Porto' },
		});
		const client = await run({
			resource: 'client',
			operation: 'syncContacts',
			client: expr('..'),
			contact_ids: '1',
		});
		expect(supplier.error?.message).toMatch(/must be a whole-number ID, such as 42; it is "\.\."/);
		expect(client.error?.message).toMatch(/must be a whole-number ID, such as 42; it is "\.\."/);
		expect(api.requests).toHaveLength(0);
	});

	it.each(['0x10', '0b101', '1e3', '12.0', '-3'])('an ID of %j is not coerced', async (value) => {
		const { error } = await run({
			resource: 'stockTransaction',
			operation: 'transfer',
			warehouse_from_id: expr(value),
			warehouse_to_id: '2',
			material_id: '7',
			quantity: 1,
		});
		expect(error?.message).toMatch(/"warehouse_from_id" \(From Warehouse ID\)/);
		expect(api.requests).toHaveLength(0);
	});

	it.each(['1e309', '-1e309'])(
		'a number that overflows (%s) is refused, not sent as null',
		async (value) => {
			const { error } = await run({
				resource: 'location',
				operation: 'updateMany',
				id: { __rl: true, mode: 'id', value: '3' },
				updateFields: { area: expr(value) },
			});
			expect(error?.message).toMatch(/"area" \(Area\) must be a finite number/);
			expect(api.requests).toHaveLength(0);
		},
	);
});

describe('the token never shows', () => {
	it.each([
		[404, 'GET'],
		[500, 'GET'],
		[503, 'GET'],
		[403, 'GET'],
		[500, 'PATCH'],
	])(
		'is redacted from the path of a %d after a redirect within the API (%s)',
		async (status, method) => {
			api.reset((request) =>
				request.path === '/v3/locations/3' || request.path === '/v3/locations'
					? { status: 307, headers: { Location: `/v3/locations/${TOKEN}` } }
					: apiError(status, { message: 'No' }),
			);
			const { error } =
				method === 'GET'
					? await getLocation('3')
					: await run({
							resource: 'location',
							operation: 'updateMany',
							id: { __rl: true, mode: 'id', value: '3' },
							updateFields: { name: 'Hall' },
						});
			expect(api.requests.at(-1)?.path).toBe(`/v3/locations/${TOKEN}`);
			expect(error?.httpCode).toBe(String(status));
			expect(error?.message).toContain('***');
			expect(mentionsToken([error?.message, error?.description])).toBe(false);
		},
	);

	it('is redacted when the API echoes it in an error', async () => {
		api.reset(() =>
			apiError(401, { message: `Token Bearer ${TOKEN} is invalid`, more_info: null }),
		);
		const { error } = await listLocations();
		expect(error?.httpCode).toBe('401');
		expect(error?.message).toMatch(/^The access token was rejected \(401\)/);
		expect(error?.description).toContain('Token Bearer *** is invalid');
		expect(mentionsToken(error?.message)).toBe(false);
		expect(mentionsToken(error?.description)).toBe(false);
		expect(mentionsToken((error as { errorResponse?: unknown })?.errorResponse)).toBe(false);
	});

	it.each([
		['a line break', `${TOKEN.slice(0, 12)}\n${TOKEN.slice(12)}`],
		['a Windows line break', `${TOKEN.slice(0, 12)}\r\n${TOKEN.slice(12)}`],
		['a space', `${TOKEN.slice(0, 12)} ${TOKEN.slice(12)}`],
		['a tab', `${TOKEN.slice(0, 12)}\t${TOKEN.slice(12)}`],
	])(
		'a token with %s inside is refused before sending, without showing it',
		async (_label, token) => {
			const { error, output } = await listLocations({}, { ...credentials, accessToken: token });
			expect(output).toHaveLength(0);
			expect(error).toMatchObject(tokenNotOneText());
			expect(api.requests).toHaveLength(0);
			const shown = JSON.stringify([error?.message, error?.description]);
			expect(shown).not.toContain(TOKEN.slice(0, 12));
			expect(shown).not.toContain(TOKEN.slice(12));
		},
	);

	it('a token with spaces and line breaks around it is sent trimmed', async () => {
		const { error } = await listLocations({}, { ...credentials, accessToken: `  ${TOKEN}\r\n` });
		expect(error).toBeUndefined();
		expect(api.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
	});

	it('is redacted in every form the API echoes it: URL-encoded, JSON-escaped, any case', async () => {
		const token = 'tok+Ab/Cd=Ef"9x\\7c1e9d2a';
		const echoes = [
			token,
			encodeURIComponent(token),
			encodeURIComponent(token).toLowerCase(),
			token.toUpperCase(),
		];
		api.reset(() =>
			apiError(401, { message: `Tokens ${echoes.join(' ')} are invalid`, more_info: null }),
		);
		const { error } = await listLocations({}, { ...credentials, accessToken: token });
		expect(error?.description).toContain('Tokens *** *** *** *** are invalid');
		const shown = JSON.stringify([
			error?.message,
			error?.description,
			(error as { errorResponse?: unknown })?.errorResponse,
		]).toLowerCase();
		expect(shown).not.toContain('ab/cd');
		expect(shown).not.toContain('ab%2fcd');
	});

	it.each([
		['user info', 'https://user:secret@api.example.com/v3', /user name or password/],
		['a query', 'https://api.example.com/v3?x=1', /query/],
		['a fragment', 'https://api.example.com/v3#top', /fragment/],
		['plain http to a remote host', 'http://api.example.com/v3', /https/],
		['no /v3', 'https://api.example.com/api', /\/v3/],
	])('a base URL with %s is refused before sending', async (_label, baseUrl, message) => {
		const { error } = await listLocations({}, { ...credentials, productionBaseUrl: baseUrl });
		expect(error?.message).toMatch(message);
		expect(error?.message).not.toContain('secret');
		expect(api.requests).toHaveLength(0);
	});
});

/** Every output mode of both node versions; Selected Fields names `fields`. */
const outputModes = (fields: string): Array<[string, number, Record<string, unknown>]> => [
	['Simplify (version 1)', 1, { simplify: true }],
	['Raw (version 1)', 1, { simplify: false }],
	['Simplified', 2, { output: 'simplified' }],
	['Raw', 2, { output: 'raw' }],
	['Selected Fields', 2, { output: 'selected', fields }],
];

/** A Get of location 1 and a Get Many of locations, in one version and output mode. */
async function getAndList(typeVersion: number, outputMode: Record<string, unknown>) {
	const results = [];
	for (const operation of [
		{ operation: 'get', id: { __rl: true, mode: 'id', value: '1' } },
		{ operation: 'getAll', include: 'client' },
	])
		results.push(
			await runNode({
				node,
				credentials,
				typeVersion,
				parameters: { resource: 'location', ...operation, ...outputMode },
			}),
		);
	return results;
}

describe('the token in a successful answer', () => {
	const base64 = (text: string) => Buffer.from(text).toString('base64');
	/** A record that echoes the request's headers, in the ways a careless API does. */
	const echoing = (id: number) => ({
		id: String(id),
		type: 'location',
		attributes: {
			name: `L${id}`,
			observation: `Authorization: Bearer ${TOKEN}`,
			echo: base64(`Bearer ${TOKEN}`),
			hex: Buffer.from(TOKEN).toString('hex').toUpperCase(),
			split: [TOKEN.slice(0, 9), TOKEN.slice(9)],
		},
		meta: { custom_fields: { note: `${TOKEN.slice(0, 20)}…` } },
		relationships: { client: { data: { type: 'client', id: '1' } } },
	});
	const included = [
		{ id: '1', type: 'client', attributes: { name: 'C', token: `Bearer ${TOKEN}` } },
	];
	/** Whether a text shows the token, its Base64 or hex, or 12 of its characters in a row. */
	const showsToken = (value: unknown) => {
		const text = JSON.stringify(value).toLowerCase();
		const forms = [TOKEN, base64(TOKEN).slice(0, 16), Buffer.from(TOKEN).toString('hex')];
		for (let start = 0; start + 12 <= TOKEN.length; start++)
			forms.push(TOKEN.slice(start, start + 12));
		return forms.some((form) => text.includes(form.toLowerCase()));
	};

	it.each(outputModes('observation, echo, hex, split, client'))(
		'is in no output item, %s, of a Get or a Get Many',
		async (_label, typeVersion, outputMode) => {
			api.reset((request) =>
				request.path === '/v3/locations/1'
					? { status: 200, body: { data: echoing(1), included } }
					: { status: 200, body: { data: [echoing(2), echoing(3)], included } },
			);
			for (const { output, error } of await getAndList(typeVersion, outputMode)) {
				expect(error).toBeUndefined();
				expect(output.length).toBeGreaterThan(0);
				expect(showsToken(output)).toBe(false);
				expect(JSON.stringify(output)).toContain('Bearer ***');
			}
		},
	);
});

describe('the token in an error, in other encodings', () => {
	it('is redacted in Base64, hex and split forms from the message, description and response', async () => {
		const forms = [
			Buffer.from(`Bearer ${TOKEN}`).toString('base64'),
			Buffer.from(TOKEN).toString('base64url'),
			Buffer.from(TOKEN).toString('hex'),
			`${TOKEN.slice(0, 11)}\n${TOKEN.slice(11)}`,
			TOKEN.slice(0, 18),
		];
		api.reset(() =>
			apiError(400, {
				message: `Refused ${forms.join(' ')}`,
				dev_message: forms.join(' '),
				properties: { [forms[0]]: [forms[2]] },
			}),
		);
		const { error } = await listLocations();
		const shown = JSON.stringify([
			error?.message,
			error?.description,
			(error as { errorResponse?: unknown })?.errorResponse,
		]);
		expect(error?.httpCode).toBe('400');
		for (const form of forms) expect(shown).not.toContain(form.replace('\n', '\\n'));
		expect(shown).not.toContain(TOKEN.slice(0, 12));
		expect(shown).not.toContain(TOKEN.slice(-12));
	});
});

describe('an answer nested deeper than the node walks', () => {
	/** JSON text of a custom field nested `depth` levels deep: written out, as no stringify reaches it. */
	const deep = (depth: number) => `${'{"level":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;
	const json = (text: string) => ({ status: 200, raw: text });
	const CUT = /\[cut: nested deeper than \d+ levels\]/;

	it.each(outputModes('name, custom_fields'))(
		'20,000 levels: the item is output, cut with a marker, %s',
		async (_l, typeVersion, outputMode) => {
			const record = (id: number) =>
				`{"id":"${id}","type":"location","attributes":{"name":"L${id}"},"meta":{"custom_fields":{"tree":${deep(20_000)}}}}`;
			api.reset((request) =>
				request.path === '/v3/locations/1'
					? json(`{"data":${record(1)}}`)
					: json(`{"data":[${record(2)}]}`),
			);
			for (const { output, error } of await getAndList(typeVersion, outputMode)) {
				expect(error).toBeUndefined();
				expect(output).toHaveLength(1);
				const text = JSON.stringify(output[0].json);
				expect(text).toMatch(CUT);
				expect(text).toContain('{"level":{"level":');
			}
		},
	);

	it('20,000 levels in an error answer: the error names the status, no stack overflow', async () => {
		api.reset(() => ({
			status: 400,
			raw: `{"status":"error","error":{"http_code":400,"message":"Refused","properties":{"tree":[${deep(20_000)}]}}}`,
		}));
		const { error } = await listLocations();
		expect(error?.httpCode).toBe('400');
		expect(error?.message).not.toMatch(/call stack/i);
		expect(error?.message).toContain('Refused');
	});
});
