/**
 * A bulk write in the pinned n8n, against the sandbox's rate limit, with every Request Option at its
 * default: it finishes with every item written once, and a run the limit stops leaves in n8n's stored
 * execution which items were written. With "Continue (using error output)", n8n itself sends each
 * failed row to the Error output, paired with its input row, for a create and for a grouped update,
 * and the ERP example of `npm run dev` does so with its bad rows, then fixes one and sends it again.
 * A run that waits for the limit reports its progress in n8n's log while it waits. The pace is measured by
 * `npm run bench -- bulk`, not here.
 */
import type { IDataObject } from 'n8n-workflow';

import { exampleWorkflows } from '../../scripts/examples';
import type { LoggedRequest } from '../../sandbox';
import { MATERIAL_FROM_ROW } from '../helpers/rows';
import { itemsOf, N8nInstance, outputOf, type ExecutionResult } from './n8n';
import { SandboxClient } from './sandboxClient';
import {
	apiCredential,
	BULK_NODE,
	bulkWorkflow,
	credentials,
	rowsWorkflow,
	storedAs,
} from './workflows';

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

/** 30 material rows; 4 are bad: 2 empty names the node refuses, 2 codes the sandbox's seed has. */
const MATERIAL_ROWS: IDataObject[] = Array.from({ length: 30 }, (_, index) => ({
	code: [7, 21].includes(index)
		? `MAT-${index === 7 ? 3 : 4}`
		: `E2E-ROW-${String(index).padStart(2, '0')}`,
	name: [12, 25].includes(index) ? '' : `ERP row ${index}`,
}));
const BAD_MATERIALS = [7, 12, 21, 25];

/**
 * The 30 locations that are not buildings (every sixth location of the seed is one); 4 rows are bad,
 * refused before sending: 2 with an orientation the API does not have, 2 repeating a location an
 * earlier row already updates. The 26 good rows go in one PATCH.
 */
const ROOMS = Array.from({ length: 36 }, (_, index) => index + 1).filter((id) => id % 6 !== 1);
const LOCATION_ROWS: IDataObject[] = [
	...ROOMS.slice(0, 28).map((id, index) => ({
		id,
		name: `Synced room ${id}`,
		orientation: [9, 18].includes(index) ? 'Up' : 'North',
	})),
	{ id: ROOMS[0], name: 'Again', orientation: 'South' },
	{ id: ROOMS[1], name: 'Again', orientation: 'South' },
];
const BAD_LOCATIONS = [9, 18, 28, 29];

/**
 * 20 material rows for the Retry On Fail runs: row 10's code is MAT-3, which the sandbox's seed has
 * (refused by the API), or row 0 has no name (refused by the node before sending).
 */
const RETRY_ROWS = (bad: 'taken code in row 10' | 'no name in row 0'): IDataObject[] =>
	Array.from({ length: 20 }, (_, index) => ({
		code: bad === 'taken code in row 10' && index === 10 ? 'MAT-3' : `E2E-TRY-${index}`,
		name: bad === 'no name in row 0' && index === 0 ? '' : `Retried row ${index}`,
	}));
/** Settings → Retry On Fail on, 3 tries, Wait Between Tries 0 (which n8n reads as its default, 1 s). */
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };

const ERP_EXAMPLE = exampleWorkflows().find((workflow) => workflow.id === 'devErpMaterials')!;
/**
 * The rows the ERP example's Code node returns. Two are bad on purpose: an empty name, which the node
 * refuses before sending, and the code MAT-5, which the sandbox's demo data already has.
 */
const ERP_ROWS = (
	new Function(
		String(ERP_EXAMPLE.nodes.find((node) => node.name === 'ERP Rows')!.parameters.jsCode),
	)() as Array<{ json: { code: string; name: string } }>
).map(({ json }) => json);

beforeAll(async () => {
	await api.start();
	await n8n.setup();
	const { baseUrl, token } = api.sandbox.environments.sandbox;
	const exampleCredential = ERP_EXAMPLE.nodes.find((node) => node.credentials)!.credentials!
		.maintenanceManagementApi;
	await n8n.importFiles(
		[...credentials(baseUrl, token), apiCredential(baseUrl, token, exampleCredential)],
		[
			bulkWorkflow('mmE2eBulkDefault', 40, 'E2E-BULK'),
			bulkWorkflow('mmE2eBulkStopped', 8, 'E2E-STOP'),
			bulkWorkflow('mmE2eBulkProgress', 5, 'E2E-PROG'),
			rowsWorkflow('mmE2eRowsCreate', 'Create Materials', MATERIAL_ROWS, MATERIAL_FROM_ROW),
			rowsWorkflow('mmE2eRowsUpdate', 'Update Locations', LOCATION_ROWS, {
				resource: 'location',
				operation: 'updateMany',
				id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
				updateFields: { name: '={{ $json.name }}', orientation: '={{ $json.orientation }}' },
			}),
			{ ...ERP_EXAMPLE, ...storedAs(ERP_EXAMPLE.id) },
			rowsWorkflow(
				'mmE2eRetryStop',
				'Retried Create',
				RETRY_ROWS('taken code in row 10'),
				MATERIAL_FROM_ROW,
				'stopWorkflow',
				RETRY_ON_FAIL,
			),
			...(['continueRegularOutput', 'continueErrorOutput'] as const).map((onError) =>
				rowsWorkflow(
					`mmE2eRetry-${onError}`,
					'Retried Create',
					RETRY_ROWS('no name in row 0'),
					MATERIAL_FROM_ROW,
					onError,
					RETRY_ON_FAIL,
				),
			),
		],
	);
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

describe("a long bulk run's progress in a real n8n", () => {
	it("reaches n8n's log every 30 s, also while the run waits for the rate limit", async () => {
		// 3 requests every 40 s: the 4th item waits about 40 s, and a line comes 30 s into the run.
		await control('POST', '/rate-limit', { limit: 3, windowMs: 40_000 });
		const run = await n8n.execute('mmE2eBulkProgress', { N8N_LOG_LEVEL: 'info' });
		expect(run.data.resultData.error).toBeUndefined();
		expect(outputOf(run, BULK_NODE)).toHaveLength(5);
		const lines = n8n.printed
			.split('\n')
			.filter((line) => line.includes(`${BULK_NODE} (POST /stocks/materials): `));
		expect(lines[0]).toMatch(
			/: 3 of 5 items done, 2 left, about \d+ s more at \d+ items a minute; now waiting \d+ s for the API's rate limit/,
		);
		expect(lines[lines.length - 1]).toMatch(
			/: all 5 items processed in \d+ s \(5 written, 0 failed\)/,
		);
		expect(n8n.printed).not.toContain(api.sandbox.environments.sandbox.token);
	});
});

/** What n8n put on a node's Success and Error outputs, each item with its pairing. */
const outputs = (run: ExecutionResult, node: string) => ({
	success: itemsOf(run, node, 0),
	failed: itemsOf(run, node, 1),
});
const pairedWith = (items: Array<{ pairedItem?: unknown }>) =>
	items.map(({ pairedItem }) => (pairedItem as { item: number }).item);
const others = (count: number, bad: number[]) =>
	Array.from({ length: count }, (_, index) => index).filter((index) => !bad.includes(index));

/** Runs a saved workflow over rows, the sandbox's request log cleared first; expects no error of the run. */
async function runRows(workflowId: string, node: string, env: NodeJS.ProcessEnv = {}) {
	await control('DELETE', '/requests');
	const run = await n8n.execute(workflowId, env);
	expect(run.data.resultData.error).toBeUndefined();
	return { run, ...outputs(run, node) };
}

describe('"Continue (using error output)" in a real n8n', () => {
	beforeAll(async () => await control('POST', '/rate-limit', {}));

	it('a create of 30 rows with 4 bad ones: 26 records on Success, exactly the 4 bad rows on Error', async () => {
		const { success, failed } = await runRows('mmE2eRowsCreate', 'Create Materials');
		expect(success).toHaveLength(26);
		expect(pairedWith(success)).toEqual(others(30, BAD_MATERIALS));
		expect(success.every(({ json }) => typeof json.id === 'string')).toBe(true);
		expect(pairedWith(failed)).toEqual(BAD_MATERIALS);
		// Each failed row is its input row, with why it failed.
		for (const { json, pairedItem } of failed) {
			const row = MATERIAL_ROWS[(pairedItem as { item: number }).item];
			expect(json).toMatchObject({ ...row, error: { message: expect.any(String) } });
		}
		expect(failed.map(({ json }) => (json.error as IDataObject).outcome)).toEqual([
			'refusedByApi',
			'refusedBeforeSending',
			'refusedByApi',
			'refusedBeforeSending',
		]);
		expect((failed[0].json.error as IDataObject).message).toMatch(
			/^Code "MAT-3" in item 7 already exists/,
		);
		expect((failed[1].json.error as IDataObject).message).toMatch(
			/^Invalid input in item 12: "name" \(Name\)/,
		);
		const posts = (await requests()).filter((request) => request.method === 'POST');
		expect(posts).toHaveLength(28);
	});

	it('a grouped update of 30 rows with 4 bad ones: 26 records on Success, exactly the 4 bad rows on Error', async () => {
		const { success, failed } = await runRows('mmE2eRowsUpdate', 'Update Locations');
		expect(success).toHaveLength(26);
		expect(pairedWith(success)).toEqual(others(30, BAD_LOCATIONS));
		expect(success.map(({ json }) => json.name)).toEqual(
			others(30, BAD_LOCATIONS).map((index) => LOCATION_ROWS[index].name),
		);
		expect(pairedWith(failed)).toEqual(BAD_LOCATIONS);
		for (const { json, pairedItem } of failed) {
			const row = LOCATION_ROWS[(pairedItem as { item: number }).item];
			expect(json).toMatchObject({
				...row,
				error: expect.objectContaining({
					message: expect.any(String),
					outcome: 'refusedBeforeSending',
				}),
			});
		}
		const patches = (await requests()).filter((request) => request.method === 'PATCH');
		expect(patches).toHaveLength(1);
		expect((patches[0].body as { locations: unknown[] }).locations).toHaveLength(26);
	});

	it('the ERP example: written rows on Success, the bad rows on Error with their reason, the nameless one fixed and written once', async () => {
		const { run, success, failed } = await runRows(ERP_EXAMPLE.id, 'Create Material');
		expect(pairedWith(success)).toEqual([0, 1, 3, 5, 6, 7]);
		expect(pairedWith(failed)).toEqual([2, 4]);
		expect(outputOf(run, 'Created').map((json) => json.code)).toEqual(
			[0, 1, 3, 5, 6, 7].map((index) => ERP_ROWS[index].code),
		);
		expect(outputOf(run, 'Failed Rows')).toEqual([
			{
				...ERP_ROWS[2],
				error: expect.any(Object),
				reason: expect.stringMatching(/^Invalid input in item 2: "name" \(Name\)/),
				outcome: 'refusedBeforeSending',
			},
			{
				...ERP_ROWS[4],
				error: expect.any(Object),
				reason: expect.stringMatching(/^Code "MAT-5" in item 4 already exists/),
				outcome: 'refusedByApi',
			},
		]);
		// The row without a name gets its code as its name and is sent again; the taken code waits.
		const [fixed] = outputOf(run, 'Send Fixed Rows');
		expect(outputOf(run, 'Send Fixed Rows')).toHaveLength(1);
		expect(fixed).toMatchObject({ code: ERP_ROWS[2].code, name: ERP_ROWS[2].code });
		const stored = (await control('GET', `/state/stockMaterials/${String(fixed.id)}`)) as {
			attributes: { code: string; name: string };
		};
		expect(stored.attributes).toMatchObject({ code: 'ERP-1003', name: 'ERP-1003' });
		expect(outputOf(run, 'Check By Hand').map((json) => json.code)).toEqual(['MAT-5']);
		// Every row went out once at most: the good ones and the fixed one written, the taken code refused.
		const sent = (await posts()).map((request) => ({
			code: (request.body as { code: string }).code,
			status: request.status,
		}));
		expect(sent).toEqual([
			...[0, 1, 3].map((index) => ({ code: ERP_ROWS[index].code, status: 201 })),
			{ code: 'MAT-5', status: 400 },
			...[5, 6, 7, 2].map((index) => ({ code: ERP_ROWS[index].code, status: 201 })),
		]);
	});
});

/**
 * n8n's Retry On Fail runs the node again with the same rows when it stops, and when the first item of
 * its output is an error: the sandbox's request log shows each row sent once over the three tries.
 */
describe('Retry On Fail in a real n8n, 3 tries', () => {
	beforeEach(async () => await control('POST', '/reset'));

	/** The codes of the POSTs in the sandbox's log, with their statuses (-1: the connection dropped). */
	const postedCodes = async () =>
		(await posts()).map((request) => ({
			code: (request.body as { code: string }).code,
			status: request.status,
		}));
	const created = (indexes: number[]) =>
		indexes.map((index) => ({ code: `E2E-TRY-${index}`, status: 201 }));
	const range = (from: number, to: number) =>
		Array.from({ length: to - from }, (_, index) => from + index);
	/** n8n's log, at the info level: the node says there what each later try did not send again. */
	const INFO = { N8N_LOG_LEVEL: 'info' };
	const laterTries = () =>
		n8n.printed
			.split('\n')
			.map((line) => /Retried Create: Retry On Fail, try .*/.exec(line)?.[0])
			.filter(Boolean);
	const triesNotSending = (rows: number) =>
		[2, 3].map(
			(tryNumber) =>
				`Retried Create: Retry On Fail, try ${tryNumber} of 3: ${rows === 1 ? '1 row' : `${rows} rows`} the API answered in an earlier try ${rows === 1 ? 'is' : 'are'} not sent again`,
		);

	it('Stop Workflow, row 10 refused by the API: each row sent once, the error names item 10', async () => {
		const run = await n8n.execute('mmE2eRetryStop', INFO);
		expect(run.status).toBe('error');
		expect(await postedCodes()).toEqual([...created(range(0, 10)), { code: 'MAT-3', status: 400 }]);
		expect(laterTries()).toEqual(triesNotSending(11));
		const error = storedError(run);
		expect(error?.message).toMatch(/^Code "MAT-3" in item 10 already exists/);
		expect(error?.message).toContain(
			'Items 0–9 of 20 were written. Items 11–19 were not sent. Run again from item 10.',
		);
		expect(error?.context?.idsWritten).toHaveLength(10);
	});

	it('Stop Workflow, the answer to row 0 lost: not sent again, and the error says it may have been written', async () => {
		await control('POST', '/faults', { drop: true, method: 'POST', path: '/stocks/materials' });
		const run = await n8n.execute('mmE2eRetryStop', INFO);
		expect(run.status).toBe('error');
		expect(await postedCodes()).toEqual([{ code: 'E2E-TRY-0', status: -1 }]);
		expect(laterTries()).toEqual(triesNotSending(1));
		const error = storedError(run);
		expect(error?.message).toContain('It may have been written: check whether it exists');
		expect(error?.context?.outcome).toBe('unknown');
	});

	it('Continue (regular output), row 0 refused before sending: each good row sent once', async () => {
		const { success } = await runRows('mmE2eRetry-continueRegularOutput', 'Retried Create', INFO);
		expect(await postedCodes()).toEqual(created(range(1, 20)));
		expect(laterTries()).toEqual(triesNotSending(19));
		expect(success).toHaveLength(20);
		expect(success[0].json).toMatchObject({ outcome: 'refusedBeforeSending' });
		expect(success.slice(1).map(({ json }) => json.code)).toEqual(
			range(1, 20).map((index) => `E2E-TRY-${index}`),
		);
	});

	it('Continue (using error output), row 0 refused before sending: each good row sent once', async () => {
		const { success, failed } = await runRows(
			'mmE2eRetry-continueErrorOutput',
			'Retried Create',
			INFO,
		);
		expect(await postedCodes()).toEqual(created(range(1, 20)));
		expect(laterTries()).toEqual(triesNotSending(19));
		expect(pairedWith(success)).toEqual(range(1, 20));
		expect(pairedWith(failed)).toEqual([0]);
		expect((failed[0].json.error as IDataObject).outcome).toBe('refusedBeforeSending');
	});

	it('Continue (using error output), the answer to row 1 lost too: not sent again, and its row says it may have been written', async () => {
		await control('POST', '/faults', { drop: true, method: 'POST', path: '/stocks/materials' });
		const { success, failed } = await runRows(
			'mmE2eRetry-continueErrorOutput',
			'Retried Create',
			INFO,
		);
		expect(laterTries()).toEqual(triesNotSending(19));
		expect(await postedCodes()).toEqual([
			{ code: 'E2E-TRY-1', status: -1 },
			...created(range(2, 20)),
		]);
		expect(pairedWith(success)).toEqual(range(2, 20));
		expect(pairedWith(failed)).toEqual([0, 1]);
		const lost = failed[1].json.error as IDataObject;
		expect(lost.outcome).toBe('unknown');
		expect(lost.message).toContain('It may have been written: check whether it exists');
	});
});
