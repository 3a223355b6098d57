import type { IDataObject, INode } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { keptRuns } from '../../nodes/MaintenanceManagement/executor/retryOnFail';
import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { MATERIAL_FROM_ROW } from '../helpers/rows';
import { apiError, ScriptedServer, type Handler } from '../helpers/scriptedServer';
import { runNode, type RetrySettings, type RunResult } from './helpers/harness';
import { SandboxFixture, type RunAgainst } from './helpers/sandbox';

/**
 * n8n's node setting Retry On Fail, run by n8n-core's own WorkflowExecute: it runs the node again, with
 * the same input and run index, when the node throws (On Error: Stop Workflow) or when the first item of
 * its output holds an error (either Continue mode, row 0 failed). A write's retry sends no row the API
 * answered in an earlier try: the row's output, or its error, is the one that try gave. Rows never sent
 * (refused by the node's own checks, or left unsent by a stop) are sent as on the first try.
 */

/** Three tries, 1 ms apart (n8n reads a Wait Between Tries of 0 as its default, 1000 ms). */
const THREE_TRIES: RetrySettings = { maxTries: 3, waitBetweenTries: 1 };

const fixture = new SandboxFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());
beforeEach(async () => await fixture.reset());

/** How many times n8n ran the node (each try is a call of its `execute`). */
let tries: jest.SpyInstance;
beforeEach(() => (tries = jest.spyOn(MaintenanceManagement.prototype, 'execute')));
afterEach(() => tries.mockRestore());

const codeOf = (index: number) => `ERP-${String(index + 1).padStart(4, '0')}`;

/** 20 material rows; the row at `taken` has the code MAT-3, which the sandbox's seed already has. */
const materialRows = (taken?: number): IDataObject[] =>
	Array.from({ length: 20 }, (_, index) => ({
		code: index === taken ? 'MAT-3' : codeOf(index),
		name: `ERP part ${index + 1}`,
	}));

/** Material → Create (node version 2) over rows, with these node settings. */
const createMaterials = async (
	items: IDataObject[],
	settings: { onError?: INode['onError']; retry?: RetrySettings; executionId?: string } = {},
): Promise<RunResult> =>
	await fixture.run(MATERIAL_FROM_ROW, { items, typeVersion: 2, sendDataToUI, ...settings });

/** The lines the node sent to the editor's console during the last run (a manual one). */
let consoleLines: string[] = [];
beforeEach(() => (consoleLines = []));
const sendDataToUI: RunAgainst['sendDataToUI'] = (type, data) => {
	if (type === 'sendConsoleMessage')
		consoleLines.push((data as { messages: string[] }).messages.join(' '));
};

/** The codes of the POSTs the sandbox received, in order, with their statuses. */
const posted = async () =>
	(await fixture.requests())
		.filter((request) => request.method === 'POST')
		.map(({ body, status }) => ({ code: (body as IDataObject).code, status }));

const timesEach = (codes: unknown[]) =>
	codes.reduce<Record<string, number>>((counts, code) => {
		counts[String(code)] = (counts[String(code)] ?? 0) + 1;
		return counts;
	}, {});

/** The POSTs that arrived: `count` of them, each row's code once. */
const expectEachSentOnce = async (count: number) => {
	const sent = await posted();
	expect(sent).toHaveLength(count);
	expect(Object.values(timesEach(sent.map(({ code }) => code)))).toEqual(Array(count).fill(1));
};

describe('Retry On Fail, On Error: Stop Workflow, row 10 of 20 refused by the API', () => {
	it('sends each row once over the three tries, and the error names item 10', async () => {
		const { error, output } = await createMaterials(materialRows(10), { retry: THREE_TRIES });
		expect(tries).toHaveBeenCalledTimes(3);
		const sent = await posted();
		expect(sent.map(({ code }) => code)).toEqual([
			...Array.from({ length: 10 }, (_, index) => codeOf(index)),
			'MAT-3',
		]);
		expect(sent.map(({ status }) => status)).toEqual([...Array(10).fill(201), 400]);
		expect(output).toEqual([]);
		expect(error?.message).toMatch(/^Code "MAT-3" in item 10 already exists/);
		expect(error?.message).toContain(
			'Items 0–9 of 20 were written. Items 11–19 were not sent. Run again from item 10.',
		);
		expect(error?.context).toMatchObject({ itemsDone: 10, firstItemNotDone: 10 });
		expect(error?.context?.idsWritten).toHaveLength(10);
		expect(consoleLines).toEqual([
			'Maintenance Management: Retry On Fail, try 2 of 3: 11 rows the API answered in an earlier try are not sent again',
			'Maintenance Management: Retry On Fail, try 3 of 3: 11 rows the API answered in an earlier try are not sent again',
		]);
		expect(keptRuns()).toBe(0);
	});

	it('ends with the very error of the same run without Retry On Fail', async () => {
		const retried = await createMaterials(materialRows(10), { retry: THREE_TRIES });
		await fixture.reset();
		const once = await createMaterials(materialRows(10));
		expect(retried.error?.message).toBe(once.error?.message);
		expect(retried.error?.description).toBe(once.error?.description);
		const { idsWritten: _retriedIds, ...retriedContext } = retried.error?.context ?? {};
		const { idsWritten: _onceIds, ...onceContext } = once.error?.context ?? {};
		expect(retriedContext).toEqual(onceContext);
	});

	it('refuses again on each try a row the node refused before sending, and sends no other row again', async () => {
		// Row 5 has no name: the node refuses it before sending, on every try.
		const rows = materialRows();
		rows[5] = { ...rows[5], name: '' };
		const { error } = await createMaterials(rows, { retry: THREE_TRIES });
		expect(tries).toHaveBeenCalledTimes(3);
		expect((await posted()).map(({ code }) => code)).toEqual(
			Array.from({ length: 5 }, (_, index) => codeOf(index)),
		);
		expect(error?.message).toMatch(/^Invalid input in item 5: "name" \(Name\)/);
		expect(error?.message).toContain('Items 0–4 of 20 were written.');
	});
});

describe('Retry On Fail with row 0 refused before sending, which n8n takes for a failed run', () => {
	const rows = () => {
		const items = materialRows();
		items[0] = { ...items[0], name: '' };
		return items;
	};

	it('Continue (regular output): each good row is sent once, the output is that of one try', async () => {
		const { error, output } = await createMaterials(rows(), {
			onError: 'continueRegularOutput',
			retry: THREE_TRIES,
		});
		expect(error).toBeUndefined();
		expect(tries).toHaveBeenCalledTimes(3);
		await expectEachSentOnce(19);
		expect(output).toHaveLength(20);
		expect(output[0].json).toMatchObject({ outcome: 'refusedBeforeSending' });
		expect(output[0].json.error).toMatch(/^Invalid input in item 0: "name" \(Name\)/);
		expect(output.slice(1).map(({ json }) => json.code)).toEqual(
			Array.from({ length: 19 }, (_, index) => codeOf(index + 1)),
		);
		expect(output.map(({ pairedItem }) => pairedItem)).toEqual(
			Array.from({ length: 20 }, (_, item) => ({ item })),
		);
		expect(keptRuns()).toBe(0);
	});

	it('Continue (using error output): each good row is sent once, 19 on Success and row 0 on Error', async () => {
		const { error, output, errorOutput } = await createMaterials(rows(), {
			onError: 'continueErrorOutput',
			retry: THREE_TRIES,
		});
		expect(error).toBeUndefined();
		expect(tries).toHaveBeenCalledTimes(3);
		await expectEachSentOnce(19);
		expect(output.map(({ json }) => json.code)).toEqual(
			Array.from({ length: 19 }, (_, index) => codeOf(index + 1)),
		);
		expect(errorOutput).toHaveLength(1);
		expect(errorOutput[0].pairedItem).toEqual({ item: 0 });
		expect(errorOutput[0].json.error).toMatchObject({ outcome: 'refusedBeforeSending' });
	});

	it('a grouped write (Location → Update Many) sends its one PATCH once', async () => {
		const rooms = Array.from({ length: 24 }, (_, index) => index + 1).filter((id) => id % 6 !== 1);
		const items = rooms.map((id, index) => ({
			id,
			name: `Synced room ${id}`,
			orientation: index === 0 ? 'Up' : 'North',
		}));
		const { error, output } = await fixture.run(
			{
				resource: 'location',
				operation: 'updateMany',
				id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
				updateFields: { name: '={{ $json.name }}', orientation: '={{ $json.orientation }}' },
			},
			{ items, typeVersion: 2, onError: 'continueRegularOutput', retry: THREE_TRIES },
		);
		expect(error).toBeUndefined();
		expect(tries).toHaveBeenCalledTimes(3);
		const patches = (await fixture.requests()).filter(({ method }) => method === 'PATCH');
		expect(patches).toHaveLength(1);
		expect((patches[0].body as { locations: unknown[] }).locations).toHaveLength(rooms.length - 1);
		expect(output[0].json).toMatchObject({ outcome: 'refusedBeforeSending' });
		expect(output.slice(1).map(({ json }) => json.name)).toEqual(
			rooms.slice(1).map((id) => `Synced room ${id}`),
		);
	});
});

describe('Retry On Fail against a scripted API', () => {
	const api = new ScriptedServer();
	beforeAll(async () => await api.start());
	afterAll(async () => await api.stop());

	const credentials = {
		accessToken: 'tok_retry_on_fail_3c9a',
		environment: 'sandbox' as const,
		get sandboxBaseUrl() {
			return `${api.url}/v3`;
		},
	};

	/** Writes each material, except that the request of `lost` gets no answer: the connection fails once the API has read it. */
	const losing =
		(lost: string, seen: number[] = []): Handler =>
		(request, index) => {
			seen.push(keptRuns());
			const body = request.body as IDataObject;
			if (body.code === lost) return { fault: { syscall: 'read', code: 'ECONNRESET' } };
			return {
				status: 201,
				body: { data: { id: String(index + 1), type: 'stock-material', attributes: body } },
			};
		};

	const run = async (
		rows: IDataObject[],
		settings: { onError?: INode['onError']; retry?: RetrySettings } = {},
		parameters: IDataObject = MATERIAL_FROM_ROW,
	) =>
		await runNode({
			node: new MaintenanceManagement(),
			parameters,
			items: rows,
			typeVersion: 2,
			credentials: { ...credentials, sandboxBaseUrl: credentials.sandboxBaseUrl },
			...settings,
		});

	const codesSent = () => api.requests.map(({ body }) => (body as IDataObject).code);

	it('Stop Workflow: the retries send nothing again, and the error says the row may have been written', async () => {
		api.reset(losing(codeOf(2)));
		const rows = materialRows().slice(0, 5);
		const { error } = await run(rows, { retry: THREE_TRIES });
		expect(tries).toHaveBeenCalledTimes(3);
		expect(codesSent()).toEqual([codeOf(0), codeOf(1), codeOf(2)]);
		expect(error?.message).toContain('It may have been written');
		expect(error?.message).toContain('Items 0–1 of 5 were written.');
		expect(error?.context).toMatchObject({ itemsUnknown: [2], outcome: 'unknown' });
	});

	it('Continue (regular output), row 0 refused before sending: the lost row is not sent again and its item says so', async () => {
		api.reset(losing(codeOf(2)));
		const rows = materialRows().slice(0, 5);
		rows[0] = { ...rows[0], name: '' };
		const { error, output } = await run(rows, {
			onError: 'continueRegularOutput',
			retry: THREE_TRIES,
		});
		expect(error).toBeUndefined();
		expect(tries).toHaveBeenCalledTimes(3);
		expect(codesSent()).toEqual([codeOf(1), codeOf(2), codeOf(3), codeOf(4)]);
		expect(output[2].json).toMatchObject({ outcome: 'unknown' });
		expect(output[2].json.error).toContain('It may have been written');
		expect(output.map(({ json }) => json.outcome ?? json.code)).toEqual([
			'refusedBeforeSending',
			codeOf(1),
			'unknown',
			codeOf(3),
			codeOf(4),
		]);
	});

	it('Stop Workflow, a row the rate limit left unsent: the retry sends it and the rows after it, once each', async () => {
		let limited = false;
		api.reset((request, index) => {
			const body = request.body as IDataObject;
			if (body.code === codeOf(2) && !limited) {
				limited = true;
				// Longer than Max Wait per Request (300 s): the node stops without sending it.
				return {
					...apiError(429, { message: 'Too many requests' }),
					headers: { 'Retry-After': '3600' },
				};
			}
			return {
				status: 201,
				body: { data: { id: String(index + 1), type: 'stock-material', attributes: body } },
			};
		});
		const { error, output } = await run(materialRows().slice(0, 5), { retry: THREE_TRIES });
		expect(error).toBeUndefined();
		expect(tries).toHaveBeenCalledTimes(2);
		expect(codesSent()).toEqual([codeOf(0), codeOf(1), codeOf(2), codeOf(2), codeOf(3), codeOf(4)]);
		expect(output.map(({ json }) => json.code)).toEqual([0, 1, 2, 3, 4].map(codeOf));
		expect(keptRuns()).toBe(0);
	});

	it('Stop Workflow, a grouped write whose answer leaves out two rows: one PATCH, and the stop of one try', async () => {
		// The answer gives back locations 11 and 14 only: rows 1 and 2 may have been written.
		api.reset((request) => ({
			status: 200,
			body: {
				data: ((request.body as { locations: IDataObject[] }).locations ?? [])
					.filter(({ id }) => [11, 14].includes(Number(id)))
					.map(({ id, name }) => ({ id: String(id), type: 'location', attributes: { name } })),
			},
		}));
		const updateMany = {
			resource: 'location',
			operation: 'updateMany',
			id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
			updateFields: { name: '={{ $json.name }}' },
		};
		const rows = [11, 12, 13, 14].map((id) => ({ id, name: `Site ${id}` }));
		const once = await run(rows, {}, updateMany);
		api.requests.length = 0;
		const retried = await run(rows, { retry: THREE_TRIES }, updateMany);
		expect(tries).toHaveBeenCalledTimes(4);
		expect(api.requests.filter(({ method }) => method === 'PATCH')).toHaveLength(1);
		expect(retried.error?.message).toMatch(/^Item 1 was sent but not confirmed by the API/);
		expect(retried.error?.context).toMatchObject({ itemsUnknown: [1, 2], itemsDone: 2 });
		expect(retried.error?.message).toBe(once.error?.message);
		expect(retried.error?.description).toBe(once.error?.description);
		expect(retried.error?.context).toEqual(once.error?.context);
	});

	it('keeps the answers only while a write with Retry On Fail runs, and releases them when it ends', async () => {
		const rows = materialRows().slice(0, 3);
		const during: number[] = [];
		api.reset(losing('none', during));
		await run(rows);
		expect(during).toEqual([0, 0, 0]);
		during.length = 0;
		await run(rows, { retry: THREE_TRIES });
		expect(during).toEqual([1, 1, 1]);
		expect(keptRuns()).toBe(0);
	});

	it('keeps nothing for a read with Retry On Fail', async () => {
		const during: number[] = [];
		api.reset(() => {
			during.push(keptRuns());
			return {
				status: 200,
				body: { data: { id: '3', type: 'location', attributes: { name: 'Site 3' } } },
			};
		});
		const { error } = await run(
			[{ id: 3 }, { id: 3 }],
			{ retry: THREE_TRIES },
			{
				resource: 'location',
				operation: 'get',
				id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
			},
		);
		expect(error).toBeUndefined();
		expect(during).toEqual([0, 0]);
	});
});

describe('without Retry On Fail', () => {
	it('nothing is kept: a second run of the same execution and input sends every row again', async () => {
		const first = await createMaterials(materialRows(10), { executionId: 'same-execution' });
		expect(first.error?.message).toMatch(/^Code "MAT-3" in item 10 already exists/);
		const second = await createMaterials(materialRows(10), { executionId: 'same-execution' });
		// Row 0 was written by the first run: the API refuses its code now.
		expect(second.error?.message).toMatch(/^Code "ERP-0001" in item 0 already exists/);
		expect((await posted()).map(({ code }) => code)).toEqual([
			...Array.from({ length: 10 }, (_, index) => codeOf(index)),
			'MAT-3',
			codeOf(0),
		]);
	});
});

describe("the node's panel", () => {
	it('says what Retry On Fail does for writes under every write operation, and under no read', () => {
		const { description } = new MaintenanceManagement();
		const notice = description.properties.find(({ name }) => name === 'retryOnFailNotice');
		expect(notice?.displayName).toMatch(/^Settings → Retry On Fail: a retry sends no row/);
		const shown = Object.entries(resources).flatMap(([resource, { operations }]) =>
			Object.entries(operations).map(([operation, { endpoint }]) => ({
				operation: `${resource} ${operation}`,
				writes: endpoint.method !== 'GET',
				shown: NodeHelpers.displayParameter(
					{ resource, operation },
					notice!,
					{ typeVersion: 2 },
					description,
				),
			})),
		);
		expect(shown.filter(({ writes }) => writes).length).toBeGreaterThan(10);
		expect(shown.filter(({ shown, writes }) => shown !== writes)).toEqual([]);
	});
});
