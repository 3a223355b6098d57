import { createServer } from 'node:net';

import type { Failure, IDataObject, INode } from 'n8n-workflow';
import { ACTIONABLE_CAUSES, sleep, TIMED_CAUSES } from 'n8n-workflow';

import type { Connection } from '../../nodes/MaintenanceManagement/transport/connection';
import { NoAnswer } from '../../nodes/MaintenanceManagement/transport/exchange';
import { RequestFailures } from '../../nodes/shared/errors/failures';
import { redactionFor } from '../../nodes/MaintenanceManagement/transport/redact';
import { DEFAULT_POLICY } from '../../nodes/MaintenanceManagement/transport/retry';
import { apiError, type Reply } from '../helpers/scriptedServer';
import { CausesFixture } from './helpers/causes';
import type { Credentials, RunResult } from './helpers/harness';

/**
 * The causes the node declares on its errors as n8n's `failure` (n8n-workflow 2.3x and later), read
 * off the error n8n-core records for the run, where n8n reads it. How n8n's own reader takes them,
 * and that older n8n ignores them: test/e2e/causes.e2e.test.ts.
 */
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const fixture = new CausesFixture();
const { server, listLocations, getLocation, createMaterialType } = fixture;

beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());
beforeEach(() => {
	(sleep as jest.Mock).mockClear();
	server.requests.length = 0;
});

type Run = (creds?: Credentials) => Promise<RunResult>;

/** The cause an error declares, as n8n reads it: the `failure` field, of n8n-workflow's causes. */
function declared(result: RunResult): Failure | undefined {
	const failure = (result.error as { failure?: Failure } | undefined)?.failure;
	if (failure !== undefined)
		expect([...TIMED_CAUSES, ...ACTIONABLE_CAUSES]).toContain(failure.cause);
	return failure;
}

const answering = (reply: Reply) => server.reset(() => reply);

describe('the cause declared on an API error answer', () => {
	it.each<[string, Reply, Run, Failure | undefined]>([
		[
			'a 401',
			apiError(401, { message: 'Invalid token.' }),
			listLocations,
			{ cause: 'credential-invalid' },
		],
		// The API's own 404 envelope: the API answered, so an ID in the query or body may be missing.
		[
			'a 404 in the API envelope from a collection: an ID in the query may name no record',
			apiError(404, { message: 'Not found.' }),
			listLocations,
			undefined,
		],
		[
			'a 404 in the API envelope to a write: an ID in the body may name no record',
			apiError(404, { message: 'Not found.' }),
			createMaterialType,
			undefined,
		],
		[
			'a 404 from the web server at the base URL, without the API envelope',
			{ status: 404, raw: '<h1>Not Found</h1>', headers: { 'Content-Type': 'text/html' } },
			listLocations,
			{ cause: 'configuration-invalid' },
		],
		[
			'a 404 for a record by its ID from the web server, without the API envelope',
			{ status: 404, raw: '<h1>Not Found</h1>', headers: { 'Content-Type': 'text/html' } },
			getLocation,
			{ cause: 'configuration-invalid' },
		],
		[
			'a 404 for a record by its ID: the record, not the API, is missing',
			apiError(404, {}),
			getLocation,
			undefined,
		],
		[
			'a 429 whose wait passes Max Wait per Request',
			{ ...apiError(429, { message: 'Too Many Requests.' }), headers: { 'Retry-After': '600' } },
			listLocations,
			{ cause: 'rate-limited', retryAfterMs: 600_000 },
		],
		[
			'a 429 that gives no wait, after the last attempt',
			apiError(429, { message: 'Too Many Requests.' }),
			listLocations,
			{ cause: 'rate-limited' },
		],
		[
			'a 503 on a read, also on retry',
			apiError(503, {}),
			listLocations,
			{ cause: 'temporarily-unavailable' },
		],
		[
			'a 502 on a read, also on retry',
			apiError(502, {}),
			getLocation,
			{ cause: 'temporarily-unavailable' },
		],
		[
			'a 500 on a read, also on retry',
			apiError(500, {}),
			listLocations,
			{ cause: 'temporarily-unavailable' },
		],
		// A write is not retried, and it may have been applied: no cause is claimed for it.
		['a 503 on a write', apiError(503, {}), createMaterialType, undefined],
		[
			'a 400',
			apiError(400, { message: 'Property validation error.' }),
			createMaterialType,
			undefined,
		],
		['a 403', apiError(403, {}), listLocations, undefined],
	])('%s', async (_label, reply, run, expected) => {
		answering(reply);
		const result = await run();
		expect(result.error).toBeDefined();
		expect(declared(result)).toEqual(expected);
		expect(server.requests.length).toBeGreaterThan(0);
	});
});

describe('the cause declared on an error before or without an answer', () => {
	it("the rate limit spent past Max Wait per Request: rate-limited until the API's reset", async () => {
		const { result, resetMs } = await fixture.readPastSpentLimit();
		expect(server.requests).toHaveLength(1);
		const failure = declared(result) as { cause: string; resetsAtEpochMs: number };
		expect(failure.cause).toBe('rate-limited');
		// The reset the API gave, give or take the milliseconds between two readings of the clock.
		expect(Math.abs(failure.resetsAtEpochMs - resetMs)).toBeLessThan(1000);
	});

	it('an API that cannot be reached: temporarily-unavailable, for a read and for a write never sent', async () => {
		const closed = await new Promise<number>((resolve) => {
			const probe = createServer().listen(0, '127.0.0.1', () => {
				const { port } = probe.address() as { port: number };
				probe.close(() => resolve(port));
			});
		});
		const unreachable = {
			...fixture.credentials,
			productionBaseUrl: `http://127.0.0.1:${closed}/v3`,
		};
		for (const run of [listLocations, createMaterialType])
			expect(declared(await run(unreachable))).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('a write whose answer was lost declares no cause: it may have been applied', async () => {
		server.reset(() => 'drop');
		expect(declared(await createMaterialType())).toBeUndefined();
		expect(server.requests).toHaveLength(1);
	});

	it.each<[string, Partial<Credentials>, Failure]>([
		[
			'a base URL without /v3',
			{ productionBaseUrl: 'https://api.example.com' },
			{ cause: 'configuration-invalid' },
		],
		[
			'a base URL over plain http',
			{ productionBaseUrl: 'http://api.example.com/v3' },
			{ cause: 'configuration-invalid' },
		],
		['no token', { accessToken: '' }, { cause: 'credential-invalid' }],
		['a token broken by a space', { accessToken: 'tok_a b' }, { cause: 'credential-invalid' }],
	])(
		'%s: nothing sent, and the credential named as the cause',
		async (_label, change, expected) => {
			const result = await listLocations({ ...fixture.credentials, ...change } as Credentials);
			expect(declared(result)).toEqual(expected);
			expect(server.requests).toEqual([]);
		},
	);
});

describe('what a declared cause leaves as it was', () => {
	it('keeps the message as it was, and the token out of the cause', async () => {
		const token = fixture.credentials.accessToken;
		answering({ ...apiError(401, { message: `Token ${token} is invalid` }) });
		const { error } = await listLocations();
		expect(error?.message).toBe(
			'The access token was rejected (401). Check the token in the credential, and that it was issued in the production environment.',
		);
		expect(JSON.stringify((error as { failure?: IDataObject }).failure)).not.toContain(token);
	});
});

describe('the cause declared when no answer came', () => {
	const token = 'tok_causes_no_answer_31f9';
	const baseUrl = 'https://api.example.com/v3';
	const connection = {
		baseUrl,
		origin: 'https://api.example.com',
		environment: 'production',
		token,
		redaction: redactionFor(token),
		waitedMs: 0,
	} as unknown as Connection;
	const failuresOf = (method: 'GET' | 'POST') =>
		new RequestFailures(
			{ name: 'Maintenance Management' } as INode,
			connection,
			method,
			{ url: `${baseUrl}/locations`, redirects: 0 },
			DEFAULT_POLICY,
			0,
		);
	const fault = (code: string, message = code) => Object.assign(new Error(message), { code });

	it.each<[string, Error, Failure | undefined]>([
		['a refused connection', fault('ECONNREFUSED'), { cause: 'temporarily-unavailable' }],
		['an unreachable host', fault('EHOSTUNREACH'), { cause: 'temporarily-unavailable' }],
		['an unreachable network', fault('ENETUNREACH'), { cause: 'temporarily-unavailable' }],
		['a connection reset', fault('ECONNRESET'), { cause: 'temporarily-unavailable' }],
		['a socket hang up', new Error('socket hang up'), { cause: 'temporarily-unavailable' }],
		['a time-out', fault('ETIMEDOUT'), { cause: 'temporarily-unavailable' }],
		[
			'a host name not found (a typo)',
			fault('ENOTFOUND', 'getaddrinfo ENOTFOUND api.exampel.com'),
			undefined,
		],
		['an expired certificate', fault('CERT_HAS_EXPIRED', 'certificate has expired'), undefined],
		['a self-signed certificate', fault('DEPTH_ZERO_SELF_SIGNED_CERT'), undefined],
		['a certificate for another host', fault('ERR_TLS_CERT_ALTNAME_INVALID'), undefined],
		['an error of no network', new TypeError('x is not a function'), undefined],
	])('%s, on a read', (_label, error, expected) => {
		expect(failuresOf('GET').noAnswer(new NoAnswer(error), 1).failure).toEqual(expected);
	});

	it('a write never connected declares the same; a write whose connection broke, none', () => {
		const refusedAtConnect = Object.assign(fault('ECONNREFUSED', 'connect ECONNREFUSED'), {
			syscall: 'connect',
		});
		expect(failuresOf('POST').noAnswer(new NoAnswer(refusedAtConnect), 1).failure).toEqual({
			cause: 'temporarily-unavailable',
		});
		// Refused on an open connection, or with its system call lost: it may have been written.
		const refusedOnRead = Object.assign(fault('ECONNREFUSED', 'read ECONNREFUSED'), {
			syscall: 'read',
		});
		for (const error of [refusedOnRead, fault('ECONNREFUSED')])
			expect(failuresOf('POST').noAnswer(new NoAnswer(error), 1)).toMatchObject({
				failure: undefined,
				context: expect.objectContaining({ outcome: 'unknown' }),
			});
		expect(
			failuresOf('POST').noAnswer(new NoAnswer(fault('ENOTFOUND')), 1).failure,
		).toBeUndefined();
		expect(
			failuresOf('POST').noAnswer(new NoAnswer(fault('ECONNRESET')), 1).failure,
		).toBeUndefined();
	});

	it('a write whose unreachable host comes without its system call may have been sent: no cause', () => {
		// As n8n gives it: its message in n8n's words, the code alone beside it.
		const unreachable = fault(
			'EHOSTUNREACH',
			'The host is unreachable, perhaps the server is offline',
		);
		const error = failuresOf('POST').noAnswer(new NoAnswer(unreachable), 1);
		expect(error.failure).toBeUndefined();
		expect(error.context.outcome).toBe('unknown');
		expect(error.message).toMatch(/It may have been written: check whether it exists/);
	});
});
