import { sentField } from '../../helpers/sent';
import { expr } from '../helpers/harness';
import { SandboxFixture } from '../helpers/sandbox';

const fixture = new SandboxFixture();

beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

describe('items', () => {
	it('with Continue On Fail, one bad item yields an error item and the good ones are sent', async () => {
		await fixture.clear();
		const { output, error } = await fixture.run(
			{
				resource: 'material',
				operation: 'create',
				material_type_id: 2,
				name: 'Filter',
				code: '={{ $json.code }}',
				units: 'unit',
			},
			{ continueOnFail: true, items: [{ code: 'OK-1' }, { code: '' }, { code: 'OK-3' }] },
		);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ code: 'OK-1' });
		expect(output[1].json.error).toMatch(/"code"/);
		expect(output[2].json).toMatchObject({ code: 'OK-3' });
		expect(await sentField(fixture, 'code')).toEqual(['OK-1', 'OK-3']);
	});

	it('without Continue On Fail, the first bad item stops the run with its index', async () => {
		const { error } = await fixture.run(
			{
				resource: 'sellOrderLine',
				operation: 'create',
				sellOrderId: '1',
				type: 'SERVICE',
				unit_price: 1,
				quantity: '={{ $json.q }}',
				additionalFields: { description: 'x' },
			},
			{ items: [{ q: '1' }, { q: 'x' }] },
		);
		expect(error?.context).toMatchObject({ itemIndex: 1, fields: ['quantity'] });
	});
});

describe('validation errors are easy to read', () => {
	const twoProblems = {
		resource: 'stockTransaction',
		operation: 'transfer',
		warehouse_from_id: 'abc',
		warehouse_to_id: expr(''),
		material_id: '7',
		quantity: 1,
	};

	it('counts items from 1, as the editor does, and puts each problem on its own line of the error panel', async () => {
		await fixture.clear();
		const { error } = await fixture.run(twoProblems, { items: [{}] });
		expect(error?.message).toMatch(
			/^Invalid input in item 0: "warehouse_from_id" \(From Warehouse ID\).*\(and 1 more problem\(s\)\)$/,
		);
		expect(error?.description?.split('<br>')).toEqual([
			expect.stringMatching(/^"warehouse_from_id" \(From Warehouse ID\) must be a whole number/),
			expect.stringMatching(/^"warehouse_to_id" \(To Warehouse ID\) is required/),
			'Fix the field(s) above and run again. No request was sent for this item.',
		]);
		expect(await fixture.requests()).toHaveLength(0);
	});

	it('names each failing field in the error, and the item', async () => {
		const { error } = await fixture.run(twoProblems, { items: [{}, {}] });
		expect(error?.context).toMatchObject({
			itemIndex: 0,
			fields: ['warehouse_from_id', 'warehouse_to_id'],
		});
	});

	it("gives an error item plain text lines, not the panel's HTML breaks", async () => {
		const { output } = await fixture.run(twoProblems, { items: [{}], continueOnFail: true });
		const description = String(output[0].json.description);
		expect(description).not.toContain('<br>');
		expect(description.split('\n')).toHaveLength(3);
	});
});
