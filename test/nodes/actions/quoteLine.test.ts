import type { INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { expr } from '../helpers/harness';
import { expectItems, ResourceFixture } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('quoteLine');

const create = fixture.operation('create', { quoteId: '4', type: 'SERVICE' });

describe('Quote Line: Create', () => {
	it('sends only the type and the field the type needs when nothing else is set', async () => {
		await fixture.expectBody(
			await create({ type: 'MATERIAL', additionalFields: { material_id: 3 } }),
			{ type: 'MATERIAL', material_id: 3 },
		);
	});

	it('sends an OTHER_COST line', async () => {
		const result = await create({
			type: 'OTHER_COST',
			additionalFields: { other_cost_id: 1, quantity: 40, unit_price: 1 },
		});
		const { output } = result;
		await fixture.expectBody(result, {
			type: 'OTHER_COST',
			other_cost_id: 1,
			quantity: 40,
			unit_price: 1,
		});
		expect(output[0].json).toMatchObject({
			attribute_type: 'OTHER_COST',
			other_cost_id: 1,
			total: 40,
		});
	});

	it('takes whole numbers given as text by expressions and sends them as numbers', async () => {
		await fixture.expectBody(
			await create({
				additionalFields: { description: 'x', quantity: '2', unit_price: '15', vat: '6' },
			}),
			{
				type: 'SERVICE',
				description: 'x',
				quantity: 2,
				unit_price: 15,
				vat: 6,
			},
		);
	});

	it('says in the UI that the API does not list the accepted types', () => {
		const type = node.description.properties.find(
			(p: INodeProperties) =>
				p.name === 'type' && p.displayOptions?.show?.resource?.includes('quoteLine'),
		);
		expect(type?.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual([
			'MATERIAL',
			'OTHER_COST',
			'SERVICE',
		]);
		expect(type?.description).toMatch(/does not list the values it accepts/);
	});

	fixture.itRefuses(create, [
		['a SERVICE line without a description', { additionalFields: { quantity: 1 } }, 'description'],
		[
			'a SERVICE line whose description is only spaces',
			{ additionalFields: { description: ' ' } },
			'description',
		],
		['a MATERIAL line without a material', { type: 'MATERIAL' }, 'material_id'],
		['an OTHER_COST line without an other cost', { type: 'OTHER_COST' }, 'other_cost_id'],
		...(
			[
				['a quantity that is not whole', 'quantity', 1.5],
				['a unit price that is not whole', 'unit_price', 10.5],
				['a discount that is not whole', 'discount', 2.5],
				['a VAT that is not a number', 'vat', '23%'],
				['a received quote request line ID of 0', 'received_quote_request_line_id', 0],
			] as const
		).map(([what, field, value]): [string, Record<string, unknown>, string] => [
			what,
			{ additionalFields: { description: 'x', [field]: value } },
			field,
		]),
		['an unknown line type', { type: 'LABOUR', additionalFields: { description: 'x' } }, 'type'],
		['an empty quote ID', { quoteId: expr(''), additionalFields: { description: 'x' } }, 'quoteId'],
	]);

	it('surfaces Resource not found for an unknown quote', async () => {
		const { error } = await create({ quoteId: '999', additionalFields: { description: 'x' } });
		expect(error?.message).toBe('Quote 999 was not found (404). Check the ID in the service.');
		expect(error?.description).toMatch(/POST \/sales\/quotes\/999\/lines/);
	});

	it('with Continue On Fail, bad items give error items and the others are created, each paired', async () => {
		const { output, error } = await create(
			{
				quoteId: '={{ $json.quote }}',
				additionalFields: { description: '={{ $json.d }}' },
			},
			{
				continueOnFail: true,
				items: [
					{ quote: '1', d: 'A' },
					{ quote: '1', d: '' },
					{ quote: '999', d: 'C' },
					{ quote: '2', d: 'D' },
				],
			},
		);
		expectItems({ output, error }, [
			{ type: 'quote_line', description: 'A' },
			/item 1: "description"/,
			'Quote 999 was not found (404). Check the ID in the service.',
			{ type: 'quote_line', description: 'D' },
		]);
		await fixture.expectPaths([
			'/sales/quotes/1/lines',
			'/sales/quotes/999/lines',
			'/sales/quotes/2/lines',
		]);
	});
});
