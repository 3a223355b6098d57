import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { join } from 'node:path';

import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	INodeCredentialTestResult,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import {
	testAnswer,
	tokenMissing,
	tokenNotOneText,
	unusableBaseUrl,
} from '../../nodes/shared/errors/messages';
import { ScriptedServer } from '../helpers/scriptedServer';

/**
 * The credential's Test as n8n runs it: the function the node's credential entry names in `testedBy`,
 * from the node's `methods.credentialTest`, called with n8n-core's own CredentialTestContext, whose
 * request helper is n8n's. Against servers on loopback that record every request: a base URL the node
 * refuses reaches none of them, and the token never leaves by plain http for a host the node does not
 * allow it for. (In n8n itself, from the credential's modal: test/e2e/n8n.e2e.test.ts.)
 */
const TOKEN = 'tok_credential_test_4b1e9c';
const api = new ScriptedServer();
const elsewhere = new ScriptedServer();

/**
 * A name that is not one the node lets through on plain http (localhost, 127.x.x.x, [::1]) but that
 * resolves to loopback here, so the server on loopback receives whatever is sent to it.
 */
const LOOPBACK_ALIAS = 'api.loopback-alias.test';
const { lookup } = dns;

beforeAll(async () => {
	await api.start();
	await elsewhere.start();
	dns.lookup = ((hostname: string, options: unknown, callback?: unknown) =>
		hostname === LOOPBACK_ALIAS
			? (lookup as LookupFunction)('127.0.0.1', options as dns.LookupOptions, callback as never)
			: (lookup as LookupFunction)(
					hostname,
					options as dns.LookupOptions,
					callback as never,
				)) as typeof dns.lookup;
});
afterAll(async () => {
	dns.lookup = lookup;
	await api.stop();
	await elsewhere.stop();
});

const node = new MaintenanceManagement();
const entry = node.description.credentials?.find(({ name }) => name === 'maintenanceManagementApi');

/** Runs the Test n8n picks for the credential, as n8n's credential tester calls it. */
async function runTest(
	data: ICredentialDataDecryptedObject = {},
): Promise<INodeCredentialTestResult> {
	const testedBy = entry?.testedBy;
	if (typeof testedBy !== 'string') throw new Error('The credential entry names no test');
	const test = (node.methods.credentialTest as Record<string, ICredentialTestFunction>)[testedBy];
	const context = new CredentialTestContext({} as IWorkflowExecuteAdditionalData);
	return await test.call(context, {
		id: 'credential',
		name: 'credential',
		type: 'maintenanceManagementApi',
		data: {
			accessToken: TOKEN,
			environment: 'production',
			productionBaseUrl: `${api.url}/v3`,
			...data,
		},
	});
}

const failed = (message: string) => ({ status: 'Error', message });
const refused = ({ message, description }: { message: string; description: string }) =>
	failed(`${message}. ${description}`);
const port = () => new URL(api.url).port;

beforeEach(() => {
	api.reset(() => ({ status: 200, body: { data: [] } }));
	elsewhere.reset(() => ({ status: 200, body: { data: [] } }));
	api.requests.length = 0;
	elsewhere.requests.length = 0;
});

describe("the credential's Test", () => {
	it('is the function the node names for its credential, the credential having no request of its own', () => {
		expect(entry?.testedBy).toBe('testApiCredential');
		expect(Object.keys(node.methods.credentialTest)).toEqual(['testApiCredential']);
	});

	it('passes against the API, reading one location with the token', async () => {
		api.reset(() => ({
			status: 200,
			body: { data: [{ id: '1', type: 'location', attributes: {} }], meta: {}, links: {} },
		}));
		expect(await runTest()).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0]).toMatchObject({
			method: 'GET',
			path: '/v3/locations',
			query: { page: '1', limit: '1' },
		});
		expect(api.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
	});

	it('reads the base URL of the chosen environment, trimmed, with the token trimmed', async () => {
		expect(
			await runTest({
				accessToken: `  ${TOKEN}\n`,
				environment: 'sandbox',
				productionBaseUrl: 'https://unused.example/v3',
				sandboxBaseUrl: ` ${api.url}/sandbox/v3/ `,
			}),
		).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(api.requests.map(({ path, headers }) => [path, headers.authorization])).toEqual([
			['/sandbox/v3/locations', `Bearer ${TOKEN}`],
		]);
	});
});

describe("the credential's Test refuses before sending what the node refuses, in the node's words", () => {
	const production = (problem: string) => refused(unusableBaseUrl('Production Base URL', problem));

	it.each([
		[
			'plain http to a host other than loopback',
			() => `http://${LOOPBACK_ALIAS}:${port()}/v3`,
			'must start with https:// (plain http:// is allowed only for localhost)',
		],
		['no /v3', () => api.url, 'must end with /v3'],
		['a query', () => `${api.url}/v3?x=1`, 'must not contain a query (?…)'],
		['a query before /v3', () => `${api.url}/?x=1/v3`, 'must not contain a query (?…)'],
		['a fragment', () => `${api.url}/v3#top`, 'must not contain a fragment (#…)'],
		[
			'a user name and password',
			() => `http://user:pass@127.0.0.1:${port()}/v3`,
			'must not contain a user name or password',
		],
		['nothing', () => '', 'is empty'],
	])('a base URL with %s: nothing reaches the server', async (_label, baseUrl, problem) => {
		const result = await runTest({ productionBaseUrl: baseUrl() });
		expect(result).toEqual(production(problem));
		expect(api.requests).toEqual([]);
		expect(JSON.stringify(result)).not.toContain(TOKEN);
	});

	it('the loopback alias reaches the server when asked directly, so the refusal above is what kept the token', async () => {
		const context = new CredentialTestContext({} as IWorkflowExecuteAdditionalData);
		await context.helpers.request({ uri: `http://${LOOPBACK_ALIAS}:${port()}/probe` });
		expect(api.requests.map(({ path, headers }) => [path, headers.authorization])).toEqual([
			['/probe', undefined],
		]);
	});

	it.each([
		['a missing token', '  ', tokenMissing()],
		['a token with a line break in it', 'tok_a\ntok_b', tokenNotOneText()],
	])('%s: nothing reaches the server', async (_label, accessToken, words) => {
		expect(await runTest({ accessToken })).toEqual(refused(words));
		expect(api.requests).toEqual([]);
	});
});

describe("the credential's Test judges the answer", () => {
	it.each([
		['an HTML page', { status: 200, raw: '<!doctype html><title>Welcome</title>' }, 'text/html'],
		['JSON that is no envelope', { status: 200, body: { ok: true } }, 'application/json'],
		[
			'one record, not a collection',
			{ status: 200, body: { data: { id: '1' } } },
			'application/json',
		],
	])('fails on a 200 with %s', async (_label, reply, type) => {
		api.reset(() =>
			'raw' in reply ? { ...reply, headers: { 'Content-Type': `${type}; charset=utf-8` } } : reply,
		);
		expect(await runTest()).toEqual(failed(testAnswer.notTheApi(200, type)));
		expect(api.requests).toHaveLength(1);
	});

	it.each([
		[401, testAnswer.refused()],
		[403, testAnswer.forbidden()],
		[404, testAnswer.notFound()],
		[500, testAnswer.otherStatus(500)],
	])('explains a %i', async (status, message) => {
		api.reset(() => ({ status, body: { status: 'error', error: { http_code: status } } }));
		const result = await runTest();
		expect(result).toEqual(failed(message));
		expect(JSON.stringify(result)).not.toContain(TOKEN);
	});

	it("gives for a 404 the words README.md's Troubleshooting quotes for it", () => {
		const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
		const troubleshooting = readme.slice(readme.indexOf('## Troubleshooting'));
		const quoted = [...troubleshooting.matchAll(/^\| "([^"]+)" on Test\b/gm)].map(
			([, words]) => words,
		);
		expect(quoted).toEqual(['Not found (HTTP 404) at this base URL']);
		expect(testAnswer.notFound().startsWith(quoted[0])).toBe(true);
	});

	it.each([301, 302, 303, 307, 308])(
		'follows no redirect to another origin (%i): the other origin receives nothing',
		async (status) => {
			api.reset(() => ({ status, headers: { Location: `${elsewhere.url}/signin` }, body: {} }));
			expect(await runTest()).toEqual(
				failed(
					`The base URL answered with a redirect (HTTP ${status}). Test follows no redirect, so the token was sent nowhere else. If this is the service's web address rather than its API address, enter the API's address, ending with /v3 (for example https://api.example.com/v3).`,
				),
			);
			expect(elsewhere.requests).toEqual([]);
			expect(api.requests).toHaveLength(1);
		},
	);

	it('follows no redirect within its own origin either: one request', async () => {
		api.reset(() => ({ status: 302, headers: { Location: '/v3/signin' }, body: {} }));
		expect(await runTest()).toEqual(failed(testAnswer.redirect(302)));
		expect(api.requests.map(({ path }) => path)).toEqual(['/v3/locations']);
	});

	it('names the network fault when nothing answers', async () => {
		const closed = new ScriptedServer();
		await closed.start();
		const url = closed.url;
		await closed.stop();
		const result = await runTest({ productionBaseUrl: `${url}/v3` });
		expect(result).toEqual(failed(testAnswer.noAnswer('ECONNREFUSED')));
	});
});
