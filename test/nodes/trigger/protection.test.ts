import {
	basicCredentials,
	isAuthorized,
	sameSecret,
} from '../../../nodes/MaintenanceManagementTrigger/protection';
import { MaintenanceManagementTrigger } from '../../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import type { Delivery, Protection, TriggerRun } from './harness';
import { basicAuth, deliver, startedItem } from './harness';

const SECRET = 'whsec_9f8e7d6c5b4a3210fedc';
const credentials = { secret: SECRET, username: 'svc' };
const body = { event: 'FAILURE_CREATED', data: { id: '1' } };

/** A 401 that starts nothing and reveals no secret. */
function expectRefused(run: TriggerRun): void {
	expect(run.sent?.status).toBe(401);
	expect(run.sent?.body).toEqual({
		message: 'Unauthorized: the webhook secret is missing or wrong',
	});
	expect(run.result).toEqual({ noWebhookResponse: true });
	expect(run.result.workflowData).toBeUndefined();
	expect(JSON.stringify([run.sent, run.result])).not.toContain(SECRET);
}

const modes: Array<[Protection, Delivery, Delivery[]]> = [
	[
		'query',
		{ query: { token: SECRET } },
		[
			{ query: { token: 'wrong' } },
			{ query: { token: `${SECRET}x` } },
			{ query: { token: SECRET.slice(0, -1) } },
			{ query: { token: '' } },
			{ query: {} },
			{ headers: { 'X-Webhook-Secret': SECRET } },
		],
	],
	[
		'header',
		{ headers: { 'X-Webhook-Secret': SECRET } },
		[
			{ headers: { 'X-Webhook-Secret': `${SECRET}x` } },
			{ headers: { 'X-Webhook-Secret': SECRET.toUpperCase() } },
			{ headers: {} },
			{ query: { token: SECRET } },
		],
	],
	[
		'basicAuth',
		{ headers: { Authorization: basicAuth('svc', SECRET) } },
		[
			{ headers: { Authorization: basicAuth('svc', 'nope') } },
			{ headers: { Authorization: basicAuth('intruder', SECRET) } },
			{ headers: { Authorization: `Bearer ${SECRET}` } },
			{ headers: { Authorization: 'Basic !!!' } },
			{ headers: { Authorization: `Basic ${Buffer.from(SECRET).toString('base64')}` } },
			{ headers: {} },
		],
	],
];

describe.each(modes)('protection %s', (authentication, right, wrongs) => {
	it.each(['POST', 'PATCH'] as const)(
		'the right secret starts the workflow (%s)',
		async (method) => {
			const run = await deliver({ authentication, credentials }, { method, body, ...right });
			expect(startedItem(run)).toMatchObject({ event: 'FAILURE_CREATED', method, payload: body });
			expect(run.sent).toBeUndefined();
			expect(JSON.stringify(run.result)).not.toContain(SECRET);
		},
	);

	it.each(wrongs.map((wrong, index) => [index, wrong] as const))(
		'wrong or missing secret #%i gets 401 and starts nothing',
		async (_index, wrong) => {
			expectRefused(await deliver({ authentication, credentials }, { body, ...wrong }));
		},
	);

	it('checks the secret before reading the body, so strangers learn nothing about it', async () => {
		expectRefused(await deliver({ authentication, credentials }, { body: 'not an object' }));
		expectRefused(
			await deliver({ authentication, credentials, events: ['FILE_CREATED'] }, { body }),
		);
	});

	it('reads the credential, never a secret from the workflow parameters', async () => {
		const run = await deliver({ authentication, credentials }, { body, ...right });
		expect(run.credentialReads).toBe(1);
		expect(run.parametersRead).not.toContain('secret');
	});

	it('an empty secret in the credential never matches', async () => {
		const empty = { secret: '', username: '' };
		const call: Delivery =
			authentication === 'query'
				? { query: { token: '' } }
				: authentication === 'header'
					? { headers: { 'X-Webhook-Secret': '' } }
					: { headers: { Authorization: basicAuth('', '') } };
		const run = await deliver({ authentication, credentials: empty }, { body, ...call });
		expect(run.sent?.status).toBe(401);
	});

	it('a missing credential is an error that is not swallowed', async () => {
		await expect(deliver({ authentication }, { body, ...right })).rejects.toThrow(/credentials/);
	});

	it('refuses a call that presents no secret without reading the credential', async () => {
		const run = await deliver({ authentication, credentials }, { body });
		expectRefused(run);
		expect(run.credentialReads).toBe(0);
		// Nor does a missing credential change that answer: a stranger learns nothing of the setup.
		expectRefused(await deliver({ authentication }, { body }));
	});

	it('reads the credential for a call that presents a wrong secret', async () => {
		const run = await deliver({ authentication, credentials }, { body, ...wrongs[0] });
		expectRefused(run);
		expect(run.credentialReads).toBe(1);
	});
});

describe('protection details', () => {
	it('none reads no credential and lets anyone start the workflow', async () => {
		const run = await deliver({ authentication: 'none' }, { body });
		expect(startedItem(run)?.event).toBe('FAILURE_CREATED');
		expect(run.credentialReads).toBe(0);
	});

	it('uses the query parameter name that is set', async () => {
		const settings = { authentication: 'query' as const, parameterName: 'key', credentials };
		expect(startedItem(await deliver(settings, { body, query: { key: SECRET } }))?.event).toBe(
			'FAILURE_CREATED',
		);
		expect((await deliver(settings, { body, query: { token: SECRET } })).sent?.status).toBe(401);
	});

	it('uses the header name that is set, in any case', async () => {
		const settings = {
			authentication: 'header' as const,
			parameterName: 'X-Hook-Token',
			credentials,
		};
		expect(
			startedItem(await deliver(settings, { body, headers: { 'x-hook-token': SECRET } }))?.event,
		).toBe('FAILURE_CREATED');
		expect(
			(await deliver(settings, { body, headers: { 'X-Webhook-Secret': SECRET } })).sent?.status,
		).toBe(401);
	});

	it.each([
		['a repeated parameter', [SECRET, 'x']],
		['an array of objects (?token[0][a]=1)', [{ a: '1' }]],
		['an object (?token[a]=1)', { a: SECRET }],
		['a number', 42],
	])('answers a query secret given as %s with 401, never an exception', async (_label, token) => {
		const run = await deliver({ authentication: 'query', credentials }, { body, query: { token } });
		expectRefused(run);
	});

	it('answers a header secret given twice (as an array) with 401', async () => {
		expectRefused(
			await deliver(
				{ authentication: 'header', credentials },
				{ body, headers: { 'X-Webhook-Secret': [SECRET, SECRET] } },
			),
		);
	});

	it('with Include Headers, leaves out every header that holds the secret', async () => {
		const run = await deliver(
			{ authentication: 'query', credentials, options: { includeHeaders: true } },
			{
				body,
				query: { token: SECRET },
				headers: {
					'X-Original-URI': `/webhook/abc?token=${SECRET}`,
					Referer: `https://proxy.example/webhook/abc?token=${SECRET}`,
					Cookie: 'session=1',
					'User-Agent': 'Service/1.0',
				},
			},
		);
		const item = startedItem(run);
		expect(item?.headers).toEqual({
			'content-type': 'application/json',
			'user-agent': 'Service/1.0',
		});
		expect(JSON.stringify(item)).not.toContain(SECRET);
	});

	it('declares the output fields n8n redacts as credentials', () => {
		const { sensitiveOutputFields } = new MaintenanceManagementTrigger().description;
		expect(sensitiveOutputFields).toEqual(
			expect.arrayContaining(['headers.authorization', 'headers.x-webhook-secret', 'query.token']),
		);
	});

	it('asks for Basic auth in the 401 of the Basic auth mode only', async () => {
		const basic = await deliver({ authentication: 'basicAuth', credentials }, { body });
		expect(basic.sent?.headers['WWW-Authenticate']).toBe('Basic realm="Webhook"');
		const query = await deliver({ authentication: 'query', credentials }, { body });
		expect(query.sent?.headers['WWW-Authenticate']).toBeUndefined();
	});

	it('accepts any Basic auth user name when the credential has none, still checking the secret', async () => {
		const settings = { authentication: 'basicAuth' as const, credentials: { secret: SECRET } };
		expect(
			startedItem(
				await deliver(settings, { body, headers: { Authorization: basicAuth('anyone', SECRET) } }),
			),
		).toBeDefined();
		expect(
			(await deliver(settings, { body, headers: { Authorization: basicAuth('anyone', 'nope') } }))
				.sent?.status,
		).toBe(401);
		expect((await deliver(settings, { body })).sent?.status).toBe(401);
	});

	it('accepts a secret that holds a colon as Basic auth password', async () => {
		const withColon = { secret: 'part:one:two-0123456789', username: 'svc' };
		const run = await deliver(
			{ authentication: 'basicAuth', credentials: withColon },
			{ body, headers: { Authorization: basicAuth('svc', withColon.secret) } },
		);
		expect(startedItem(run)).toBeDefined();
	});
});

describe('the protection helpers', () => {
	it('sameSecret compares whole values of any length', () => {
		expect(sameSecret(SECRET, SECRET)).toBe(true);
		expect(sameSecret(`${SECRET} `, SECRET)).toBe(false);
		expect(sameSecret('', SECRET)).toBe(false);
		expect(sameSecret(undefined, SECRET)).toBe(false);
		expect(sameSecret('', '')).toBe(false);
		expect(sameSecret('a'.repeat(10_000), SECRET)).toBe(false);
		expect(sameSecret('é', 'é')).toBe(true);
	});

	it('basicCredentials reads user and password, and refuses other schemes', () => {
		expect(basicCredentials(basicAuth('u', 'p:q'))).toEqual({ user: 'u', password: 'p:q' });
		expect(basicCredentials(`basic ${Buffer.from('u:p').toString('base64')}`)).toEqual({
			user: 'u',
			password: 'p',
		});
		expect(basicCredentials('Bearer abc')).toBeUndefined();
		expect(basicCredentials(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeUndefined();
		expect(basicCredentials(undefined)).toBeUndefined();
	});

	it('isAuthorized lets none through and refuses a missing credential', () => {
		expect(isAuthorized('none', { query: {}, headers: {} }, '', undefined)).toBe(true);
		expect(isAuthorized('query', { query: { token: 'x' }, headers: {} }, 'token', undefined)).toBe(
			false,
		);
	});
});
