import type { INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { sentField } from '../../helpers/sent';
import { expr } from '../helpers/harness';
import { expectItems, ResourceFixture, takenCode } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('legacyMaterial');

const create = fixture.operation('create', {
	_type: 'MATERIAL',
	name: 'Gasket DN50',
	code: 'GSK-50',
	additionalFields: { units: 'unit', parent_id: 1 },
});

const propertiesOf = (name: string) =>
	node.description.properties.filter(
		(p: INodeProperties) =>
			p.name === name && p.displayOptions?.show?.resource?.includes('legacyMaterial'),
	);

describe('Legacy Material: Create (Deprecated)', () => {
	it('is labelled deprecated and names its replacement', () => {
		const [selector] = propertiesOf('operation');
		expect(selector.options).toEqual([
			expect.objectContaining({
				name: 'Create (Deprecated)',
				value: 'create',
				action: 'Create a legacy material (deprecated)',
			}),
		]);
		expect((selector.options![0] as { description: string }).description).toMatch(
			/use Material → Create instead/,
		);
		const [notice] = propertiesOf('deprecationNotice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/Material → Create \(POST \/stocks\/materials\)/);
	});

	it('sends a warehouse with only its ID when nothing else is filled in', async () => {
		const { error } = await create({
			material_warehouse: {
				items: [{ warehouse_id: 3, min_stock: '', mean_price: '', observation: '' }],
			},
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0].body).toMatchObject({
			material_warehouse: [{ warehouse_id: 3 }],
		});
	});

	it('sends a FOLDER with only the required fields', async () => {
		const result = await create({
			_type: 'FOLDER',
			name: 'Seals',
			code: 'SEALS',
			additionalFields: {},
		});
		const { output } = result;
		await fixture.expectBody(result, {
			_type: 'FOLDER',
			name: 'Seals',
			code: 'SEALS',
		});
		expect(output[0].json).toMatchObject({ type: 'material', name: 'Seals', is_real: false });
	});

	it('with Simplify off, returns the material in the API shape', async () => {
		const { output } = await create({ simplify: false });
		expect(output[0].json).toMatchObject({
			type: 'material',
			attributes: { code: 'GSK-50', is_real: true },
		});
		expect(output[0].json.code).toBeUndefined();
	});

	fixture.itRefuses(
		create,
		[
			['a MATERIAL without units', { additionalFields: { parent_id: 1 } }, 'units'],
			[
				'a MATERIAL with units of spaces',
				{ additionalFields: { parent_id: 1, units: '  ' } },
				'units',
			],
			['a MATERIAL without a parent', { additionalFields: { units: 'unit' } }, 'parent_id'],
			[
				'a MATERIAL with a parent of 0',
				{ additionalFields: { units: 'unit', parent_id: 0 } },
				'parent_id',
			],
			[
				'a mean price on a FOLDER',
				{ _type: 'FOLDER', additionalFields: { mean_price: 3 } },
				'mean_price',
			],
			[
				'a minimum stock of 0',
				{ material_warehouse: { items: [{ warehouse_id: 1, min_stock: '0' }] } },
				'material_warehouse[0].min_stock',
			],
			[
				'a negative minimum stock',
				{
					material_warehouse: {
						items: [{ warehouse_id: 1 }, { warehouse_id: 2, min_stock: '-3' }],
					},
				},
				'material_warehouse[1].min_stock',
			],
			[
				'a minimum stock that is not a number',
				{ material_warehouse: { items: [{ warehouse_id: 1, min_stock: 'some' }] } },
				'material_warehouse[0].min_stock',
			],
			[
				'a warehouse mean price that is not a number',
				{ material_warehouse: { items: [{ warehouse_id: 1, mean_price: 'cheap' }] } },
				'material_warehouse[0].mean_price',
			],
			[
				'a warehouse left at ID 0',
				{ material_warehouse: { items: [{ warehouse_id: 0, min_stock: '1' }] } },
				'material_warehouse[0].warehouse_id',
			],
			['an empty code', { code: expr('') }, 'code'],
			['a code of spaces', { code: '   ' }, 'code'],
			['an empty name', { name: expr('') }, 'name'],
			['an unknown type', { _type: 'KIT' }, '_type'],
			[
				'a default sell price that is not a number',
				{ additionalFields: { units: 'u', parent_id: 1, default_sell_price: 'free' } },
				'default_sell_price',
			],
		],
		0,
	);

	it('lists every failing field of a MATERIAL missing both units and parent', async () => {
		const { error } = await create({ additionalFields: {} });
		expect(error?.context?.fields).toEqual(['units', 'parent_id']);
		expect(error?.description).toContain('"units"');
		expect(error?.description).toContain('"parent_id"');
	});

	it('surfaces the API 400 for a code already in use, naming the property', async () => {
		const { error, requests } = await create({ code: 'LM-3' });
		expect(requests).toHaveLength(1);
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toBe(takenCode('LM-3'));
	});

	it('with Continue On Fail, bad items give error items and the others are created, each paired', async () => {
		const { output, error } = await create(
			{ code: '={{ $json.code }}' },
			{
				continueOnFail: true,
				items: [{ code: 'N-1' }, { code: ' ' }, { code: 'LM-2' }, { code: 'N-4' }],
			},
		);
		expectItems({ output, error }, [
			{ type: 'material', code: 'N-1' },
			{ outcome: 'refusedBeforeSending', error: expect.stringContaining('"code"') },
			takenCode('LM-2', 2),
			{ type: 'material', code: 'N-4' },
		]);
		expect(await sentField(fixture, 'code')).toEqual(['N-1', 'LM-2', 'N-4']);
	});
});

describe('Legacy Material: create refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('create'), [
		[
			'a legacy MATERIAL without units and parent',
			{ _type: 'MATERIAL', name: 'G', code: 'LM-X' },
			'units',
		],
		[
			'a mean price on a legacy FOLDER',
			{ _type: 'FOLDER', name: 'F', code: 'LM-F', additionalFields: { mean_price: 3 } },
			'mean_price',
		],
		[
			'a min_stock of 0',
			{
				_type: 'FOLDER',
				name: 'F',
				code: 'LM-F',
				material_warehouse: { items: [{ warehouse_id: 1, min_stock: 0 }] },
			},
			'material_warehouse[0].min_stock',
		],
	]);
});
