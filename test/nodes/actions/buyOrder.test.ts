import type { INodeListSearchResult } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { firstQuery } from '../../helpers/sent';
import { firstPageQuery } from '../../helpers/paging';
import { expr, fromInput, loadOptionsContext, type SentRequest } from '../helpers/harness';
import { everyPageWithQuery, expectItems, ResourceFixture } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('buyOrder');

/** Seeded buy orders: order i is in state ['SAVED_AS_DRAFT', 'CREATED', 'RECEIVED_PARTIALLY', 'RECEIVED', 'CONFIRMED'][i % 5]. */
const DRAFT = '5';
const RECEIVED_PARTIALLY = '2';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const fromList = (value: string) => ({
	__rl: true,
	mode: 'list',
	value,
	cachedResultName: `PO-${value}`,
});

const getAll = fixture.operation('getAll');
const update = fixture.operation('update', { buyOrderId: byId(DRAFT) });
const stored = async (id: string) => await fixture.stored('buyOrders', id);

describe('Buy Order: Get Many', () => {
	it('sends GET /sales/buy-orders with page and limit, and returns one simplified item per order', async () => {
		const result = await getAll({ limit: 10 });
		await fixture.expectSent(result, {
			method: 'GET',
			path: '/sales/buy-orders',
			query: { page: '1', limit: '10' },
			body: null,
			status: 200,
		});
		const { output } = result;
		expect(output).toHaveLength(10);
		expect(output.map((item) => item.json.code)).toEqual(
			Array.from({ length: 10 }, (_, i) => `PO-${String(i + 1).padStart(4, '0')}`),
		);
		expect(output[0].json).toMatchObject({
			id: '1',
			type: 'buy_order',
			order_id: 1,
			state: 'CREATED',
			attribute_type: 'MATERIAL',
			supplier_id: 1,
		});
		expect(output[4].json).toMatchObject({ id: '5', state: 'SAVED_AS_DRAFT' });
	});

	it('uses the default limit of 50 and stops at the last page', async () => {
		const { output, requests } = await getAll();
		expect(requests).toHaveLength(1);
		expect(await firstQuery(fixture)).toEqual({ page: '1', limit: '50' });
		expect(output).toHaveLength(30);
	});

	it('with Simplify off, returns the orders in the API shape', async () => {
		const { output } = await getAll({ limit: 2, simplify: false });
		expect(output).toHaveLength(2);
		expect(output[0].json).toMatchObject({
			id: '1',
			type: 'buy_order',
			attributes: { code: 'PO-0001', state: 'CREATED' },
		});
		expect(output[0].json.code).toBeUndefined();
	});

	it('passes the Query Parameters option on, so the service filters the list', async () => {
		const { output, error } = await getAll(everyPageWithQuery({ s_code_like: 'PO-002%' }));
		expect(error).toBeUndefined();
		const [logged] = await fixture.requests();
		expect(logged.query).toEqual(firstPageQuery(2000, { s_code_like: 'PO-002%' }));
		expect(output.map((item) => item.json.code)).toEqual(
			Array.from({ length: 10 }, (_, i) => `PO-002${i}`),
		);
	});

	it('the sandbox refuses a Query Parameter the document does not list, naming it', async () => {
		const result = await getAll(everyPageWithQuery({ s_state: 'SAVED_AS_DRAFT' }));
		const [logged] = await fixture.requests();
		expect(logged.query).toEqual(firstPageQuery(2000, { s_state: 'SAVED_AS_DRAFT' }));
		fixture.expectUnlistedQuery(result, 'getBuyOrders', ['s_state']);
	});

	describe('across pages', () => {
		beforeEach(async () => await fixture.reset({ seed: { buyOrders: 4100 } }));

		it('Return All reads every page at limit 2000 until a short page', async () => {
			const { output, error } = await getAll({ returnAll: true });
			expect(error).toBeUndefined();
			expect((await fixture.requests()).map((r) => r.query)).toEqual([
				{ page: '1', limit: '2000' },
				{ page: '2', limit: '2000' },
				{ page: '3', limit: '2000' },
			]);
			expect(output).toHaveLength(4100);
			expect(new Set(output.map((item) => item.json.id)).size).toBe(4100);
			expect(output[4099].json).toMatchObject({ id: '4100', code: 'PO-4100' });
		});

		it('a Limit above the page maximum is split into equal pages and cut exactly', async () => {
			const { output } = await getAll({ limit: 2500 });
			expect((await fixture.requests()).map((r) => r.query)).toEqual([
				{ page: '1', limit: '1250' },
				{ page: '2', limit: '1250' },
			]);
			expect(output).toHaveLength(2500);
			expect(output[2499].json.id).toBe('2500');
		});
	});

	it('surfaces 403 Action unauthorized for a read-only token, without the token', async () => {
		const result = await getAll({}, { readOnly: true });
		fixture.expectUnauthorized(result);
		expect(result.output).toHaveLength(0);
		expect(result.error?.description).toMatch(/lacks the permission/);
	});

	it('with Continue On Fail, a 403 becomes an error item paired to its input', async () => {
		const { output, error } = await getAll(
			{},
			{ readOnly: true, continueOnFail: true, items: [{ a: 1 }, { a: 2 }] },
		);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(2);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		output.forEach((item) =>
			expect(item.json.error).toBe(
				"The token's user is not allowed to GET /sales/buy-orders (403). Use a token of a user with that permission.",
			),
		);
	});
});

describe('Buy Order: searchBuyOrders (resource locator list)', () => {
	const search = async (filter?: string, token?: string) => {
		const requests: SentRequest[] = [];
		const context = loadOptionsContext(node, fixture.credentials, requests);
		const result = (await node.methods!.listSearch!.searchBuyOrders.call(
			context,
			filter,
			token,
		)) as INodeListSearchResult;
		return { result, requests };
	};

	it('lists orders by code with their state, and searches the code', async () => {
		const { result } = await search('PO-001');
		const [logged] = await fixture.requests();
		expect(logged).toMatchObject({
			method: 'GET',
			path: '/sales/buy-orders',
			query: { page: '1', limit: '100', s_code_like: 'PO-001' },
		});
		expect(result.results).toEqual(
			Array.from({ length: 10 }, (_, i) => {
				const n = 10 + i;
				const state = ['SAVED_AS_DRAFT', 'CREATED', 'RECEIVED_PARTIALLY', 'RECEIVED', 'CONFIRMED'][
					n % 5
				];
				return { name: `PO-00${n} · ${state}`, value: String(n) };
			}),
		);
		expect(result.paginationToken).toBeUndefined();
	});

	it('pages through a long list with a pagination token', async () => {
		await fixture.reset({ seed: { buyOrders: 150 } });
		const first = await search();
		expect(first.result.results).toHaveLength(100);
		expect(first.result.paginationToken).toBe('2');
		const second = await search(undefined, first.result.paginationToken);
		expect(second.result.results).toHaveLength(50);
		expect(second.result.results[0]).toEqual({ name: 'PO-0101 · CREATED', value: '101' });
		expect(second.result.paginationToken).toBeUndefined();
		expect((await fixture.requests()).map((r) => r.query.page)).toEqual(['1', '2']);
	});
});

describe('Buy Order: Update', () => {
	it('sends only the fields that were set', async () => {
		await fixture.expectBody(await update({ updateFields: { external_sale_id: 'ERP-1' } }), {
			external_sale_id: 'ERP-1',
		});
		expect(await stored('5')).toMatchObject({ external_sale_id: 'ERP-1', supplier_id: 5 });
	});

	it('takes the order picked from the list as well as by ID', async () => {
		const { output, error } = await update({
			buyOrderId: fromList('7'),
			updateFields: { internal_sale_id: 'X' },
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0].path).toBe('/sales/buy-orders/7');
		expect(output[0].json.id).toBe('7');
	});

	it('takes IDs given as text by expressions and sends them as numbers', async () => {
		await fixture.expectBody(
			await update({
				updateFields: {
					supplier_id: ' 4 ',
					warehouse_id: '3',
					related_to_type: 'FAILURE',
					related_to_id: '12',
				},
			}),
			{
				supplier_id: 4,
				warehouse_id: 3,
				related_to_type: 'FAILURE',
				related_to_id: 12,
			},
		);
	});

	it.each([['null'], [' NULL ']])(
		'removes the supplier of a draft order with the word %p',
		async (value) => {
			expect((await stored(DRAFT)).supplier_id).toBe(5);
			const { output, error } = await update({ updateFields: { supplier_id: value } });
			expect(error).toBeUndefined();
			expect((await fixture.requests())[0].body).toEqual({ supplier_id: null });
			expect(output[0].json.supplier_id).toBeNull();
			expect((await stored(DRAFT)).supplier_id).toBeNull();
		},
	);

	it('clears description and sale references with the word null', async () => {
		await update({
			updateFields: { description: 'Old', internal_sale_id: 'I-1', external_sale_id: 'E-1' },
		});
		const { error } = await update({
			updateFields: { description: 'null', internal_sale_id: 'Null', external_sale_id: 'NULL' },
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[1].body).toEqual({
			description: null,
			internal_sale_id: null,
			external_sale_id: null,
		});
		expect(await stored(DRAFT)).toMatchObject({
			description: null,
			internal_sale_id: null,
			external_sale_id: null,
		});
	});

	it('removes the relation with Related To Type None, sending null for both fields', async () => {
		await update({ updateFields: { related_to_type: 'FAILURE', related_to_id: 9 } });
		expect(await stored(DRAFT)).toMatchObject({ related_to_type: 'FAILURE', related_to_id: 9 });
		const { output, error } = await update({ updateFields: { related_to_type: 'null' } });
		expect(error).toBeUndefined();
		expect((await fixture.requests())[1]).toMatchObject({
			status: 200,
			body: { related_to_type: null, related_to_id: null },
		});
		expect(output[0].json).toMatchObject({ related_to_type: null, related_to_id: null });
		expect(await stored(DRAFT)).toMatchObject({ related_to_type: null, related_to_id: null });
	});

	it('passes the API refusal on when the supplier is removed outside SAVED_AS_DRAFT, and changes nothing', async () => {
		const { error, requests } = await update({
			buyOrderId: byId(RECEIVED_PARTIALLY),
			updateFields: { supplier_id: 'null' },
		});
		expect(requests).toHaveLength(1);
		expect((await fixture.requests())[0]).toMatchObject({
			status: 400,
			body: { supplier_id: null },
		});
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toBe(
			'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "supplier_id": "The supplier can be removed only while the order is SAVED_AS_DRAFT."',
		);
		expect((await stored(RECEIVED_PARTIALLY)).supplier_id).toBe(2);
	});

	fixture.itRefuses(update, [
		[
			'Related To Type without Related To ID',
			{ updateFields: { related_to_type: 'FAILURE' } },
			'related_to_id',
		],
		[
			'Related To ID without Related To Type',
			{ updateFields: { related_to_id: 4 } },
			'related_to_type',
		],
		['no update field at all', { updateFields: {} }, 'updateFields'],
		['a supplier that is not an ID', { updateFields: { supplier_id: 'ACME' } }, 'supplier_id'],
		['a supplier of 0', { updateFields: { supplier_id: '0' } }, 'supplier_id'],
		[
			'a warehouse of 0 (the default once added)',
			{ updateFields: { warehouse_id: 0 } },
			'warehouse_id',
		],
		[
			'a related ID that is not whole',
			{ updateFields: { related_to_type: 'FAILURE', related_to_id: 2.5 } },
			'related_to_id',
		],
		[
			'Related To Type None with a Related To ID',
			{ updateFields: { related_to_type: 'null', related_to_id: 3 } },
			'related_to_id',
		],
		[
			'Related To Type with the word null as ID',
			{ updateFields: { related_to_type: 'FAILURE', related_to_id: 'null' } },
			'related_to_id',
		],
		[
			'an unknown related type',
			{ updateFields: { related_to_type: 'WORK', related_to_id: 2 } },
			'related_to_type',
		],
		['a description that is not text', { updateFields: { description: 12 } }, 'description'],
		[
			'an empty buy order ID',
			{ buyOrderId: byId(expr(' ')), updateFields: { description: 'x' } },
			'buyOrderId',
		],
	]);

	it('names the item index in a validation error', async () => {
		const { error } = await update(
			{ updateFields: fromInput('description', 'related_to_id') },
			{ items: [{ fields: { description: 'ok' } }, { fields: { related_to_id: 3 } }] },
		);
		expect(error?.context).toMatchObject({ itemIndex: 1, fields: ['related_to_type'] });
		expect((await fixture.requests()).map((r) => r.body)).toEqual([{ description: 'ok' }]);
	});

	it('surfaces 404 Resource not found for an unknown buy order', async () => {
		const result = await update({ buyOrderId: byId('99999'), updateFields: { description: 'x' } });
		fixture.expectNotFound(result, 'PATCH /sales/buy-orders/99999');
	});

	it('surfaces the API 400 for an unknown supplier', async () => {
		const { error } = await update({ updateFields: { supplier_id: '999' } });
		expect(error?.message).toBe(
			'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "supplier_id": "No supplier has this id."',
		);
	});

	it('surfaces 403 Action unauthorized for a read-only token, without the token', async () => {
		fixture.expectUnauthorized(
			await update({ updateFields: { description: 'x' } }, { readOnly: true }),
		);
		expect((await stored(DRAFT)).description).toBeNull();
	});

	it('with Continue On Fail, failing items give error items and the others are updated, each paired', async () => {
		const { output, error } = await update(
			{
				buyOrderId: byId('={{ String($json.id) }}'),
				updateFields: fromInput('external_sale_id', 'related_to_type'),
			},
			{
				continueOnFail: true,
				items: [
					{ id: 1, fields: { external_sale_id: 'E-1' } },
					{ id: 99999, fields: { external_sale_id: 'E-2' } },
					{ id: 3, fields: { related_to_type: 'FAILURE' } },
					{ id: 4, fields: { external_sale_id: 'E-4' } },
				],
			},
		);
		expectItems({ output, error }, [
			{ id: '1', external_sale_id: 'E-1' },
			'Buy order 99999 was not found (404). Check the ID, or list buy orders to find it.',
			/item 2: "related_to_id"/,
			{ id: '4', external_sale_id: 'E-4' },
		]);
		await fixture.expectPaths([
			'/sales/buy-orders/1',
			'/sales/buy-orders/99999',
			'/sales/buy-orders/4',
		]);
		expect((await stored('3')).related_to_type).toBeNull();
	});
});

describe('Buy Order: update refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('update'), [
		[
			'related_to_type without related_to_id',
			{ buyOrderId: byId('2'), updateFields: { related_to_type: 'FAILURE' } },
			'related_to_id',
		],
		[
			'related_to_id without related_to_type',
			{ buyOrderId: byId('2'), updateFields: { related_to_id: 3 } },
			'related_to_type',
		],
	]);
});
