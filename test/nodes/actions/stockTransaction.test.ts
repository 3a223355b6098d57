import type { IDataObject } from 'n8n-workflow';

import { expr } from '../helpers/harness';
import { expectItems, ResourceFixture } from '../helpers/resource';
import { cannotJoinBatch } from '../../../nodes/shared/errors/messages';

const fixture = new ResourceFixture('stockTransaction');

/** Seeded stock: every material has 100 units in every warehouse (1 to 4). */
const SEEDED = 100;

const stock = async (warehouse: number, material: number): Promise<number> =>
	((await fixture.control('GET', `/state/stock/${warehouse}:${material}`)) as { quantity: number })
		.quantity;

const transaction = (
	material_id: unknown,
	quantity: unknown,
	cost_price: unknown = 10,
	observations?: string,
) => ({
	material_id,
	quantity,
	cost_price,
	...(observations ? { observations } : {}),
});

const batch = fixture.operation('createBatch', {
	warehouseId: '1',
	action: 'WAREHOUSE_ADD',
	transactions: { items: [transaction(7, 5)] },
});

/** Items for the combined batch: each has its own transactions. */
const perItem = {
	warehouseId: '={{ String($json.warehouse ?? 1) }}',
	action: '={{ $json.action ?? "WAREHOUSE_ADD" }}',
	transactions: {},
	additionalFields: {
		transactions_json: '={{ JSON.stringify($json.lines) }}',
		observations: '={{ $json.note }}',
	},
};
const combined = (
	items: IDataObject[],
	continueOnFail = false,
	extra: Record<string, unknown> = {},
) =>
	batch({ ...perItem, batchOptions: { combineItems: true }, ...extra }, { items, continueOnFail });

describe('Stock Transaction: Create Batch', () => {
	it('sends the action, the transactions and the batch observations, and raises the stock', async () => {
		const created = await fixture.expectCreated(
			await batch({
				transactions: { items: [transaction(7, 5, 12, 'Pallet A'), transaction(8, 2, 0)] },
				additionalFields: { observations: 'Delivery 42' },
			}),
			'/stocks/warehouses/1/stock-transactions',
			{
				action: 'WAREHOUSE_ADD',
				transactions: [
					{ material_id: 7, quantity: 5, cost_price: 12, observations: 'Pallet A' },
					{ material_id: 8, quantity: 2, cost_price: 0 },
				],
				observations: 'Delivery 42',
			},
		);
		expect(created).toMatchObject({
			type: 'stock-transaction-batch',
			action: 'WAREHOUSE_ADD',
			observations: 'Delivery 42',
			transactions: [
				{
					type: 'stock-transaction',
					material_id: 7,
					quantity: 5,
					cost_price: 12,
					action: 'ADD',
					warehouse_id: 1,
				},
				{
					type: 'stock-transaction',
					material_id: 8,
					quantity: 2,
					cost_price: 0,
					action: 'ADD',
					warehouse_id: 1,
				},
			],
		});
		expect(created.id).toBe(created.stock_transaction_batch_id);
		expect(await stock(1, 7)).toBe(SEEDED + 5);
		expect(await stock(1, 8)).toBe(SEEDED + 2);
		expect(await stock(2, 7)).toBe(SEEDED);
	});

	it('WAREHOUSE_SUBTRACT lowers the stock', async () => {
		const { error } = await batch({
			warehouseId: '3',
			action: 'WAREHOUSE_SUBTRACT',
			transactions: { items: [transaction(9, 30)] },
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0].path).toBe('/stocks/warehouses/3/stock-transactions');
		expect(await stock(3, 9)).toBe(SEEDED - 30);
	});

	it('takes the transactions as JSON instead of the fields, e.g. from an expression', async () => {
		const lines = [transaction(7, 1, 3), transaction(8, 4, 5, 'loose')];
		await fixture.expectBody(
			await batch(
				{
					transactions: {},
					additionalFields: { transactions_json: '={{ JSON.stringify($json.lines) }}' },
				},
				{ items: [{ lines }] },
			),
			{
				action: 'WAREHOUSE_ADD',
				transactions: lines,
			},
		);
		expect(await stock(1, 8)).toBe(SEEDED + 4);
	});

	it.each<[string, Record<string, unknown>, string]>([
		['no transactions', { transactions: {} }, 'transactions'],
		[
			'a transaction without a material',
			{ transactions: { items: [transaction(0, 1)] } },
			'transactions[0].material_id',
		],
		[
			'a quantity of 0',
			{ transactions: { items: [transaction(7, 0)] } },
			'transactions[0].quantity',
		],
		[
			'a fractional quantity',
			{ transactions: { items: [transaction(7, 1), transaction(7, 1.5)] } },
			'transactions[1].quantity',
		],
		[
			'a fractional cost price',
			{ transactions: { items: [transaction(7, 1, 2.5)] } },
			'transactions[0].cost_price',
		],
		[
			'a negative cost price',
			{ transactions: { items: [transaction(7, 1, -1)] } },
			'transactions[0].cost_price',
		],
		[
			'a quantity that is not a number',
			{ transactions: { items: [transaction(7, 'many')] } },
			'transactions[0].quantity',
		],
		['an unknown action', { action: 'WAREHOUSE_MOVE' }, 'action'],
		['no warehouse', { warehouseId: '  ' }, 'warehouseId'],
		[
			'JSON transactions without a cost price',
			{
				transactions: {},
				additionalFields: { transactions_json: '[{"material_id": 7, "quantity": 1}]' },
			},
			'transactions[0].cost_price',
		],
		[
			'JSON transactions without a quantity',
			{
				transactions: {},
				additionalFields: { transactions_json: '[{"material_id": 7, "cost_price": 1}]' },
			},
			'transactions[0].quantity',
		],
		[
			'JSON transactions without a material',
			{
				transactions: {},
				additionalFields: { transactions_json: '[{"quantity": 1, "cost_price": 1}]' },
			},
			'transactions[0].material_id',
		],
		[
			'an empty JSON list',
			{ transactions: {}, additionalFields: { transactions_json: '[]' } },
			'transactions',
		],
		[
			'invalid JSON',
			{ transactions: {}, additionalFields: { transactions_json: '[{' } },
			'transactions_json',
		],
		[
			'transactions both as fields and as JSON',
			{ additionalFields: { transactions_json: '[]' } },
			'transactions',
		],
		[
			'an unknown key in the JSON',
			{
				transactions: {},
				additionalFields: {
					transactions_json: '[{"material_id": 7, "quantity": 1, "cost_price": 1, "price": 3}]',
				},
			},
			'transactions[0]',
		],
	])('rejects %s before sending anything', async (_label, parameters, field) => {
		const { error, requests } = await batch(parameters);
		expect(error?.context?.itemIndex).toBe(0);
		expect(error?.context?.fields).toContain(field);
		expect(requests).toHaveLength(0);
		expect(await fixture.requests()).toHaveLength(0);
		expect(await stock(1, 7)).toBe(SEEDED);
	});

	it('surfaces the API 400 when subtracting more than the stock, and leaves the stock as it was', async () => {
		const { error } = await batch({
			action: 'WAREHOUSE_SUBTRACT',
			transactions: { items: [transaction(7, SEEDED + 1)] },
		});
		expect(error?.message).toBe(
			'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "transactions": "Not enough stock of material 7 in warehouse 1."',
		);
		expect(error?.httpCode).toBe('400');
		expect(await stock(1, 7)).toBe(SEEDED);
	});

	it('surfaces 404 Resource not found for an unknown warehouse', async () => {
		const { error } = await batch({ warehouseId: '99' });
		expect(error?.message).toBe('Warehouse 99 was not found (404). Check the ID in the service.');
		expect(error?.description).toMatch(/POST \/stocks\/warehouses\/99\/stock-transactions/);
	});

	describe('one batch per item (One Batch for All Items off)', () => {
		it('sends one request per item, each its own batch', async () => {
			const { output, error } = await batch(perItem, {
				items: [
					{ lines: [transaction(7, 1)] },
					{ lines: [transaction(8, 2)], warehouse: 2 },
					{ lines: [transaction(7, 3)] },
				],
			});
			expect(error).toBeUndefined();
			await fixture.expectPaths([
				'/stocks/warehouses/1/stock-transactions',
				'/stocks/warehouses/2/stock-transactions',
				'/stocks/warehouses/1/stock-transactions',
			]);
			expect(output.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			expect(new Set(output.map((item) => item.json.id)).size).toBe(3);
			expect(await stock(1, 7)).toBe(SEEDED + 4);
			expect(await stock(2, 8)).toBe(SEEDED + 2);
		});

		it('with Continue On Fail, one bad item gives an error item and the others are sent', async () => {
			const { output, error } = await batch(perItem, {
				items: [
					{ lines: [transaction(7, 1)] },
					{ lines: [transaction(7, -2)] },
					{ lines: [transaction(7, 3)] },
				],
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(await fixture.requests()).toHaveLength(2);
			expect(output.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			expect(output[1].json.error).toMatch(
				/item 1: "transactions\[0\].quantity" \(Quantity\) must be more than 0/,
			);
			expect(output[2].json).toMatchObject({ transactions: [{ material_id: 7, quantity: 3 }] });
			expect(await stock(1, 7)).toBe(SEEDED + 4);
		});
	});

	describe('One Batch for All Items', () => {
		it('sends exactly 1 request for N items and pairs each output with its item and its own transactions', async () => {
			const items = [
				{ lines: [transaction(7, 1, 5), transaction(8, 2, 5)] },
				{ lines: [transaction(9, 3, 6)] },
				{ lines: [transaction(7, 4, 7), transaction(10, 5, 7), transaction(11, 6, 7)] },
				{ lines: [transaction(12, 7, 8)] },
				{ lines: [transaction(8, 8, 9)] },
			];
			const { output, error, requests } = await combined(items);
			expect(error).toBeUndefined();
			expect(requests).toHaveLength(1);
			const logged = await fixture.requests();
			expect(logged).toHaveLength(1);
			expect(logged[0]).toMatchObject({
				method: 'POST',
				path: '/stocks/warehouses/1/stock-transactions',
				status: 201,
			});
			expect(logged[0].body).toEqual({
				action: 'WAREHOUSE_ADD',
				transactions: items.flatMap((item) => item.lines),
			});
			expect(output).toHaveLength(5);
			const batchId = output[0].json.id;
			output.forEach((item, index) => {
				expect(item.pairedItem).toEqual({ item: index });
				expect(item.json).toMatchObject({
					id: batchId,
					type: 'stock-transaction-batch',
					action: 'WAREHOUSE_ADD',
				});
				const mine = (item.json.transactions as IDataObject[]).map((t) => [
					t.material_id,
					t.quantity,
					t.cost_price,
				]);
				expect(mine).toEqual(
					items[index].lines.map((t) => [t.material_id, t.quantity, t.cost_price]),
				);
			});
			expect(await stock(1, 7)).toBe(SEEDED + 5);
			expect(await stock(1, 8)).toBe(SEEDED + 10);
			expect(await stock(1, 12)).toBe(SEEDED + 7);
		});

		it('subtracts the whole combined batch at once', async () => {
			const { error } = await combined([
				{ action: 'WAREHOUSE_SUBTRACT', warehouse: 4, lines: [transaction(7, 10)] },
				{ action: 'WAREHOUSE_SUBTRACT', warehouse: 4, lines: [transaction(7, 15)] },
			]);
			expect(error).toBeUndefined();
			expect(await fixture.requests()).toHaveLength(1);
			expect(await stock(4, 7)).toBe(SEEDED - 25);
		});

		it('sends the batch observations that the items agree on, also when only some set them', async () => {
			const { output } = await combined([
				{ lines: [transaction(7, 1)] },
				{ lines: [transaction(8, 1)], note: 'Inventory count' },
				{ lines: [transaction(9, 1)], note: 'Inventory count' },
			]);
			expect((await fixture.requests())[0].body).toMatchObject({ observations: 'Inventory count' });
			expect(output.every((item) => item.json.observations === 'Inventory count')).toBe(true);
		});

		it('combines transactions given as JSON by each item', async () => {
			const { error } = await combined(
				[{ lines: [transaction(7, 1)] }, { lines: [transaction(8, 2)] }],
				false,
				{
					transactions: {},
					additionalFields: { transactions_json: '={{ JSON.stringify($json.lines) }}' },
				},
			);
			expect(error).toBeUndefined();
			expect((await fixture.requests())[0].body).toEqual({
				action: 'WAREHOUSE_ADD',
				transactions: [transaction(7, 1), transaction(8, 2)],
			});
		});

		/** Runs three items, `second` between two that join; expects the second refused and nothing sent. */
		const refusedSecond = async (second: IDataObject) => {
			const { error, requests } = await combined([
				{ lines: [transaction(7, 1)], note: 'First' },
				second,
				{ lines: [transaction(9, 1)], note: 'First' },
			]);
			expect(error?.context).toMatchObject({ itemIndex: 1 });
			expect(requests).toHaveLength(0);
			expect(await fixture.requests()).toHaveLength(0);
			expect(await stock(1, 7)).toBe(SEEDED);
			return error;
		};

		it.each<[string, IDataObject, string]>([
			['another warehouse', { warehouse: 2 }, "its Warehouse ID is 2, item 0's is 1"],
			[
				'another action',
				{ action: 'WAREHOUSE_SUBTRACT' },
				"its Action is WAREHOUSE_SUBTRACT, item 0's is WAREHOUSE_ADD",
			],
			[
				'other batch observations',
				{ note: 'Second' },
				"its batch Observations differ from item 0's",
			],
		])(
			'sends nothing when an item has %s, naming the item and the difference',
			async (_label, second, mismatch) => {
				const error = await refusedSecond({ lines: [transaction(8, 1)], ...second });
				expect({ message: error?.message, description: error?.description }).toEqual(
					cannotJoinBatch(1, mismatch),
				);
			},
		);

		it('sends nothing when an item has an invalid transaction, naming the item and the field', async () => {
			const error = await refusedSecond({ lines: [transaction(8, 1, 'free')] });
			expect(error?.context?.fields).toEqual(['transactions[0].cost_price']);
		});

		it('with Continue On Fail, bad items get error items and are left out of the one request', async () => {
			const { output, error } = await combined(
				[
					{ lines: [transaction(7, 1)] },
					{ lines: [transaction(7, 1)], warehouse: 2 },
					{ lines: [transaction(7, 0)] },
					{ lines: [transaction(8, 2), transaction(9, 3)] },
				],
				true,
			);
			expect(error).toBeUndefined();
			const logged = await fixture.requests();
			expect(logged).toHaveLength(1);
			expect((logged[0].body as IDataObject).transactions).toEqual([
				transaction(7, 1),
				transaction(8, 2),
				transaction(9, 3),
			]);
			expect(output.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
				{ item: 3 },
			]);
			expect(output[0].json).toMatchObject({ transactions: [{ material_id: 7, quantity: 1 }] });
			expect(output[1].json).toMatchObject({
				error: cannotJoinBatch(1, "its Warehouse ID is 2, item 0's is 1").message,
				outcome: 'refusedBeforeSending',
			});
			expect(output[2].json).toMatchObject({ outcome: 'refusedBeforeSending' });
			expect(output[2].json.error).toContain('"transactions[0].quantity"');
			expect((output[3].json.transactions as IDataObject[]).map((t) => t.material_id)).toEqual([
				8, 9,
			]);
			expect(output[0].json.id).toBe(output[3].json.id);
			expect(await stock(1, 7)).toBe(SEEDED + 1);
			expect(await stock(2, 7)).toBe(SEEDED);
		});

		it('with Continue On Fail, an API error marks every item of the combined request', async () => {
			const { output } = await combined(
				[
					{ action: 'WAREHOUSE_SUBTRACT', lines: [transaction(7, 60)] },
					{ action: 'WAREHOUSE_SUBTRACT', lines: [transaction(7, 60)] },
				],
				true,
			);
			expect(await fixture.requests()).toHaveLength(1);
			expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			output.forEach((item) =>
				expect(item.json.error).toBe(
					'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "transactions": "Not enough stock of material 7 in warehouse 1."',
				),
			);
			expect(await stock(1, 7)).toBe(SEEDED);
		});

		it('without Continue On Fail, an API error fails the run with the spec message', async () => {
			const { error } = await combined([
				{ warehouse: 99, lines: [transaction(7, 1)] },
				{ warehouse: 99, lines: [transaction(8, 1)] },
			]);
			expect(error?.message).toBe('Warehouse 99 was not found (404). Check the ID in the service.');
		});

		it('with Simplify off, each item still gets the batch and the transactions it contributed', async () => {
			const { output } = await combined(
				[{ lines: [transaction(7, 1)] }, { lines: [transaction(8, 2)] }],
				false,
				{ simplify: false },
			);
			expect(output[0].json).toMatchObject({
				type: 'stock-transaction-batch',
				attributes: { action: 'WAREHOUSE_ADD' },
			});
			expect(output[1].json.transactions).toEqual([
				expect.objectContaining({
					type: 'stock-transaction',
					attributes: expect.objectContaining({ material_id: 8, quantity: 2 }),
				}),
			]);
		});
	});
});

describe('Stock Transaction: Transfer', () => {
	const transfer = fixture.operation('transfer', {
		warehouse_from_id: 1,
		warehouse_to_id: 2,
		material_id: 7,
		quantity: 12,
	});

	it('sends the transfer, returns the transfer batch, and moves the stock between the warehouses', async () => {
		const created = await fixture.expectCreated(
			await transfer({ additionalFields: { observations: 'To site B' } }),
			'/stocks/stock-transactions/transfer',
			{
				warehouse_from_id: 1,
				warehouse_to_id: 2,
				material_id: 7,
				quantity: 12,
				observations: 'To site B',
			},
		);
		expect(created).toMatchObject({
			type: 'stock-transactions-batch',
			action: 'TRANSFER_STOCK',
			observations: 'To site B',
			source_id: 1,
		});
		expect(await stock(1, 7)).toBe(SEEDED - 12);
		expect(await stock(2, 7)).toBe(SEEDED + 12);
	});

	it('sends IDs and quantities given as text by expressions as integers', async () => {
		await fixture.expectBody(
			await transfer({
				warehouse_from_id: '3',
				warehouse_to_id: '4',
				material_id: '9',
				quantity: '5',
			}),
			{
				warehouse_from_id: 3,
				warehouse_to_id: 4,
				material_id: 9,
				quantity: 5,
			},
		);
		expect(await stock(4, 9)).toBe(SEEDED + 5);
	});

	fixture.itRefuses(
		transfer,
		[
			['the same warehouse on both ends', { warehouse_to_id: 1 }, 'warehouse_to_id'],
			[
				'the same warehouse, once as text',
				{ warehouse_from_id: '2', warehouse_to_id: 2 },
				'warehouse_to_id',
			],
			['no origin warehouse', { warehouse_from_id: 0 }, 'warehouse_from_id'],
			['no material', { material_id: 0 }, 'material_id'],
			['a quantity of 0', { quantity: 0 }, 'quantity'],
			['a fractional quantity', { quantity: 2.5 }, 'quantity'],
			['a quantity that is not a number', { quantity: 'ten' }, 'quantity'],
		],
		0,
	);

	it('surfaces the API 400 when the origin lacks the stock, and moves nothing', async () => {
		const { error } = await transfer({ quantity: SEEDED + 1 });
		expect(error?.message).toBe(
			'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "quantity": "Not enough stock in the origin warehouse."',
		);
		expect(error?.httpCode).toBe('400');
		expect(await stock(1, 7)).toBe(SEEDED);
		expect(await stock(2, 7)).toBe(SEEDED);
	});

	it('surfaces the API 400 for an unknown warehouse', async () => {
		const { error } = await transfer({ warehouse_to_id: 99 });
		expect(error?.message).toBe(
			'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "warehouse_to_id": "No warehouse has this id."',
		);
	});

	it('with Continue On Fail, a bad item gives an error item and the others are transferred, each paired', async () => {
		const { output, error } = await transfer(
			{
				warehouse_to_id: '={{ $json.to }}',
				quantity: '={{ $json.quantity }}',
			},
			{
				items: [
					{ to: 2, quantity: 5 },
					{ to: 1, quantity: 5 },
					{ to: 3, quantity: 7 },
					{ to: 2, quantity: 500 },
				],
				continueOnFail: true,
			},
		);
		expectItems({ output, error }, [
			{ action: 'TRANSFER_STOCK' },
			/item 1: "warehouse_to_id" \(To Warehouse ID\) must differ/,
			{ action: 'TRANSFER_STOCK' },
			/Not enough stock in the origin warehouse/,
		]);
		expect((await fixture.requests()).map((r) => r.status)).toEqual([201, 201, 400]);
		expect(await stock(1, 7)).toBe(SEEDED - 12);
		expect(await stock(2, 7)).toBe(SEEDED + 5);
		expect(await stock(3, 7)).toBe(SEEDED + 7);
	});

	it('a batch then a transfer: the stock reflects both', async () => {
		await batch({ warehouseId: '2', transactions: { items: [transaction(10, 40)] } });
		await transfer({ warehouse_from_id: 2, warehouse_to_id: 3, material_id: 10, quantity: 140 });
		expect(await stock(2, 10)).toBe(0);
		expect(await stock(3, 10)).toBe(SEEDED + 140);
	});
});

describe('Stock Transaction: createBatch refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('createBatch'), [
		[
			'a stock transaction without a material',
			{
				warehouseId: '1',
				action: 'WAREHOUSE_ADD',
				transactions: { items: [{ material_id: expr(''), quantity: 1, cost_price: 1 }] },
			},
			'transactions[0].material_id',
		],
		['a batch with no transactions', { warehouseId: '1', action: 'WAREHOUSE_ADD' }, 'transactions'],
	]);
});

describe('Stock Transaction: transfer refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('transfer'), [
		[
			'a transfer to the same warehouse',
			{ warehouse_from_id: 2, warehouse_to_id: 2, material_id: 3, quantity: 1 },
			'warehouse_to_id',
		],
	]);
});
