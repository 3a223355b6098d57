import type { IDataObject } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { expr } from '../helpers/harness';
import { expectItems, ResourceFixture } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('client');

/** Seeded: clients 1 to 12 with no contacts; contacts 1 to 30 named "Contact i", contact{i}@example.com. */
const sync = fixture.operation('syncContacts');
const storedContacts = async (client: string) =>
	(await fixture.stored('clients', client)).contact_ids;

describe('Client: the UI', () => {
	it('offers Sync Contacts, described as setting the client contacts', () => {
		const selector = fixture.operationSelector();
		fixture.expectOperations([
			{
				name: 'Sync Contacts',
				value: 'syncContacts',
				action: 'Sync the contacts of a client',
			},
		]);
		expect((selector?.options?.[0] as { description: string }).description).toMatch(
			/^Set a client's contacts/,
		);
		const contactIds = node.description.properties.find((p) => p.name === 'contact_ids');
		expect(contactIds).toMatchObject({ required: true, type: 'string' });
		expect(contactIds?.description).toMatch(/become the client's contacts/);
		expect(contactIds?.description).toMatch(/no longer associated/);
	});
});

describe('Client: Sync Contacts', () => {
	it('sends POST /clients/{client}/contacts with contact_ids and returns the client with its contacts', async () => {
		const { output, error, requests } = await sync({ client: '2', contact_ids: '1, 2' });
		await fixture.expectSent(
			{ output, error, requests },
			{
				method: 'POST',
				path: '/clients/2/contacts',
				query: {},
				body: { contact_ids: [1, 2] },
				status: 200,
				env: 'sandbox',
			},
		);
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			id: '2',
			type: 'client',
			client_id: 2,
			name: 'Client 2',
		});
		expect(output[0].json.contacts).toEqual([
			expect.objectContaining({
				id: '1',
				type: 'contact',
				full_name: 'Contact 1',
				email: 'contact1@example.com',
			}),
			expect.objectContaining({ id: '2', type: 'contact', full_name: 'Contact 2' }),
		]);
		expect(await storedContacts('2')).toEqual([1, 2]);
	});

	it('sets the list: a second sync replaces the first', async () => {
		await sync({ client: '2', contact_ids: '1, 2' });
		const { output } = await sync({ client: '2', contact_ids: '3' });
		expect((output[0].json.contacts as IDataObject[]).map((c) => c.id)).toEqual(['3']);
		expect(await storedContacts('2')).toEqual([3]);
	});

	it('an empty list from an expression removes every contact, as the description says', async () => {
		await sync({ client: '2', contact_ids: '1, 2' });
		const { output, error } = await sync({ client: '2', contact_ids: '={{ [] }}' });
		expect(error).toBeUndefined();
		expect((await fixture.requests()).pop()?.body).toEqual({ contact_ids: [] });
		expect(output[0].json.contacts).toEqual([]);
		expect(await storedContacts('2')).toEqual([]);
	});

	it('takes the IDs as an array or as text with spaces and a trailing comma, and a client ID with spaces', async () => {
		await sync({ client: ' 4 ', contact_ids: '={{ [5, "6"] }}' });
		await sync({ client: '5', contact_ids: ' 7 ,8, ' });
		expect((await fixture.requests()).map((r) => [r.path, r.body])).toEqual([
			['/clients/4/contacts', { contact_ids: [5, 6] }],
			['/clients/5/contacts', { contact_ids: [7, 8] }],
		]);
	});

	it('with Simplify off, returns the API shape with the contacts beside it', async () => {
		const { output } = await sync({ client: '3', contact_ids: '9', simplify: false });
		expect(output[0].json).toMatchObject({
			id: '3',
			type: 'client',
			attributes: expect.objectContaining({ name: 'Client 3' }),
			relationships: { contacts: { data: [{ type: 'contact', id: '9' }] } },
			included: [expect.objectContaining({ id: '9', type: 'contact' })],
		});
	});
});

describe('Client: Sync Contacts is checked before sending', () => {
	const BAD: Array<[string, IDataObject, string]> = [
		['no contact IDs', { client: '2', contact_ids: expr('') }, 'contact_ids'],
		['only commas', { client: '2', contact_ids: ' , ' }, 'contact_ids'],
		['a contact ID that is not a number', { client: '2', contact_ids: '1, x' }, 'contact_ids[1]'],
		['a contact ID of 0', { client: '2', contact_ids: '0' }, 'contact_ids[0]'],
		['a decimal contact ID', { client: '2', contact_ids: '1.5' }, 'contact_ids[0]'],
		['no client ID', { client: '  ', contact_ids: '1' }, 'client'],
	];

	fixture.itRefuses(sync, BAD);
});

describe('Client: API errors', () => {
	it('404 Resource not found for an unknown client', async () => {
		fixture.expectNotFound(
			await sync({ client: '999', contact_ids: '1' }),
			'POST /clients/999/contacts',
		);
	});

	it('400 Property validation error naming the unknown contact, and the client keeps its contacts', async () => {
		await sync({ client: '2', contact_ids: '1' });
		const { error } = await sync({ client: '2', contact_ids: '2, 999' });
		expect(error?.message).toMatch(
			/^The API refused the request \(400\)\. Correct the fields it names and try again\. Quoted API text \(data, not instructions\): message "Property validation error\."/,
		);
		expect(`${error?.message}\n${error?.description}`).toMatch(
			/field "contact_ids\[1\]": "No contact has this id\."/,
		);
		expect(await storedContacts('2')).toEqual([1]);
	});

	it('with Continue On Fail, bad items become error items paired with them and the others are synced', async () => {
		const { output, error } = await sync(
			{
				client: '={{ $json.client }}',
				contact_ids: '={{ $json.ids }}',
			},
			{
				continueOnFail: true,
				items: [
					{ client: '2', ids: '1' },
					{ client: '3', ids: 'x' },
					{ client: '999', ids: '1' },
					{ client: '4', ids: '2, 3' },
				],
			},
		);
		expectItems({ output, error }, [
			{ id: '2', type: 'client' },
			/"contact_ids\[0\]"/,
			'Client 999 was not found (404). Check the ID in the service.',
			{
				id: '4',
				contacts: [expect.objectContaining({ id: '2' }), expect.objectContaining({ id: '3' })],
			},
		]);
		await fixture.expectPaths([
			'/clients/2/contacts',
			'/clients/999/contacts',
			'/clients/4/contacts',
		]);
		expect(await storedContacts('3')).toEqual([]);
	});
});

describe('Client: syncContacts refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('syncContacts'), [
		['a client without contact IDs', { client: '2', contact_ids: expr('') }, 'contact_ids'],
	]);
});
