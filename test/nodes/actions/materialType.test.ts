import { sentField } from '../../helpers/sent';
import { expr } from '../helpers/harness';
import { expectItems, ResourceFixture, takenCode } from '../helpers/resource';

const fixture = new ResourceFixture('materialType');

const create = fixture.operation('create', { name: 'Fasteners', parent_id: '1' });

describe('Material Type: Create', () => {
	it('sends name and parent folder, and the API generates the code when none is sent', async () => {
		const created = await fixture.expectCreated(await create({}), '/stocks/material-types', {
			name: 'Fasteners',
			parent_id: '1',
		});
		const id = String(created.id);
		expect(created).toMatchObject({
			type: 'stock-material-type',
			name: 'Fasteners',
			parent_id: '1',
			code: `MT-${id}`,
		});
		expect(await fixture.stored('materialTypes', id)).toMatchObject({
			name: 'Fasteners',
			parent_id: '1',
			code: `MT-${id}`,
		});
	});

	it('sends the code when one is given', async () => {
		const result = await create({ additionalFields: { code: 'FAST' } });
		const { output } = result;
		await fixture.expectBody(result, {
			name: 'Fasteners',
			parent_id: '1',
			code: 'FAST',
		});
		expect(output[0].json.code).toBe('FAST');
	});

	it('sends a parent folder given as a number (from an expression) as the string the spec asks for', async () => {
		const { error } = await create(
			{ parent_id: '={{ $json.folder }}' },
			{ items: [{ folder: 2 }] },
		);
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0].body).toMatchObject({ parent_id: '2' });
	});

	it('the new type can hold a new material', async () => {
		const { output } = await create({ additionalFields: { code: 'FAST' } });
		const typeId = Number(output[0].json.id);
		const material = await fixture.run({
			resource: 'material',
			operation: 'create',
			material_type_id: typeId,
			name: 'Washer',
			code: 'W-1',
			units: 'unit',
		});
		expect(material.error).toBeUndefined();
		expect(material.output[0].json).toMatchObject({ material_type_id: String(typeId) });
	});

	fixture.itRefuses(
		create,
		[
			['an empty name', { name: expr('') }, 'name'],
			['a name of spaces', { name: '   ' }, 'name'],
			['no parent folder', { parent_id: expr('') }, 'parent_id'],
			['a code of spaces', { additionalFields: { code: '  ' } }, 'code'],
		],
		0,
	);

	it('surfaces the API 400 for a code already in use', async () => {
		const { error } = await create({ additionalFields: { code: 'MT-2' } });
		expect(error?.message).toBe(takenCode('MT-2'));
		expect(error?.httpCode).toBe('400');
	});

	it('surfaces the API 400 for an unknown parent folder', async () => {
		const { error } = await create({ parent_id: '777' });
		expect(error?.message).toBe(
			'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "parent_id": "No material type folder has this id."',
		);
	});

	it('with Continue On Fail, a bad item gives an error item and the others are created, each paired', async () => {
		const { output, error } = await create(
			{ name: '={{ $json.name }}' },
			{ items: [{ name: 'Bolts' }, { name: '' }, { name: 'Nuts' }], continueOnFail: true },
		);
		expectItems({ output, error }, [
			{ name: 'Bolts' },
			/item 1: "name" \(Name\)/,
			{ name: 'Nuts' },
		]);
		expect(await sentField(fixture, 'name')).toEqual(['Bolts', 'Nuts']);
	});
});

describe('Material Type: create refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('create'), [
		['an empty material type name', { name: expr(''), parent_id: '1' }, 'name'],
	]);
});
