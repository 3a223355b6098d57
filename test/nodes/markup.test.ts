import { sleep } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { expr, runNode, type Credentials, type RunResult } from './helpers/harness';
import { LINK, markup400 } from '../helpers/apiText';
import { MATERIAL_FROM_ROW } from '../helpers/rows';
import { apiError, ScriptedServer } from '../helpers/scriptedServer';

/**
 * n8n shows an error's message (in its toast) and description (in the error panel) as HTML that keeps
 * links, `<b>`, `<details>` and `<mark>`. Text from outside the node (the API's words, record IDs, paths,
 * item data) must reach them as plain text, whatever the node does with it; the node's own line breaks
 * (`<br>`) are its only markup. Through n8n-core's real request path.
 */

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));
void sleep;

const api = new ScriptedServer();
const node = new MaintenanceManagement();
let credentials: Credentials;

beforeAll(async () => {
	await api.start();
	credentials = {
		accessToken: 'tok_markup_3f8a1c5e9b7d2046',
		environment: 'production',
		productionBaseUrl: `${api.url}/v3`,
	};
});
afterAll(async () => await api.stop());

const run = (parameters: Record<string, unknown>, options: { items?: object[] } = {}) =>
	runNode({ node, credentials, parameters, items: options.items as never });

/** Any element but the node's own line break. */
const ELEMENT = /<(?!br>)[a-z/!?]/i;
/** What n8n renders as HTML: the error's message and description. */
const rendered = (error: RunResult['error']) => `${error?.message}\n${error?.description ?? ''}`;

const expectPlain = (error: RunResult['error'], ...shown: string[]) => {
	expect(error).toBeDefined();
	expect(rendered(error)).not.toMatch(ELEMENT);
	for (const text of shown) expect(rendered(error)).toContain(text);
};

const getLocation = (id: unknown) =>
	run({ resource: 'location', operation: 'get', id: { __rl: true, mode: 'id', value: id } });

describe('text from outside the node is never markup in an error', () => {
	it("the API's message and fields of a 400 are plain text in the message and the description", async () => {
		api.reset(markup400);
		const { error } = await getLocation('7');
		expectPlain(
			error,
			'&lt;a href=https://evil.example/relogin&gt;',
			'&lt;details open&gt;',
			'&lt;mark&gt;code&lt;/mark&gt;',
			'&lt;b&gt;taken&lt;/b&gt;',
		);
	});

	it.each([
		[404, 'Location "&lt;a href=https://evil.example&gt;x&lt;/a&gt;" was not found'],
		[500, 'The service failed on GET /locations/%3Ca%20href'],
		[418, 'The API answered 418 to GET /locations/%3Ca%20href'],
	])(
		'a %d after a redirect to a path holding a link names that path and quotes the API as plain text',
		async (status, shown) => {
			const hostile = `/v3/locations/${encodeURIComponent('<a href=https://evil.example>x</a>')}`;
			api.reset((request) =>
				request.path === '/v3/locations/7'
					? { status: 307, headers: { Location: hostile } }
					: apiError(status, { message: LINK }),
			);
			const { error } = await getLocation('7');
			expectPlain(error, shown);
		},
	);

	it('a redirect elsewhere and its Location are named as plain text', async () => {
		api.reset(() => ({
			status: 302,
			headers: { Location: 'https://evil.example/<b>x</b>' },
		}));
		const { error } = await getLocation('7');
		expectPlain(error, 'https://evil.example');
	});

	it("a next-page link's path holding markup is named as plain text", async () => {
		api.reset(() => ({
			status: 200,
			body: {
				data: [{ id: '1', type: 'location', attributes: {} }],
				links: { next: 'https://evil.example/<b>page</b>' },
			},
		}));
		const { error } = await run({ resource: 'location', operation: 'getAll', returnAll: true });
		expectPlain(error, 'https://evil.example');
	});

	it('a Content-Type holding markup is named as plain text', async () => {
		api.reset(() => ({
			status: 200,
			headers: { 'Content-Type': `text/html; x=${LINK}` },
			raw: '<html></html>',
		}));
		const { error } = await getLocation('7');
		expectPlain(error, '&lt;a href=https://evil.example/relogin&gt;');
	});

	it('the IDs a stopped bulk run wrote, as the API returned them, are plain text', async () => {
		const hostileId = '<b>9</b><a href=https://evil.example>x</a>';
		api.reset((_request, index) =>
			index === 0
				? {
						status: 201,
						body: { data: { id: hostileId, type: 'material', attributes: { code: 'A' } } },
					}
				: apiError(500, { message: LINK }),
		);
		const { error } = await run(MATERIAL_FROM_ROW, {
			items: [
				{ name: 'a', code: 'A' },
				{ name: 'b', code: 'B' },
			],
		});
		expect(error?.description).toContain('IDs written: ');
		expectPlain(error, '&lt;b&gt;9&lt;/b&gt;&lt;a href=https://evil.example&gt;');
	});

	it("a query parameter's name from item data is named as plain text", async () => {
		api.reset(() => ({ status: 200, body: { data: [] } }));
		const { error, requests } = await run(
			{
				resource: 'location',
				operation: 'getAll',
				options: {
					queryParameters: {
						parameters: [{ name: '={{ $json.name }}', value: '={{ $json.value }}' }],
					},
				},
			},
			{ items: [{ name: LINK, value: '' }] },
		);
		expect(requests).toHaveLength(0);
		expectPlain(error, '&lt;a href=https://evil.example/relogin&gt;');
	});
});

describe('an ID in a path is checked wherever it comes from', () => {
	it('typed in By ID, the node refuses it, naming the field, as plain text', async () => {
		const { error } = await getLocation(LINK);
		expect(api.requests).toHaveLength(0);
		expect(error?.message).toMatch(/^"Location" must be a whole-number ID, such as 42; it is "/);
		expectPlain(error, '&lt;a href=https://evil.example/relogin&gt;');
	});

	it('typed in a plain ID field, it is refused, naming the field', async () => {
		api.reset(() => ({ status: 200, body: { data: [] } }));
		const { error } = await run({
			resource: 'client',
			operation: 'syncContacts',
			client: LINK,
			contact_ids: '1',
		});
		expect(api.requests).toHaveLength(0);
		expect(error?.message).toMatch(/^"Client ID" must be a whole-number ID, such as 42; it is "/);
		expectPlain(error, '&lt;a href=https://evil.example/relogin&gt;');
	});

	it.each([
		['from an expression', expr(LINK)],
		['from item data', '={{ $json.location }}'],
		['filled by an AI model', "={{ $fromAI('Location_ID', '', 'string') }}"],
	])('an ID %s that is not a whole number is refused, naming the field', async (_how, value) => {
		api.reset(() => ({ status: 200, body: { data: { id: '1', type: 'location' } } }));
		const { error } = await run(
			{ resource: 'location', operation: 'get', id: { __rl: true, mode: 'id', value } },
			{ items: [{ location: LINK, query: { Location_ID: LINK } }] },
		);
		expect(api.requests).toHaveLength(0);
		expect(error?.message).toMatch(/^"Location" must be a whole-number ID, such as 42; it is "/);
		expectPlain(error, '&lt;a href=https://evil.example/relogin&gt;');
	});

	it.each([
		['a number', 42, '/v3/locations/42'],
		['digits with spaces around', ' 42 ', '/v3/locations/42'],
	])('an ID given as %s is sent', async (_how, value, path) => {
		api.reset(() => ({ status: 200, body: { data: { id: '42', type: 'location' } } }));
		const { error } = await getLocation(expr(value));
		expect(error).toBeUndefined();
		expect(api.requests.map((request) => request.path)).toEqual([path]);
	});

	it.each([
		['a negative number', -3],
		['a fraction', 4.5],
		['a number past the safe integers', 2 ** 60],
		['hex', '0x10'],
		['an exponent', '1e3'],
		['a slash', '4/5'],
	])('an ID given as %s is refused before sending', async (_how, value) => {
		api.reset(() => ({ status: 200, body: { data: { id: '1', type: 'location' } } }));
		const { error } = await getLocation(expr(value));
		expect(api.requests).toHaveLength(0);
		expect(error?.message).toMatch(/^"Location" must be a whole-number ID/);
	});
});
