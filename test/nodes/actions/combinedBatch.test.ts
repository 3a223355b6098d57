import type { IDataObject } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { cannotJoinBatch } from '../../../nodes/shared/errors/messages';
import { STOCK_FROM_ROW } from '../../helpers/rows';
import { runNode } from '../helpers/harness';
import { SandboxFixture } from '../helpers/sandbox';

const node = new MaintenanceManagement();
const fixture = new SandboxFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

describe('combined stock batch', () => {
	const batch = (combine: boolean, items: IDataObject[], continueOnFail = false) =>
		runNode({
			node,
			credentials: fixture.credentials,
			continueOnFail,
			items,
			parameters: {
				...STOCK_FROM_ROW,
				warehouseId: '={{ String($json.warehouse ?? 1) }}',
				batchOptions: { combineItems: combine },
			},
		});

	it('sends one request for all items and pairs each output with its item', async () => {
		await fixture.clear();
		const before = (await fixture.control('GET', '/state/stock/1:7')) as { quantity: number };
		const { output, error } = await batch(true, [
			{ material: 7, quantity: 1 },
			{ material: 8, quantity: 2 },
			{ material: 7, quantity: 3 },
		]);
		expect(error).toBeUndefined();
		const logged = await fixture.requests();
		expect(logged).toHaveLength(1);
		expect((logged[0].body as IDataObject).transactions).toHaveLength(3);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect((output[1].json.transactions as IDataObject[]).map((t) => t.material_id)).toEqual([8]);
		expect(output[0].json.id).toBe(output[2].json.id);
		expect(await fixture.control('GET', '/state/stock/1:7')).toMatchObject({
			quantity: before.quantity + 4,
		});
	});

	it('without combining, each item sends its own batch', async () => {
		await fixture.clear();
		const { output } = await batch(false, [
			{ material: 7, quantity: 1 },
			{ material: 8, quantity: 1 },
		]);
		expect(await fixture.requests()).toHaveLength(2);
		expect(output[0].json.id).not.toBe(output[1].json.id);
	});

	it('keeps the good items when one differs in warehouse or is invalid, with Continue On Fail', async () => {
		await fixture.clear();
		const { output } = await batch(
			true,
			[
				{ material: 7, quantity: 1 },
				{ material: 7, quantity: 1, warehouse: 2 },
				{ material: 7, quantity: 0 },
				{ material: 8, quantity: 1 },
			],
			true,
		);
		expect(await fixture.requests()).toHaveLength(1);
		expect(output[1].json).toMatchObject({
			error: cannotJoinBatch(1, "its Warehouse ID is 2, item 0's is 1").message,
			outcome: 'refusedBeforeSending',
		});
		expect(output[2].json).toMatchObject({ outcome: 'refusedBeforeSending' });
		expect(output[2].json.error).toContain('quantity"');
		expect(output[3].json.transactions).toEqual([expect.objectContaining({ material_id: 8 })]);
	});
});
