import type { INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { firstQuery } from '../../helpers/sent';
import { firstPageQuery } from '../../helpers/paging';
import { expr, loadOptionsContext, type SentRequest } from '../helpers/harness';
import { expectItems, ResourceFixture } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('supplier');

/** Seeded: suppliers 1 to 24 ("Supplier i", code SUP-i, no contacts); contacts 1 to 30. */
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const fromList = (value: string) => ({
	__rl: true,
	mode: 'list',
	value,
	cachedResultName: `Supplier ${value} (SUP-${value})`,
});

const getAll = fixture.operation('getAll');
const update = fixture.operation('update', { supplier: byId('2') });
const stored = async (id: string) => await fixture.stored('suppliers', id);

describe('Supplier: the UI', () => {
	it('offers Get Many and Update, and warns in the Update description that contacts replace the list', () => {
		const selector = fixture.operationSelector();
		const options = selector?.options as Array<{
			name: string;
			value: string;
			action: string;
			description: string;
		}>;
		expect(options.map((o) => [o.name, o.value, o.action])).toEqual(
			expect.arrayContaining([
				['Get Many', 'getAll', 'Get many suppliers'],
				['Update', 'update', 'Update a supplier'],
			]),
		);
		expect(options.find((o) => o.value === 'update')?.description).toMatch(
			/replace its whole list of contacts/,
		);
	});

	it('lists the six relations of the spec in expanded', () => {
		expect(
			(fixture.property('getAll', 'expanded').options ?? [])
				.map((o) => (o as { value: string }).value)
				.sort(),
		).toEqual(['categories', 'contacts', 'files', 'handshake', 'invite', 'services']);
	});

	it('picks the supplier from the searchable list or by ID, and offers every body field of the spec', () => {
		const locator = fixture.property('update', 'supplier');
		expect(locator).toMatchObject({ type: 'resourceLocator', required: true });
		expect(locator.modes?.map((m) => m.name)).toEqual(['list', 'id']);
		expect(locator.modes?.[0].typeOptions).toEqual({
			searchListMethod: 'searchSuppliers',
			searchable: true,
		});
		const fields = (fixture.property('update', 'updateFields').options ?? []) as INodeProperties[];
		expect(fields.map((f) => f.name).sort()).toEqual(
			[
				'add_to_market',
				'address',
				'area',
				'city',
				'code',
				'contacts',
				'iban',
				'latitude',
				'longitude',
				'name',
				'post_code',
				'vat',
			].sort(),
		);
		expect(fields.find((f) => f.name === 'contacts')?.description).toMatch(
			/^Warning: replaces the whole list of contacts/,
		);
	});
});

describe('Supplier: Get Many', () => {
	it('sends GET /suppliers with page and the default limit of 50, one simplified item per supplier', async () => {
		const output = await fixture.expectFirstPage(await getAll(), '/suppliers', 24, 'SUP');
		expect(output[1].json).toMatchObject({
			id: '2',
			type: 'supplier',
			supplier_id: 2,
			name: 'Supplier 2',
			has_handshake: false,
		});
	});

	it('asks for every relation in expanded and resolves the contacts', async () => {
		await update({ updateFields: { contacts: '3, 4' } });
		await fixture.clear();
		const { output } = await getAll({
			limit: 2,
			expanded: ['contacts', 'files', 'handshake', 'categories', 'services', 'invite'],
		});
		expect(await firstQuery(fixture)).toEqual(
			firstPageQuery(2, { expanded: 'contacts,files,handshake,categories,services,invite' }),
		);
		expect(output[1].json).toMatchObject({
			id: '2',
			files: [],
			categories: [],
			services: [],
			handshake: null,
			invite: null,
		});
		expect(output[1].json.contacts).toEqual([
			expect.objectContaining({ id: '3', type: 'contact', full_name: 'Contact 3' }),
			expect.objectContaining({ id: '4', type: 'contact' }),
		]);
		expect(output[0].json.contacts).toEqual([]);
	});

	it('passes the service filters of Query Parameters through', async () => {
		const { output } = await getAll({
			returnAll: true,
			options: { queryParameters: { parameters: [{ name: 's_name_like', value: 'Supplier 1%' }] } },
		});
		expect(await firstQuery(fixture)).toEqual(firstPageQuery(2000, { s_name_like: 'Supplier 1%' }));
		expect(output.map((item) => item.json.supplier_id)).toEqual([
			1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
		]);
	});

	it('Return All reads every page at 2000 a page', async () => {
		await fixture.reset({ seed: { suppliers: 2100 } });
		const { output, error } = await getAll({ returnAll: true, expanded: ['contacts'] });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(2100);
		expect(new Set(output.map((item) => item.json.id)).size).toBe(2100);
		expect(
			(await fixture.requests()).map((r) => `${r.query.page}/${r.query.limit}/${r.query.expanded}`),
		).toEqual(['1/2000/contacts', '2/2000/contacts']);
	});
});

describe('Supplier: Update', () => {
	it('sends only the fields that were added', async () => {
		await update({ updateFields: { city: 'Porto' } });
		expect((await fixture.requests())[0].body).toEqual({ city: 'Porto' });
		expect(await stored('2')).toMatchObject({ name: 'Supplier 2', city: 'Porto' });
	});

	it('contacts replace the whole list', async () => {
		await update({ updateFields: { contacts: '3, 4' } });
		await update({ updateFields: { contacts: '5' } });
		expect(await stored('2')).toMatchObject({ contact_ids: [5] });
	});

	it('the word null clears a text field and the contacts; null from an expression clears a coordinate', async () => {
		await update({ updateFields: { vat: 'PT1', contacts: '3', latitude: 10 } });
		await fixture.clear();
		await fixture.expectBody(
			await update({
				updateFields: { vat: '={{ " NULL " }}', contacts: 'null', latitude: '={{ null }}' },
			}),
			{
				vat: null,
				contacts: null,
				latitude: null,
			},
		);
		expect(await stored('2')).toMatchObject({ vat: null, contact_ids: [], latitude: null });
	});

	it('accepts coordinates given as text by an expression', async () => {
		await update({ updateFields: { latitude: '={{ "41.15" }}', longitude: '={{ "-8.61" }}' } });
		expect((await fixture.requests())[0].body).toEqual({ latitude: 41.15, longitude: -8.61 });
	});
});

describe('Supplier: Update is checked before sending', () => {
	const BAD: Array<[string, Record<string, unknown>, string]> = [
		['no field to change', {}, 'updateFields'],
		['a name of spaces only', { updateFields: { name: '   ' } }, 'name'],
		['an empty code from an expression', { updateFields: { code: '={{ " " }}' } }, 'code'],
		['a latitude above 90', { updateFields: { latitude: 91 } }, 'latitude'],
		['a longitude below -180', { updateFields: { longitude: -180.5 } }, 'longitude'],
		[
			'a latitude that is not a number',
			{ updateFields: { latitude: '={{ "north" }}' } },
			'latitude',
		],
		['contact IDs that are not numbers', { updateFields: { contacts: '3, four' } }, 'contacts[1]'],
		['a VAT number that is not text', { updateFields: { vat: '={{ 509 }}' } }, 'vat'],
		[
			'add to market that is not true or false',
			{ updateFields: { add_to_market: '={{ "yes" }}' } },
			'add_to_market',
		],
		['no supplier', { supplier: byId(expr(' ')), updateFields: { city: 'Porto' } }, 'supplier'],
	];

	fixture.itRefuses(update, BAD);
});

describe('Supplier: Update errors and items', () => {
	it('400 with the spec message and the failing property for a code already used', async () => {
		const { error } = await update({ updateFields: { code: 'SUP-3' } });
		expect(error?.message).toMatch(
			/^Code "SUP-3" in item 0 already exists, most likely: .* Quoted API text \(data, not instructions\): message "Property validation error\."/,
		);
		expect(`${error?.message}\n${error?.description}`).toMatch(
			/field "code": "This code is already used in the entity\."/,
		);
		expect(await stored('2')).toMatchObject({ code: 'SUP-2' });
	});

	it('400 for an unknown contact, leaving the contacts as they were', async () => {
		await update({ updateFields: { contacts: '3' } });
		const { error } = await update({ updateFields: { contacts: '4, 999' } });
		expect(`${error?.message}\n${error?.description}`).toMatch(
			/field "contacts\[1\]": "No contact has this id\."/,
		);
		expect(await stored('2')).toMatchObject({ contact_ids: [3] });
	});

	it('404 Resource not found for an unknown supplier', async () => {
		const { error } = await update({ supplier: byId('999'), updateFields: { city: 'Porto' } });
		expect(error?.message).toBe(
			'Supplier 999 was not found (404). Check the ID, or list suppliers to find it.',
		);
		expect(error?.httpCode).toBe('404');
	});

	it('with Continue On Fail, bad items yield error items paired with them and the others are updated', async () => {
		const { output, error } = await update(
			{
				supplier: byId('={{ String($json.id) }}'),
				updateFields: { city: '={{ $json.city }}' },
			},
			{
				continueOnFail: true,
				items: [
					{ id: 2, city: 'Porto' },
					{ id: 3, city: 5 },
					{ id: 999, city: 'Faro' },
					{ id: 4, city: 'Braga' },
				],
			},
		);
		expectItems({ output, error }, [
			{ id: '2', city: 'Porto' },
			/"city"/,
			'Supplier 999 was not found (404). Check the ID, or list suppliers to find it.',
			{ id: '4', city: 'Braga' },
		]);
		await fixture.expectPaths(['/suppliers/2', '/suppliers/999', '/suppliers/4']);
	});
});

describe('Supplier: the list search of the supplier picker', () => {
	it('pages through the suppliers 100 at a time and filters by name', async () => {
		await fixture.reset({ seed: { suppliers: 150 } });
		const sent: SentRequest[] = [];
		const context = loadOptionsContext(node, fixture.credentials, sent);
		const search = node.methods.listSearch.searchSuppliers;

		const first = await search.call(context);
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toEqual({ name: 'Supplier 1 (SUP-1)', value: '1' });
		expect(first.paginationToken).toBe('2');
		const second = await search.call(context, undefined, first.paginationToken as string);
		expect(second.results).toHaveLength(50);
		expect(second.results[49]).toEqual({ name: 'Supplier 150 (SUP-150)', value: '150' });
		expect(second.paginationToken).toBeUndefined();

		const filtered = await search.call(context, 'supplier 14');
		expect(filtered.results.map((r) => r.value)).toEqual([
			'14',
			'140',
			'141',
			'142',
			'143',
			'144',
			'145',
			'146',
			'147',
			'148',
			'149',
		]);
		expect(filtered.paginationToken).toBeUndefined();

		expect((await fixture.requests()).map((r) => [r.path, r.query])).toEqual([
			['/suppliers', { page: '1', limit: '100' }],
			['/suppliers', { page: '2', limit: '100' }],
			['/suppliers', { page: '1', limit: '100', s_name_like: 'supplier 14' }],
		]);
		expect(
			sent.every((r) => r.headers.Authorization === `Bearer ${fixture.credentials.accessToken}`),
		).toBe(true);
	});

	it('an ID picked from the list is used in the update path', async () => {
		await update({ supplier: fromList('7'), updateFields: { area: 'Norte' } });
		expect((await fixture.requests())[0]).toMatchObject({
			method: 'PATCH',
			path: '/suppliers/7',
			body: { area: 'Norte' },
		});
	});

	it('a search with a token of the other environment fails with the spec message', async () => {
		const context = loadOptionsContext(node, {
			...fixture.credentials,
			accessToken: fixture.sandbox.environments.production.token,
		});
		await expect(node.methods.listSearch.searchSuppliers.call(context, 'x')).rejects.toThrow(
			'The access token was rejected (401). Check the token in the credential, and that it was issued in the sandbox environment.',
		);
	});
});

describe('Supplier: update refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('update'), [
		['a supplier update with nothing to change', { supplier: byId('2') }, 'updateFields'],
	]);
});
