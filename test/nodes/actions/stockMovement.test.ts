import type { INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { pagesRead } from '../../helpers/sent';
import { firstPageQuery } from '../../helpers/paging';
import { runNode } from '../helpers/harness';
import { everyPageWithQuery, ResourceFixture } from '../helpers/resource';
import { inSimulatedTime, type Timers } from '../helpers/simulatedTime';

const node = new MaintenanceManagement();
// A retry waits on the node's sleep; the tests that retry run in simulated time.
jest.mock('n8n-workflow', () =>
	jest.requireActual<Timers>('../helpers/simulatedTime').sleepingOnTestTimers(),
);

const fixture = new ResourceFixture('stockMovement');

const getAll = (parameters: Record<string, unknown> = {}, credentials = fixture.credentials) =>
	runNode({
		node,
		credentials,
		parameters: { resource: 'stockMovement', operation: 'getAll', ...parameters },
	});

describe('Stock Movement: Get Many (deprecated)', () => {
	it('is marked deprecated, and its notice names the replacement and says no list replaces it', () => {
		const selector = fixture.operationSelector() as INodeProperties & {
			options: Array<{ value: string; description: string; action: string }>;
		};
		expect(selector.options).toHaveLength(1);
		expect(selector.options[0]).toMatchObject({
			value: 'getAll',
			action: 'Get many stock movements (deprecated)',
		});
		expect(selector.options[0].description).toMatch(/^\(Deprecated\)/);
		const resource = node.description.properties.find((p) => p.name === 'resource') as {
			options: Array<{ name: string; value: string }>;
		};
		expect(resource.options.find((o) => o.value === 'stockMovement')?.name).toBe(
			'Stock Movement (Deprecated)',
		);
		const notice = node.description.properties.find(
			(p) => p.type === 'notice' && p.displayOptions?.show?.resource?.includes('stockMovement'),
		);
		expect(notice?.displayName).toMatch(/Deprecated/);
		expect(notice?.displayName).toMatch(/Stock Transaction → Create Batch and Transfer/);
		expect(notice?.displayName).toMatch(/no endpoint that lists stock transactions/);
	});

	it('sends GET /stock-movements with the limit and returns one simplified item per movement', async () => {
		const { output, error } = await getAll({ limit: 5 });
		expect(error).toBeUndefined();
		const logged = await fixture.requests();
		expect(logged).toHaveLength(1);
		expect(logged[0]).toMatchObject({
			method: 'GET',
			path: '/stock-movements',
			query: { page: '1', limit: '5' },
			status: 200,
			body: null,
		});
		expect(output).toHaveLength(5);
		output.forEach((item) => {
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toMatchObject({
				type: 'stock-movement',
				stock_movement_id: Number(item.json.id),
			});
			expect(['ADDED', 'CONSUMED', 'MOVED']).toContain(item.json.action);
		});
		expect(output[0].json).toHaveProperty('warehouse_id');
		expect(output[0].json).toHaveProperty('date');
	});

	it('uses the default limit of 50 and returns all 40 seeded movements in one page', async () => {
		const { output } = await getAll();
		expect(output).toHaveLength(40);
		expect(await pagesRead(fixture)).toEqual(['1/50']);
	});

	it('with Simplify off, returns the API shape', async () => {
		const { output } = await getAll({ limit: 1, simplify: false });
		expect(output[0].json).toMatchObject({
			type: 'stock-movement',
			attributes: { stock_movement_id: 1 },
		});
		expect(output[0].json.stock_movement_id).toBeUndefined();
	});

	it('sends Query Parameters as given; the sandbox refuses the names the document does not list', async () => {
		const result = await getAll(everyPageWithQuery({ s_warehouse_id: '2', sort: 'date-' }));
		const [logged] = await fixture.requests();
		expect(logged.query).toEqual(firstPageQuery(2000, { s_warehouse_id: '2', sort: 'date-' }));
		fixture.expectUnlistedQuery(result, 'getStockMovements', ['s_warehouse_id', 'sort']);
	});

	describe('across pages', () => {
		fixture.itReadsEveryPage(getAll, 'stockMovements', 2600);

		it('a Limit of 2500 takes two equal pages and stops', async () => {
			const { output } = await getAll({ limit: 2500 });
			expect(output).toHaveLength(2500);
			expect(await pagesRead(fixture)).toEqual(['1/1250', '2/1250']);
		});
	});

	it('retries a read after a server error and succeeds', async () => {
		await fixture.control('POST', '/faults', {
			status: 500,
			count: 1,
			method: 'GET',
			path: '/stock-movements',
		});
		const { result } = await inSimulatedTime(
			async () =>
				await getAll({ limit: 3, requestOptions: { maxAttempts: 2, maxWaitSeconds: 10 } }),
		);
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(3);
		expect((await fixture.requests()).map((r) => r.status)).toEqual([500, 200]);
	});

	it("runs once per input item, pairing each item's movements with it", async () => {
		const { output } = await fixture.run(
			{
				resource: 'stockMovement',
				operation: 'getAll',
				limit: '={{ $json.n }}',
			},
			{ items: [{ n: 2 }, { n: 3 }] },
		);
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
			{ item: 1 },
		]);
	});
});
