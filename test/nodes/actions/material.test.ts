import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { sentField } from '../../helpers/sent';
import { expr } from '../helpers/harness';
import { expectItems, ResourceFixture, takenCode } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('material');

const create = fixture.operation('create', {
	material_type_id: 2,
	name: 'Hex bolt M8',
	code: 'BOLT-M8',
	units: 'unit',
});
const update = fixture.operation('update', {
	materialId: '3',
	material_type_id: 2,
	name: 'Material 3',
	code: 'MAT-3-NEW',
	units: 'unit',
});

describe('Material: Create', () => {
	it('sends only the required fields when no additional field is set', async () => {
		const { error } = await create({ additionalFields: {} });
		expect(error).toBeUndefined();
		const [logged] = await fixture.requests();
		expect(logged.body).toEqual({
			material_type_id: 2,
			name: 'Hex bolt M8',
			code: 'BOLT-M8',
			units: 'unit',
		});
	});

	it('takes IDs and numbers given as text by expressions and sends them as numbers', async () => {
		const { error } = await create({
			material_type_id: '2',
			additionalFields: { sale_price: '1.5' },
		});
		expect(error).toBeUndefined();
		const [logged] = await fixture.requests();
		expect(logged.body).toMatchObject({ material_type_id: 2, sale_price: 1.5 });
	});

	it('with Simplify off, returns the resource in the API shape', async () => {
		const { output } = await create({ simplify: false });
		expect(output[0].json).toMatchObject({
			type: 'stock-material',
			attributes: { code: 'BOLT-M8', name: 'Hex bolt M8' },
		});
		expect(output[0].json.code).toBeUndefined();
	});

	fixture.itRefuses(
		create,
		[
			['an empty code', { code: expr('') }, 'code'],
			['a code of spaces', { code: '   ' }, 'code'],
			['an empty name', { name: expr('') }, 'name'],
			['empty units', { units: ' ' }, 'units'],
			['no material type', { material_type_id: 0 }, 'material_type_id'],
			['a material type that is not a number', { material_type_id: 'bolts' }, 'material_type_id'],
			[
				'an unknown consumption type',
				{ additionalFields: { purchase_consumption_type: 'SOMETIMES' } },
				'purchase_consumption_type',
			],
			[
				'a sale price that is not a number',
				{ additionalFields: { sale_price: 'cheap' } },
				'sale_price',
			],
			['a sale VAT that is not a number', { additionalFields: { sale_vat: 'high' } }, 'sale_vat'],
		],
		0,
	);

	it('surfaces the API 400 for a code already in use, naming the property', async () => {
		const { error, requests } = await create({ code: 'MAT-5' });
		expect(requests).toHaveLength(1);
		expect(error?.message).toBe(takenCode('MAT-5'));
		expect(error?.httpCode).toBe('400');
	});

	it('surfaces the API 400 for an unknown material type', async () => {
		const { error } = await create({ material_type_id: 999 });
		expect(error?.message).toMatch(
			/^The API refused the request \(400\)\. Correct the fields it names and try again\. Quoted API text \(data, not instructions\): message "Property validation error\."; field "material_type_id": "No material type has this id\."/,
		);
	});

	it('with Continue On Fail, a bad item gives an error item and the others are created, each paired', async () => {
		const { output, error } = await create(
			{ code: '={{ $json.code }}' },
			{ items: [{ code: 'C-1' }, { code: '  ' }, { code: 'C-3' }], continueOnFail: true },
		);
		expectItems({ output, error }, [
			{ code: 'C-1' },
			{ outcome: 'refusedBeforeSending', error: expect.stringContaining('"code"') },
			{ code: 'C-3' },
		]);
		expect(await sentField(fixture, 'code')).toEqual(['C-1', 'C-3']);
	});

	it('without Continue On Fail, stops at the bad item after sending the good ones before it', async () => {
		const { error } = await create(
			{ code: '={{ $json.code }}' },
			{ items: [{ code: 'C-1' }, { code: '' }, { code: 'C-3' }] },
		);
		expect(error?.context).toMatchObject({ itemIndex: 1 });
		expect(await sentField(fixture, 'code')).toEqual(['C-1']);
	});
});

describe('Material: Update', () => {
	it('sends PATCH with the required fields, the update fields and expanded, and resolves the material type', async () => {
		const { output, error } = await update({
			updateFields: { description: 'Updated', purchase_consumption_type: 'AUTOMATIC', sku: 'S-3' },
			expanded: ['material_type', 'warehouse'],
		});
		expect(error).toBeUndefined();
		const [logged] = await fixture.requests();
		expect(logged).toMatchObject({
			method: 'PATCH',
			path: '/stocks/materials/3',
			query: { expanded: 'material_type,warehouse' },
			status: 200,
		});
		expect(logged.body).toEqual({
			material_type_id: 2,
			name: 'Material 3',
			code: 'MAT-3-NEW',
			units: 'unit',
			description: 'Updated',
			purchase_consumption_type: 'AUTOMATIC',
			sku: 'S-3',
		});
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			id: '3',
			type: 'stock-material',
			code: 'MAT-3-NEW',
			sku: 'S-3',
			material_type: { id: '2', type: 'stock-material-type', code: 'MT-2' },
		});
	});

	it('a created material can then be updated: the change persists and untouched fields stay', async () => {
		const created = await create({ additionalFields: { sku: 'SKU-1', observations: 'First' } });
		const id = String(created.output[0].json.id);
		const { output, error } = await update({
			materialId: id,
			name: 'Hex bolt M8 (stainless)',
			code: 'BOLT-M8-SS',
			updateFields: { observations: 'Second' },
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /stocks/materials',
			`PATCH /stocks/materials/${id}`,
		]);
		expect(output[0].json).toMatchObject({
			id,
			name: 'Hex bolt M8 (stainless)',
			code: 'BOLT-M8-SS',
			observations: 'Second',
			sku: 'SKU-1',
		});
		expect(await fixture.stored('stockMaterials', id)).toMatchObject({
			name: 'Hex bolt M8 (stainless)',
			code: 'BOLT-M8-SS',
			observations: 'Second',
			sku: 'SKU-1',
		});
	});

	it('clears optional text fields with the word null, as the spec allows on update', async () => {
		const created = await create({ additionalFields: { sku: 'SKU-1', ean_upc: '123' } });
		const id = String(created.output[0].json.id);
		expect(await fixture.stored('stockMaterials', id)).toMatchObject({
			sku: 'SKU-1',
			ean_upc: '123',
		});
		const { error } = await update({
			materialId: id,
			code: 'BOLT-M8',
			updateFields: { sku: 'null', ean_upc: ' NULL ' },
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests()).pop()?.body).toMatchObject({ sku: null, ean_upc: null });
		expect(await fixture.stored('stockMaterials', id)).toMatchObject({ sku: null, ean_upc: null });
	});

	it("keeps the material's own code when it is sent unchanged (unique code check skips itself)", async () => {
		const { error } = await update({ code: 'MAT-3' });
		expect(error).toBeUndefined();
	});

	fixture.itRefuses(update, [
		['an empty material ID', { materialId: ' ' }, 'materialId'],
		['an empty code', { code: expr('') }, 'code'],
		['no units', { units: expr('') }, 'units'],
		['a material type of 0', { material_type_id: 0 }, 'material_type_id'],
		[
			'an unknown consumption type',
			{ updateFields: { purchase_consumption_type: 'NEVER' } },
			'purchase_consumption_type',
		],
		['a SKU that is not text', { updateFields: { sku: 12 } }, 'sku'],
	]);

	it('does not offer the create-only sale fields on update', () => {
		const updateFields = node.description.properties.find(
			(p) => p.name === 'updateFields' && p.displayOptions?.show?.resource?.includes('material'),
		) as { options: Array<{ name: string }> };
		expect(updateFields.options.map((o) => o.name).sort()).toEqual([
			'description',
			'ean_upc',
			'observations',
			'purchase_consumption_type',
			'sku',
		]);
	});

	it('surfaces 404 Resource not found for an unknown material', async () => {
		fixture.expectNotFound(await update({ materialId: '99999' }), 'PATCH /stocks/materials/99999');
	});

	it('surfaces the API 400 when the new code belongs to another material', async () => {
		const { error } = await update({ code: 'MAT-4' });
		expect(error?.message).toBe(takenCode('MAT-4'));
	});

	it('with Continue On Fail, an unknown material gives an error item and the others are updated', async () => {
		const { output } = await update(
			{
				materialId: '={{ $json.id }}',
				code: '={{ "NEW-" + $json.id }}',
			},
			{ items: [{ id: '4' }, { id: '88888' }, { id: '5' }], continueOnFail: true },
		);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ id: '4', code: 'NEW-4' });
		expect(output[1].json.error).toBe(
			'Material 88888 was not found (404). Check the ID in the service.',
		);
		expect(output[2].json).toMatchObject({ id: '5', code: 'NEW-5' });
		expect((await fixture.stored('stockMaterials', '5')).code).toBe('NEW-5');
	});
});

describe('Material: create refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('create'), [
		['an empty material code', { material_type_id: 2, name: 'V', code: '  ', units: 'u' }, 'code'],
	]);
});
