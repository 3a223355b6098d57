/**
 * A bulk write in the pinned n8n, against the sandbox's rate limit, with every Request Option at its
 * default: it finishes with every item written once, and a run the limit stops leaves in n8n's stored
 * execution which items were written. The pace is measured by `npm run bench -- bulk`, not here.
 */
import type { LoggedRequest } from '../../sandbox';
import { N8nInstance, outputOf, type ExecutionResult } from './n8n';
import { SandboxClient } from './sandboxClient';
import { BULK_NODE, bulkWorkflow, credentials } from './workflows';

jest.setTimeout(600_000);

const n8n = new N8nInstance('bulk');
const api = new SandboxClient();
const { control, requests } = api;

const posts = async (): Promise<LoggedRequest[]> =>
	(await requests()).filter((request) => request.method === 'POST');

/** The stopped run's error as n8n stores it, with the context the node gave it. */
type StoredError = { message: string; description?: string; context?: Record<string, unknown> };
const storedError = (run: ExecutionResult) =>
	run.data.resultData.error as unknown as StoredError | undefined;

beforeAll(async () => {
	await api.start();
	await n8n.setup();
	const { baseUrl, token } = api.sandbox.environments.sandbox;
	await n8n.importFiles(credentials(baseUrl, token), [
		bulkWorkflow('mmE2eBulkDefault', 40, 'E2E-BULK'),
		bulkWorkflow('mmE2eBulkStopped', 8, 'E2E-STOP'),
	]);
});

afterAll(async () => {
	await n8n.stop();
	await api.close();
});

describe('a bulk create in a real n8n, at the rate limit, with the defaults', () => {
	it('writes every item once and outputs them all, meeting the limit once a window at most', async () => {
		const limit = 10;
		await control('POST', '/rate-limit', { limit, windowMs: 2000 });
		await control('DELETE', '/requests');
		const run = await n8n.execute('mmE2eBulkDefault');
		expect(run.data.resultData.error).toBeUndefined();
		const output = outputOf(run, BULK_NODE);
		expect(output).toHaveLength(40);
		expect(new Set(output.map((item) => item.id)).size).toBe(40);
		const sent = await posts();
		const created = sent.filter((request) => request.status === 201);
		expect(created.map((request) => (request.body as { code: string }).code)).toEqual(
			output.map((item) => item.code),
		);
		expect(sent.filter((request) => request.status === 429).length).toBeLessThanOrEqual(40 / limit);
		expect(JSON.stringify(run)).not.toContain(api.sandbox.environments.sandbox.token);
	});

	it('stopped by the limit, keeps in the stored execution which items were written and where to resume', async () => {
		await control('POST', '/rate-limit', { limit: 3, windowMs: 3_600_000 });
		await control('DELETE', '/requests');
		const run = await n8n.execute('mmE2eBulkStopped');
		expect(run.status).toBe('error');
		const error = storedError(run);
		expect(error?.message).toMatch(
			/Items 0–2 of 8 were written\. Items 4–7 were not sent\. Run again from item 3\.$/,
		);
		const sent = await posts();
		expect(sent.map((request) => request.status)).toEqual([201, 201, 201, 429]);
		const ids = error?.context?.idsWritten as string[];
		expect(ids).toHaveLength(3);
		for (const [index, id] of ids.entries()) {
			const stored = (await control('GET', `/state/stockMaterials/${id}`)) as {
				attributes: { code: string };
			};
			expect(stored.attributes.code).toBe(`E2E-STOP-000${index + 1}`);
		}
		expect(JSON.stringify(run)).not.toContain(api.sandbox.environments.sandbox.token);
	});
});
