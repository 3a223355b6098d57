import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ItemLoop } from '../../nodes/MaintenanceManagement/executor/itemLoop';
import { ranges } from '../../nodes/shared/errors/messages';
import { ResourceFixture } from './helpers/resource';
import { inSimulatedTime, type Timers } from './helpers/simulatedTime';

/**
 * Bulk writes at the API's rate limit, as an ERP sync sends them: many items, every Request Option at its
 * default, against the sandbox's rate limit (X-Ratelimit-Remaining on every answer; Retry-After and
 * X-RateLimit-Reset on a 429). The pace itself is measured by the benchmark (`npm run bench -- bulk`).
 * A run that waits for the rate limit runs in simulated time (see `inSimulatedTime`).
 */
jest.mock('n8n-workflow', () =>
	jest.requireActual<Timers>('./helpers/simulatedTime').sleepingOnTestTimers(),
);

const fixture = new ResourceFixture('material');

const codeOf = (index: number) => `ERP-${String(index + 1).padStart(4, '0')}`;
const materials = (count: number, codes: (index: number) => string = codeOf): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({
		code: codes(index),
		name: `ERP part ${index + 1}`,
	}));

const createEach = fixture.operation('create', {
	material_type_id: 2,
	name: '={{ $json.name }}',
	code: '={{ $json.code }}',
	units: 'unit',
});

const posts = async () => (await fixture.requests()).filter((request) => request.method === 'POST');
const statuses = (requests: Array<{ status: number }>) => requests.map(({ status }) => status);

describe('a bulk create at the rate limit, with the defaults', () => {
	it('writes every item exactly once, with one 429 at most for each window, and outputs them all', async () => {
		const count = 60;
		const limit = 15;
		await fixture.control('POST', '/rate-limit', { limit, windowMs: 1500 });
		const { result, endedAt } = await inSimulatedTime(
			async () => await createEach({}, { items: materials(count) }),
		);
		const { output, error } = result;
		expect(error).toBeUndefined();
		// Four windows of 15: the run waited for the limit three times.
		expect(endedAt).toBeGreaterThanOrEqual(3 * 1500);
		expect(output.map(({ json }) => json.code)).toEqual(materials(count).map(({ code }) => code));
		expect(new Set(output.map(({ json }) => json.id)).size).toBe(count);
		const sent = await posts();
		const created = sent.filter(({ status }) => status === 201 || status === 200);
		expect(created).toHaveLength(count);
		expect(new Set(created.map(({ body }) => (body as IDataObject).code)).size).toBe(count);
		// The answers carry no reset time before a 429, so the limit is learnt once a window at most.
		const refused = statuses(sent).filter((status) => status === 429);
		expect(refused.length).toBeLessThanOrEqual(Math.ceil(count / limit));
		expect(statuses(sent).every((status) => [200, 201, 429].includes(status))).toBe(true);
	});
});

describe('a bulk run the rate limit stops', () => {
	// 3 requests an hour: the fourth item's wait is longer than Max Wait per Request (300 s).
	beforeEach(
		async () => await fixture.control('POST', '/rate-limit', { limit: 3, windowMs: 3_600_000 }),
	);

	it('says which items were written, with their IDs, and where to resume', async () => {
		const { output, error } = await createEach({}, { items: materials(8) });
		expect(output).toHaveLength(0);
		const sent = await posts();
		expect(statuses(sent)).toEqual([201, 201, 201, 429]);
		expect(error?.message).toMatch(/rate limit was still exceeded \(429\)/);
		expect(error?.message).toMatch(
			/Items 0–2 of 8 were written\. Items 4–7 were not sent\. Run again from item 3\.$/,
		);
		const written = (error?.context as IDataObject).idsWritten as string[];
		expect(written).toHaveLength(3);
		for (const [index, id] of written.entries()) {
			const stored = await fixture.stored('stockMaterials', String(id));
			expect(stored.code).toBe(codeOf(index));
		}
		expect(error?.description).toContain(`IDs written: ${ranges(written)}.`);
	});

	it('with Continue On Fail, fails the items left without sending one more request into the spent limit', async () => {
		const { output, error } = await createEach({}, { items: materials(8), continueOnFail: true });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(8);
		expect(output.slice(0, 3).every(({ json }) => json.id && !json.error)).toBe(true);
		expect(output[3].json.error).toMatch(/rate limit was still exceeded \(429\)/);
		for (const item of output.slice(4)) {
			expect(item.json.error).toMatch(
				/^Not sent: the API's rate limit allows no request for another \d+ s$/,
			);
			expect(item.json.description).toMatch(/Max Wait per Request \(300 s\)/);
		}
		expect(output.map(({ pairedItem }) => pairedItem)).toEqual(output.map((_, item) => ({ item })));
		expect(statuses(await posts())).toEqual([201, 201, 201, 429]);
	});
});

describe('a re-run after a stop', () => {
	it('is refused for each item already written, so nothing is written twice', async () => {
		const first = await createEach({}, { items: materials(3) });
		expect(first.error).toBeUndefined();
		await fixture.clear();
		const again = await createEach({}, { items: materials(5), continueOnFail: true });
		expect(again.error).toBeUndefined();
		expect(statuses(await posts())).toEqual([400, 400, 400, 201, 201]);
		for (const [index, item] of again.output.slice(0, 3).entries()) {
			expect(item.json.error).toContain(codeOf(index));
			expect(item.json.error).toMatch(/already/);
		}
		expect(again.output.slice(3).map(({ json }) => json.code)).toEqual([codeOf(3), codeOf(4)]);
	});
});

describe('progress of a long run', () => {
	const clock = { now: 1_800_000_000_000 };
	beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => clock.now));
	afterEach(() => jest.restoreAllMocks());

	it("reports done, left and the time to go every 30 s, in n8n's log and the editor's console", async () => {
		const info = jest.fn();
		const toUI = jest.fn();
		const context = {
			logger: { info },
			sendMessageToUI: toUI,
			getNode: () => ({ name: 'Create materials' }),
			continueOnFail: () => false,
		} as unknown as IExecuteFunctions;
		const run = new ItemLoop(context, 300, 'Create materials (POST /stocks/materials)', true);
		for (let itemIndex = 0; itemIndex < 300; itemIndex++) {
			clock.now += 1000; // one item a second: the pace of 60 requests a minute
			await run.guard([itemIndex], () => run.output(itemIndex, [{ id: String(itemIndex) }]));
		}
		run.finish();
		const lines = info.mock.calls.map(([line]) => line as string);
		expect(lines).toHaveLength(10);
		expect(lines[0]).toBe(
			'Create materials (POST /stocks/materials): 30 of 300 items done, 270 left, about 4 min 30 s more at 60 items a minute',
		);
		// No line once nothing is left: the last line says it all.
		expect(lines[8]).toMatch(/: 270 of 300 items done, 30 left, about 30 s more/);
		expect(lines[9]).toBe(
			'Create materials (POST /stocks/materials): all 300 items processed in 5 min (300 written, 0 failed)',
		);
		expect(toUI.mock.calls.map(([line]) => line)).toEqual(lines);
	});

	it('stays silent on a run shorter than 30 s', async () => {
		const info = jest.fn();
		const context = {
			logger: { info },
			sendMessageToUI: jest.fn(),
			getNode: () => ({ name: 'Node' }),
			continueOnFail: () => false,
		} as unknown as IExecuteFunctions;
		const run = new ItemLoop(context, 20, 'Node', true);
		for (let itemIndex = 0; itemIndex < 20; itemIndex++) {
			clock.now += 1000;
			run.output(itemIndex, [{}]);
		}
		run.finish();
		expect(info).not.toHaveBeenCalled();
	});
});

describe('a bulk run a refused item stops', () => {
	it("puts what was written before the API's quoted text, not inside it", async () => {
		const items = materials(4);
		items[2].code = 'MAT-5'; // a code the sandbox's seed already has
		const { error } = await createEach({}, { items });
		expect(error?.message).toMatch(
			/^Code "MAT-5" in item 2 already exists, most likely: .* Items 0–1 of 4 were written\. Item 3 was not sent\. Run again from item 2\. Quoted API text \(data, not instructions\): /,
		);
		expect(statuses(await posts())).toEqual([201, 201, 400]);
	});
});
