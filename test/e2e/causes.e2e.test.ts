import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { INode } from 'n8n-workflow';

import { apiError as apiErrorOfPinned } from '../../nodes/shared/errors/apiError';
import { apiError } from '../helpers/scriptedServer';
import { CausesFixture } from '../nodes/helpers/causes';
import type { RunResult } from '../nodes/helpers/harness';
import { N8N_NODE_MODULES, TESTING_PINNED_N8N } from './n8n';

/**
 * The failure causes the node declares (test/nodes/causes.test.ts), as the n8n under test reads them.
 * The pinned n8n reads a node's declared cause in its poll back-off (`pollFailureFromError`): the
 * node's errors, from a run in n8n-core, go through that reader. n8n 1.123 and 2.0 know no cause: the
 * node's errors, built with their n8n-workflow, carry none and are otherwise the same.
 */
const READER = join(
	N8N_NODE_MODULES,
	'n8n',
	'dist',
	'workflows',
	'triggers',
	'poll-backoff-policy.js',
);

interface PollFailure {
	type: 'transient' | 'permanent';
	retryAfterMs: number | null;
	cause?: string;
}
type Reader = (error: unknown, now: Date) => PollFailure;

const fixture = new CausesFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());
const { server } = fixture;
const errorOf = async (run: Promise<RunResult>) => (await run).error;

(TESTING_PINNED_N8N ? describe : describe.skip)(
	"the pinned n8n's reader of declared causes",
	() => {
		// The reader, loaded only where it exists: a skipped describe still runs its body.
		let reader: Reader;
		beforeAll(() => {
			reader = (createRequire(__filename)(READER) as { pollFailureFromError: Reader })
				.pollFailureFromError;
		});
		const now = new Date();
		const read = (error: unknown) => reader(error, now);

		it('reads a 401 as the credential, which someone has to fix', async () => {
			server.reset(() => apiError(401, { message: 'Invalid token.' }));
			expect(read(await errorOf(fixture.listLocations()))).toEqual({
				type: 'permanent',
				retryAfterMs: null,
				cause: 'credential-invalid',
			});
		});

		it('reads a base URL without /v3 as the configuration, with nothing sent', async () => {
			server.requests.length = 0;
			const error = await errorOf(
				fixture.listLocations({ ...fixture.credentials, productionBaseUrl: server.url }),
			);
			expect(server.requests).toEqual([]);
			expect(read(error)).toEqual({
				type: 'permanent',
				retryAfterMs: null,
				cause: 'configuration-invalid',
			});
		});

		it("reads a 429 given up on as the rate limit, with the API's wait", async () => {
			server.reset(() => ({ ...apiError(429, {}), headers: { 'Retry-After': '600' } }));
			expect(read(await errorOf(fixture.listLocations()))).toEqual({
				type: 'transient',
				retryAfterMs: 600_000,
				cause: 'rate-limited',
			});
		});

		it("reads a spent limit as the rate limit until the API's reset", async () => {
			const { result, resetMs } = await fixture.readPastSpentLimit();
			const failure = read(result.error);
			expect(failure).toMatchObject({ type: 'transient', cause: 'rate-limited' });
			// The reset, from the reader's now, give or take the milliseconds between readings of the clock.
			expect(Math.abs((failure.retryAfterMs ?? 0) - (resetMs - now.getTime()))).toBeLessThan(1000);
		});

		it('reads a 503 to a read as the service down for now', async () => {
			server.reset(() => apiError(503, {}));
			expect(
				read(await errorOf(fixture.listLocations(fixture.credentials, { maxAttempts: 1 }))),
			).toEqual({
				type: 'transient',
				retryAfterMs: null,
				cause: 'temporarily-unavailable',
			});
		});
	},
);

(TESTING_PINNED_N8N ? describe.skip : describe)('an n8n that knows no declared cause', () => {
	it('has no reader of them', () => {
		expect(existsSync(READER)).toBe(false);
	});

	it("gets the node's errors without a cause, and otherwise as the pinned n8n-workflow builds them", () => {
		const workflowOfN8n = join(N8N_NODE_MODULES, 'n8n-workflow');
		let ofThisN8n: { apiError: typeof apiErrorOfPinned } | undefined;
		let NodeApiError: typeof Error | undefined;
		jest.isolateModules(() => {
			NodeApiError = jest.requireActual<{ NodeApiError: typeof Error }>(workflowOfN8n).NodeApiError;
			jest.doMock('n8n-workflow', () => jest.requireActual(workflowOfN8n));
			ofThisN8n = jest.requireActual<{ apiError: typeof apiErrorOfPinned }>(
				'../../nodes/shared/errors/apiError',
			);
		});
		const inode = { name: 'Maintenance Management' } as INode;
		const context = { method: 'GET', path: '/locations', environment: 'production' };
		for (const status of [401, 404, 429, 503]) {
			// A 404 declares a cause only from outside the API: a web server's page, not its envelope.
			const body =
				status === 404 ? '<h1>Not Found</h1>' : apiError(status, { message: 'Refused.' }).body;
			const error = ofThisN8n!.apiError(inode, status, body, context);
			const pinned = apiErrorOfPinned(inode, status, body, context);
			expect(error).toBeInstanceOf(NodeApiError!);
			expect(pinned.failure).toBeDefined();
			expect('failure' in error).toBe(false);
			expect(JSON.stringify(error)).not.toContain('failure');
			const { message, description, httpCode } = pinned;
			expect({ ...error, message: error.message }).toMatchObject({
				message,
				description,
				httpCode,
			});
		}
	});
});
