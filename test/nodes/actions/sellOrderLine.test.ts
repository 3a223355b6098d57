import { sentField } from '../../helpers/sent';
import { expr } from '../helpers/harness';
import { expectItems, ResourceFixture } from '../helpers/resource';

const fixture = new ResourceFixture('sellOrderLine');

const create = fixture.operation('create', {
	sellOrderId: '3',
	type: 'SERVICE',
	quantity: '2',
	unit_price: 40,
	additionalFields: { description: 'Labour' },
});
const line = async (id: string) => await fixture.stored('sellOrderLines', id);

describe('Sell Order Line: Create', () => {
	it('sends a MATERIAL line with expanded relations, and resolves them from included', async () => {
		const { output, error, requests } = await create({
			type: 'MATERIAL',
			quantity: '2.5',
			unit_price: 10,
			additionalFields: { material_id: 3, discount: 10, vat: 23 },
			expanded: ['cost_center', 'material', 'other_cost'],
		});
		const logged = await fixture.expectSent(
			{ output, error, requests },
			{
				method: 'POST',
				path: '/sales/sell-orders/3/lines',
				query: { expanded: 'cost_center,material,other_cost' },
				status: 201,
			},
		);
		expect(logged.body).toEqual({
			type: 'MATERIAL',
			quantity: '2.5',
			unit_price: 10,
			material_id: 3,
			discount: 10,
			vat: 23,
		});
		expect(output).toHaveLength(1);
		const item = output[0].json;
		expect(item).toMatchObject({
			type: 'sell_order_line',
			attribute_type: 'MATERIAL',
			quantity: '2.5',
			unit_price: 10,
			material_id: 3,
			base_total: 25,
			discount_total: 2.5,
			total: 22.5,
		});
		expect(item.vat_total).toBeCloseTo(5.175, 10);
		expect(item.material).toMatchObject({ id: '3', type: 'stock-material', code: 'MAT-3' });
		expect(item.cost_center).toMatchObject({
			id: '1',
			type: 'cost_center',
			code: 'CC-1',
			name: 'Cost center 1',
		});
		expect(item.other_cost).toBeNull();
		expect(await line(String(item.id))).toMatchObject({
			sell_order_id: 3,
			material_id: 3,
			quantity: '2.5',
		});
	});

	it('sends a SERVICE line with every additional field', async () => {
		const { output, error } = await create({
			quantity: '1.5',
			unit_price: 35.5,
			additionalFields: {
				description: 'Boiler service',
				observations: 'Night shift',
				unit: 'h',
				discount: 5,
				vat: 6,
			},
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0]).toMatchObject({ query: {} });
		expect((await fixture.requests())[0].body).toEqual({
			type: 'SERVICE',
			quantity: '1.5',
			unit_price: 35.5,
			description: 'Boiler service',
			observations: 'Night shift',
			unit: 'h',
			discount: 5,
			vat: 6,
		});
		expect(output[0].json).toMatchObject({
			attribute_type: 'SERVICE',
			description: 'Boiler service',
			unit: 'h',
			base_total: 53.25,
		});
		expect(output[0].json.material).toBeUndefined();
	});

	it('sends an OTHER_COST line and resolves the other cost', async () => {
		const { output, error } = await create({
			type: 'OTHER_COST',
			quantity: '12',
			unit_price: 0.6,
			additionalFields: { other_cost_id: 2 },
			expanded: ['other_cost'],
		});
		expect(error).toBeUndefined();
		const [logged] = await fixture.requests();
		expect(logged.query).toEqual({ expanded: 'other_cost' });
		expect(logged.body).toEqual({
			type: 'OTHER_COST',
			quantity: '12',
			unit_price: 0.6,
			other_cost_id: 2,
		});
		expect(output[0].json.other_cost).toMatchObject({
			id: '2',
			type: 'other-cost',
			name: 'Travel 2',
			unit: 'km',
		});
		expect(output[0].json.cost_center).toBeUndefined();
	});

	it('sends the quantity as a numeric string also when an expression gives a number or spaces', async () => {
		const { error } = await create(
			{ quantity: '={{ $json.q }}' },
			{ items: [{ q: 4 }, { q: ' 0.25 ' }] },
		);
		expect(error).toBeUndefined();
		expect(await sentField(fixture, 'quantity')).toEqual(['4', '0.25']);
	});

	it('with Simplify off, returns the line in the API shape with its included records', async () => {
		const { output } = await create({
			type: 'MATERIAL',
			additionalFields: { material_id: 2 },
			expanded: ['material'],
			simplify: false,
		});
		expect(output[0].json).toMatchObject({
			type: 'sell_order_line',
			attributes: { type: 'MATERIAL', material_id: 2 },
			relationships: { material: { data: { type: 'stock-material', id: '2' } } },
			included: [{ type: 'stock-material', id: '2' }],
		});
	});

	fixture.itRefuses(create, [
		[
			'a SERVICE line whose description is only spaces',
			{ additionalFields: { description: '   ' } },
			'description',
		],
		[
			'an OTHER_COST line without an other cost',
			{ type: 'OTHER_COST', additionalFields: {} },
			'other_cost_id',
		],
		['a quantity with a decimal comma', { quantity: '1,5' }, 'quantity'],
		['no quantity', { quantity: expr('') }, 'quantity'],
		['a unit price that is not a number', { unit_price: 'ten' }, 'unit_price'],
		[
			'a material ID of 0',
			{ type: 'MATERIAL', additionalFields: { material_id: 0 } },
			'material_id',
		],
		[
			'a discount that is not a number',
			{ additionalFields: { description: 'x', discount: 'a lot' } },
			'discount',
		],
		['an unknown line type', { type: 'GOODS' }, 'type'],
	]);

	it('surfaces the API 400 for an unknown material, naming the property', async () => {
		const { error, requests } = await create({
			type: 'MATERIAL',
			additionalFields: { material_id: 99999 },
		});
		expect(requests).toHaveLength(1);
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toBe(
			'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "material_id": "No material has this id."',
		);
	});

	it('surfaces 404 Resource not found for an unknown sell order', async () => {
		const { error } = await create({ sellOrderId: '999' });
		expect(error?.message).toBe('Sell order 999 was not found (404). Check the ID in the service.');
		expect(error?.description).toMatch(/POST \/sales\/sell-orders\/999\/lines/);
	});

	it('with Continue On Fail, bad items give error items and the others are created, each paired', async () => {
		const { output, error } = await create(
			{
				type: 'MATERIAL',
				quantity: '={{ $json.q }}',
				additionalFields: { material_id: '={{ $json.m }}' },
			},
			{
				continueOnFail: true,
				items: [
					{ q: '1', m: 1 },
					{ q: 'x', m: 1 },
					{ q: '2', m: 99999 },
					{ q: '3', m: 4 },
				],
			},
		);
		expectItems({ output, error }, [
			{ material_id: 1, quantity: '1' },
			/item 1: "quantity"/,
			/field "material_id": "No material has this id/,
			{ material_id: 4, quantity: '3' },
		]);
		expect(await sentField(fixture, 'quantity')).toEqual(['1', '2', '3']);
	});
});

describe('Sell Order Line: create refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('create'), [
		[
			'a SERVICE sell order line without description',
			{ sellOrderId: '1', type: 'SERVICE', quantity: '1', unit_price: 5 },
			'description',
		],
		[
			'a MATERIAL sell order line without material',
			{ sellOrderId: '1', type: 'MATERIAL', quantity: '1', unit_price: 5 },
			'material_id',
		],
		[
			'a sell order line quantity that is not numeric',
			{
				sellOrderId: '1',
				type: 'SERVICE',
				quantity: 'two',
				unit_price: 5,
				additionalFields: { description: 'x' },
			},
			'quantity',
		],
		[
			'a sell order line without its sell order',
			{
				sellOrderId: ' ',
				type: 'SERVICE',
				quantity: '1',
				unit_price: 1,
				additionalFields: { description: 'x' },
			},
			'sellOrderId',
		],
	]);
});
