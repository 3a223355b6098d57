import type { INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { expectEveryRecord, firstQuery, pagesRead } from '../../helpers/sent';
import { firstPageQuery } from '../../helpers/paging';
import { runNode } from '../helpers/harness';
import { everyPageWithQuery, ResourceFixture } from '../helpers/resource';
import type { RunAgainst } from '../helpers/sandbox';
import { inSimulatedTime, type Timers } from '../helpers/simulatedTime';
import type { OperationName } from '../../../nodes/MaintenanceManagement/actions/resources';

const node = new MaintenanceManagement();
// A retry waits on the node's sleep; the tests that retry run in simulated time.
jest.mock('n8n-workflow', () =>
	jest.requireActual<Timers>('../helpers/simulatedTime').sleepingOnTestTimers(),
);

const fixture = new ResourceFixture('failure');

/**
 * Seeded work orders (48 by default): order i has status
 * ['WAITING_APPROVAL', 'WAITING_RESOLUTION', 'IN_RESOLUTION', 'PAUSED', 'COMPLETED', 'ARCHIVED'][i % 6],
 * so 32 of the 48 are open; order i is assigned operator (i % 10) + 1.
 */
const OPEN = ['WAITING_APPROVAL', 'WAITING_RESOLUTION', 'IN_RESOLUTION', 'PAUSED'];

const run = (
	operation: OperationName<'failure'>,
	parameters: Record<string, unknown> = {},
	options: RunAgainst = {},
) => fixture.run({ resource: 'failure', operation, ...parameters }, options);

describe('Work Order (Failure): the operation selector', () => {
	it('offers Get Many and Get Many Open with their action labels', () => {
		fixture.expectOperations([
			{ name: 'Get Many', value: 'getAll', action: 'Get many work orders' },
			{ name: 'Get Many Open', value: 'getAllOpen', action: 'Get many open work orders' },
		]);
	});

	it('offers exactly the relations the spec expands, on both lists', () => {
		for (const operation of ['getAll', 'getAllOpen'] as const) {
			expect(
				(fixture.property(operation, 'expanded').options ?? []).map(
					(o) => (o as { value: string }).value,
				),
			).toEqual(['assignees', 'eventsPlanned']);
		}
	});
});

describe('Work Order (Failure): Get Many', () => {
	it('sends GET /failures with page and the default limit of 50, one simplified item per work order', async () => {
		const output = await fixture.expectFirstPage(await run('getAll'), '/failures', 48, 'WO');
		expect(output[2].json).toMatchObject({
			id: '3',
			type: 'failure',
			failure_id: 3,
			status: 'PAUSED',
			problem_id: 4,
			local_id: 4,
		});
		expect(output[2].json).not.toHaveProperty('attributes');
		expect(output[2].json).not.toHaveProperty('assignees');
	});

	it('asks for the chosen relations in expanded and nests them under their names', async () => {
		const { output, error } = await run('getAll', {
			limit: 2,
			expanded: ['assignees', 'eventsPlanned'],
		});
		await fixture.expectFirstQuery({ error }, 2, { expanded: 'assignees,eventsPlanned' });
		expect(output).toHaveLength(2);
		expect(output[0].json.assignees).toEqual([
			expect.objectContaining({ type: 'failure_assignee', operator_id: 2, failure_id: 1 }),
		]);
		expect(output[1].json.assignees).toEqual([
			expect.objectContaining({ operator_id: 3, failure_id: 2 }),
		]);
		expect(output[0].json.eventsPlanned).toEqual([]);
	});

	it('with Simplify off, returns the API shape with the related records beside it', async () => {
		const { output } = await run('getAll', { limit: 1, expanded: ['assignees'], simplify: false });
		expect(output).toHaveLength(1);
		const record = output[0].json;
		expect(record).toMatchObject({
			id: '1',
			type: 'failure',
			attributes: expect.objectContaining({ code: 'WO-1', status: 'WAITING_RESOLUTION' }),
		});
		expect(record.relationships).toEqual({
			assignees: { data: [{ type: 'failure_assignee', id: '1-2' }] },
		});
		expect(record.included).toEqual([
			expect.objectContaining({ type: 'failure_assignee', id: '1-2' }),
		]);
	});

	it('passes the service filters of Query Parameters through', async () => {
		const { output } = await run(
			'getAll',
			everyPageWithQuery({ s_priority_in: '4', sort: 'start_date' }),
		);
		expect(await firstQuery(fixture)).toEqual(
			firstPageQuery(2000, { s_priority_in: '4', sort: 'start_date' }),
		);
		expect(output).toHaveLength(12);
		expect(output.every((item) => item.json.priority === 4)).toBe(true);
		const starts = output.map(({ json }) => String(json.start_date));
		expect(starts).toEqual([...starts].sort());
		expect(new Set(starts).size).toBe(12);
	});
});

describe('Work Order (Failure): Get Many with named filters', () => {
	it('finds the work orders awaiting approval, by priority and location, newest first, in the service syntax', async () => {
		const filters = {
			s_status_in: ['WAITING_APPROVAL'],
			s_priority_in: ['3', '4'],
			date_min_start_date: '2020-01-01T00:00:00',
			sort: 'start_date-',
		};
		const { output, error } = await run('getAll', { returnAll: true, filters });
		await fixture.expectFirstQuery({ error }, 2000, {
			s_status_in: 'WAITING_APPROVAL',
			s_priority_in: '3,4',
			date_min_start_date: '2020-01-01T00:00:00',
			sort: 'start_date-',
		});
		expect(output.length).toBeGreaterThan(0);
		for (const { json } of output) {
			expect(json.status).toBe('WAITING_APPROVAL');
			expect([3, 4]).toContain(json.priority);
		}
		const starts = output.map(({ json }) => String(json.start_date));
		expect(starts).toEqual([...starts].sort().reverse());
	});

	it("offers the filters in users' words, sorted by name, with the API name in each description", () => {
		const options = (fixture.property('getAll', 'filters').options ?? []) as INodeProperties[];
		const names = options.map((o) => o.displayName);
		expect(names).toEqual([...names].sort());
		expect(names).toEqual(
			expect.arrayContaining(['Status', 'Priority', 'Location ID', 'Problem ID', 'Sort']),
		);
		for (const option of options) expect(option.description).toContain(option.name);
	});

	fixture.itRefuses(fixture.operation('getAll'), [
		['a status outside the spec list', { filters: { s_status_in: ['OPEN'] } }, 's_status_in'],
		['a priority of 5', { filters: { s_priority_in: ['5'] } }, 's_priority_in'],
		[
			'a reported-after date that is no date',
			{ filters: { date_min_start_date: 'yesterday' } },
			'date_min_start_date',
		],
		['a location ID of 0', { filters: { s_local_id: 0 } }, 's_local_id'],
	]);
});

describe('Work Order (Failure): Get Many Open', () => {
	it('sends GET /failures/open and returns only open work orders', async () => {
		const { output, error } = await run('getAllOpen', { returnAll: true });
		expect(error).toBeUndefined();
		expect(await fixture.requests()).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/failures/open',
				query: { page: '1', limit: '2000' },
				status: 200,
			}),
		]);
		expect(output).toHaveLength(32);
		expect(output.every((item) => OPEN.includes(item.json.status as string))).toBe(true);
		output.forEach((item) => expect(item.pairedItem).toEqual({ item: 0 }));
	});

	it('sends every filter under its API name, and the plain local_id through Query Parameters', async () => {
		const filters = {
			approved_date: '2026-01-02',
			failure_id: 3,
			last_status_change_date: '2026-01-01 21:00',
			s_local_id: 4,
			problem_id: 4,
			start_date: '2026-01-01',
			status: 'PAUSED',
		};
		const { output, error } = await run('getAllOpen', {
			filters,
			expanded: ['assignees'],
			options: { queryParameters: { parameters: [{ name: 'local_id', value: '4' }] } },
		});
		await fixture.expectFirstQuery({ error }, 50, {
			expanded: 'assignees',
			approved_date: '2026-01-02',
			failure_id: '3',
			last_status_change_date: '2026-01-01 21:00',
			local_id: '4',
			s_local_id: '4',
			problem_id: '4',
			start_date: '2026-01-01',
			status: 'PAUSED',
		});
		expect(output.map((item) => item.json.code)).toEqual(['WO-3']);
		expect(output[0].json.assignees).toEqual([expect.objectContaining({ operator_id: 4 })]);
	});

	it('filters by location with s_local_id alone', async () => {
		const { output } = await run('getAllOpen', { returnAll: true, filters: { s_local_id: 4 } });
		expect(await firstQuery(fixture)).toEqual(firstPageQuery(2000, { s_local_id: '4' }));
		expect(output.length).toBeGreaterThan(0);
		expect(
			output.every((item) => item.json.local_id === 4 && OPEN.includes(item.json.status as string)),
		).toBe(true);
	});

	it('gives an empty list, not an error, for status COMPLETED', async () => {
		const { output, error, requests } = await run('getAllOpen', {
			filters: { status: 'COMPLETED' },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(output).toEqual([]);
	});

	it('offers one location filter, clearly named, and lists the spec statuses sorted by name', () => {
		const options = (fixture.property('getAllOpen', 'filters').options ?? []) as INodeProperties[];
		expect(options.map((o) => o.name).sort()).toEqual(
			[
				'approved_date',
				'completed_date',
				'failure_id',
				'last_status_change_date',
				'problem_id',
				's_local_id',
				'start_date',
				'status',
			].sort(),
		);
		const locations = options.filter((o) => /location/i.test(o.displayName));
		expect(locations.map((o) => [o.name, o.displayName])).toEqual([['s_local_id', 'Location ID']]);
		expect(locations[0].description).toMatch(/s_local_id, the exact-match filter/);
		const status = options.find((o) => o.name === 'status')!;
		const names = (status.options ?? []).map((o) => (o as { name: string }).name);
		expect(names).toEqual([...names].sort());
		expect((status.options ?? []).map((o) => (o as { value: string }).value).sort()).toEqual([
			'ARCHIVED',
			'COMPLETED',
			'IN_RESOLUTION',
			'PAUSED',
			'WAITING_APPROVAL',
			'WAITING_RESOLUTION',
		]);
		expect(status.description).toMatch(/COMPLETED or ARCHIVED/);
	});
});

describe('Work Order (Failure): filters checked before sending', () => {
	fixture.itRefuses(fixture.operation('getAllOpen'), [
		['a failure ID that is not a number', { filters: { failure_id: 'abc' } }, 'failure_id'],
		['a location ID of 0', { filters: { s_local_id: 0 } }, 's_local_id'],
		['a problem ID below 1', { filters: { problem_id: -3 } }, 'problem_id'],
		['a status outside the spec', { filters: { status: 'OPEN' } }, 'status'],
	]);

	it('accepts IDs given as text by an expression', async () => {
		const { output, error } = await run('getAllOpen', { filters: { failure_id: '={{ "3" }}' } });
		await fixture.expectFirstQuery({ error }, 50, { failure_id: '3' });
		expect(output.map((item) => item.json.code)).toContain('WO-3');
	});

	it('leaves the free Query Parameters to the service: only the Filters are checked', async () => {
		const { error } = await run('getAllOpen', {
			options: { queryParameters: { parameters: [{ name: 'failure_id', value: 'WO-3' }] } },
		});
		await fixture.expectFirstQuery({ error }, 50, { failure_id: 'WO-3' });
		// The user's own parameter breaks the spec (failure_id is an integer): the contract check says so.
		expect(fixture.takeViolations()).toEqual([
			expect.objectContaining({ kind: 'request', message: 'query failure_id must be integer' }),
		]);
	});
});

describe('Work Order (Failure): items', () => {
	const byLocation = { s_local_id: '={{ $json.location }}' };

	it('with Continue On Fail, a bad item yields an error item paired with it and the others are read', async () => {
		const { output, error } = await run(
			'getAllOpen',
			{ limit: 2, filters: byLocation },
			{ items: [{ location: 4 }, { location: 'lobby' }, { location: 4 }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 2 },
		]);
		expect(output[2].json).toMatchObject({ outcome: 'refusedBeforeSending' });
		expect(output[2].json.error).toContain('"s_local_id"');
		expect(output[0].json.local_id).toBe(4);
		expect(output[4].json.local_id).toBe(4);
		expect((await fixture.requests()).map((r) => r.query.s_local_id)).toEqual(['4', '4']);
	});

	it('without Continue On Fail, the bad item stops the run with its index, after the good one before it', async () => {
		const { error } = await run(
			'getAllOpen',
			{ limit: 1, filters: byLocation },
			{ items: [{ location: 4 }, { location: 'x' }, { location: 4 }] },
		);
		expect(error?.message).toBe(
			'Invalid input in item 1: "s_local_id" (Location ID) must be a whole number (an ID). Item 0 of 3 was read. Item 2 was not sent. Run again from item 1.',
		);
		expect(await fixture.requests()).toHaveLength(1);
	});
});

describe('Work Order (Failure): API errors', () => {
	it('401 with the spec message for a token of the other environment, without the token', async () => {
		const token = fixture.sandbox.environments.production.token;
		const { error } = await runNode({
			node,
			credentials: { ...fixture.credentials, accessToken: token },
			parameters: { resource: 'failure', operation: 'getAllOpen' },
		});
		expect(error?.message).toBe(
			'The access token was rejected (401). Check the token in the credential, and that it was issued in the sandbox environment.',
		);
		expect(error?.httpCode).toBe('401');
		expect(
			JSON.stringify({ message: error?.message, description: error?.description }),
		).not.toContain(token);
	});

	it('500 with the spec message once the attempts are used up', async () => {
		await fixture.control('POST', '/faults', { status: 500, count: 5, path: '/failures/open' });
		const { result } = await inSimulatedTime(
			async () =>
				await run('getAllOpen', { requestOptions: { maxAttempts: 2, maxWaitSeconds: 0 } }),
		);
		const { error } = result;
		expect(error?.message).toBe(
			'The service failed on GET /failures/open (500), also on retry. Check the filters and query parameters (the API answers 500 for an s_ filter it does not support), then try again.',
		);
		expect(error?.httpCode).toBe('500');
	});

	it('with Continue On Fail, an API error becomes the error item of each item', async () => {
		await fixture.control('POST', '/faults', { status: 500, count: 1, path: '/failures' });
		const { output, error } = await run(
			'getAll',
			{ limit: 1, requestOptions: { maxAttempts: 1 } },
			{ items: [{}, {}], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(output[0]).toEqual({
			json: expect.objectContaining({
				error: expect.stringMatching(/^The service failed on GET \/failures \(500\)/),
				description: expect.stringContaining('An error has occurred during the request.'),
			}),
			pairedItem: { item: 0 },
		});
		expect(output[1]).toMatchObject({ json: { code: 'WO-1' }, pairedItem: { item: 1 } });
	});
});

describe('Work Order (Failure): pages', () => {
	beforeEach(async () => await fixture.reset({ seed: { failures: 4500 } }));

	it('Return All reads every page of open work orders at 2000 a page', async () => {
		const result = await run('getAllOpen', { returnAll: true });
		await expectEveryRecord(result, fixture, 3000, ['1/2000', '2/2000']);
		expect(result.output.every((item) => OPEN.includes(item.json.status as string))).toBe(true);
	});

	it("Return All reads every record of a resource whose page size the server caps, as the live API's are", async () => {
		await fixture.reset({
			seed: { failures: 4500 },
			pageCaps: { failures: 400, 'failures/open': 700 },
		});
		for (const [operation, total] of [
			['getAll', 4500],
			['getAllOpen', 3000],
		] as const) {
			await fixture.clear();
			const { output, error } = await run(operation, { returnAll: true });
			expect(error).toBeUndefined();
			expect(output).toHaveLength(total);
			expect(new Set(output.map((item) => item.json.id)).size).toBe(total);
			const cap = operation === 'getAll' ? 400 : 700;
			expect((await fixture.requests()).length).toBe(Math.ceil(total / cap));
		}
	});

	it('a Limit above 2000 reads equal pages with the filters, and stops at a short page', async () => {
		const { output } = await run('getAllOpen', {
			limit: 2500,
			filters: { status: 'PAUSED' },
		});
		expect(output).toHaveLength(750);
		expect(output.every((item) => item.json.status === 'PAUSED')).toBe(true);
		const logged = await fixture.requests();
		expect(logged.map((r) => r.query)).toEqual([{ page: '1', limit: '1250', status: 'PAUSED' }]);
	});

	it('a Limit of 2500 on Get Many stops after two pages of 1250', async () => {
		const { output } = await run('getAll', { limit: 2500 });
		expect(output).toHaveLength(2500);
		expect(output[2499].json.code).toBe('WO-2500');
		expect(await pagesRead(fixture)).toEqual(['1/1250', '2/1250']);
	});
});

describe('Work Order (Failure): one by its ID, as the README shows', () => {
	it('Get Many Open with Filters → Failure ID gives that work order alone while it is open', async () => {
		const { output, error } = await run('getAllOpen', { filters: { failure_id: 3 } });
		await fixture.expectFirstQuery({ error }, 50, { failure_id: '3' });
		expect(output.map(({ json }) => [json.id, json.status])).toEqual([['3', 'PAUSED']]);
	});

	it('a completed one is not open: Get Many with the query parameter s_failure_id gives it', async () => {
		const open = await run('getAllOpen', { filters: { failure_id: 4 } });
		expect(open.error).toBeUndefined();
		expect(open.output).toEqual([]);
		const { output, error, requests } = await run('getAll', {
			options: { queryParameters: { parameters: [{ name: 's_failure_id', value: '4' }] } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect((await fixture.requests()).at(-1)).toMatchObject({
			path: '/failures',
			query: firstPageQuery(50, { s_failure_id: '4' }),
		});
		expect(output.map(({ json }) => [json.id, json.status])).toEqual([['4', 'COMPLETED']]);
	});
});
