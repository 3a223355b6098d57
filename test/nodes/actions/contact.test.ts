import type { INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { sentField } from '../../helpers/sent';
import { expectItems, ResourceFixture } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('contact');

/** Seeded: contacts 1 to 30, "Contact i", contact{i}@example.com. The sandbox finds an existing contact by email. */
const checkOrCreate = fixture.operation('checkOrCreate');

const contactProperties = () =>
	node.description.properties.filter(
		(p) =>
			p.displayOptions?.show?.resource?.includes('contact') && p.displayOptions?.show?.operation,
	);

const EVERY_PERMISSION = {
	default_permissions: true,
	preventive: true,
	failure: true,
	failure_type: 'assigned',
	quotes: false,
	work_scheduled_reports: true,
	work_scheduled_reports_states: 'completed',
	failure_reports: true,
	failure_reports_states: 'confirmed',
	show_user_info: false,
	show_failure_priority: true,
	report_all_problem_areas: false,
	reportable_problem_areas: '1, 4',
	allow_share_dashboards: true,
};

describe('Contact: the UI', () => {
	it('marks the operation deprecated and names its replacement', () => {
		const selector = fixture.operationSelector();
		const option = selector?.options?.[0] as {
			name: string;
			value: string;
			action: string;
			description: string;
		};
		expect(option).toMatchObject({ name: 'Check or Create (Deprecated)', value: 'checkOrCreate' });
		expect(option.action).toMatch(/deprecated/);
		expect(option.description).toMatch(/get-contact and create-contact/);
		const notice = contactProperties().find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/Deprecated/);
		expect(notice?.displayName).toMatch(/get-contact and create-contact/);
	});

	it('offers every direct_permissions member of the spec under its API name', () => {
		const permissions = contactProperties().find((p) => p.name === 'direct_permissions');
		const members = (permissions?.options ?? []) as INodeProperties[];
		expect(members.map((m) => m.name).sort()).toEqual(Object.keys(EVERY_PERMISSION).sort());
		const values = (name: string) =>
			(members.find((m) => m.name === name)?.options ?? []).map(
				(o) => (o as { value: string }).value,
			);
		expect(values('failure_type')).toEqual(['all', 'assigned']);
		expect(values('failure_reports_states')).toEqual(['all', 'completed', 'confirmed']);
		expect(values('work_scheduled_reports_states')).toEqual(['all', 'completed', 'confirmed']);
		expect(
			members
				.filter((m) => m.type === 'boolean')
				.every((m) => /^Whether/.test(m.description ?? '')),
		).toBe(true);
	});
});

describe('Contact: Check or Create', () => {
	it('sends POST /contacts with every field and permission, and returns the new contact', async () => {
		const { output, error, requests } = await checkOrCreate({
			email: 'ana.silva@example.com',
			name: 'Ana Silva',
			additionalFields: { phone: '+351210000000', cellphone: '+351910000000', language: 'pt' },
			direct_permissions: EVERY_PERMISSION,
		});
		const logged = await fixture.expectSent(
			{ output, error, requests },
			{
				method: 'POST',
				path: '/contacts',
				query: {},
				status: 201,
				env: 'sandbox',
			},
		);
		expect(logged.body).toEqual({
			email: 'ana.silva@example.com',
			name: 'Ana Silva',
			phone: '+351210000000',
			cellphone: '+351910000000',
			language: 'pt',
			direct_permissions: { ...EVERY_PERMISSION, reportable_problem_areas: [1, 4] },
		});
		expect(output).toEqual([
			{
				json: expect.objectContaining({
					id: '31',
					type: 'contact',
					contact_id: 31,
					full_name: 'Ana Silva',
					email: 'ana.silva@example.com',
					phone: '+351210000000',
					cellphone: '+351910000000',
					language: 'pt',
					is_direct_user: true,
					has_access: true,
					// From the meta the API sends beside the contact.
					custom_fields: null,
				}),
				pairedItem: { item: 0 },
			},
		]);
	});

	it('returns the existing contact for a known email, trimmed, without creating one', async () => {
		const { output } = await checkOrCreate({ email: '  CONTACT3@example.com ' });
		expect((await fixture.requests())[0]).toMatchObject({
			body: { email: 'CONTACT3@example.com' },
			status: 200,
		});
		expect(output[0].json).toMatchObject({
			id: '3',
			full_name: 'Contact 3',
			email: 'contact3@example.com',
		});
		expect(await fixture.control('GET', '/state/contacts/31')).toEqual({ error: 'No such record' });
	});

	it('sends a name alone, and leaves out permissions that were not added', async () => {
		const { output } = await checkOrCreate({ name: 'Site Manager', direct_permissions: {} });
		expect((await fixture.requests())[0].body).toEqual({ name: 'Site Manager' });
		expect(output[0].json).toMatchObject({ full_name: 'Site Manager', is_direct_user: false });
	});

	it('sends a permission set to false, since false is a choice', async () => {
		await checkOrCreate({ email: 'x@example.com', direct_permissions: { quotes: false } });
		expect((await fixture.requests())[0].body).toEqual({
			email: 'x@example.com',
			direct_permissions: { quotes: false },
		});
	});

	it('with Simplify off, returns the API shape', async () => {
		const { output } = await checkOrCreate({ email: 'contact1@example.com', simplify: false });
		expect(output[0].json).toMatchObject({
			id: '1',
			type: 'contact',
			attributes: expect.objectContaining({ full_name: 'Contact 1' }),
			meta: { custom_fields: null },
		});
	});
});

describe('Contact: checked before sending', () => {
	const BAD: Array<[string, Record<string, unknown>, string]> = [
		['neither email nor name', {}, 'email'],
		['a name of spaces only', { name: '   ' }, 'email'],
		['an email that is not an email', { email: 'ana at example' }, 'email'],
		['a name that is not text', { name: '={{ 42 }}' }, 'name'],
		...(
			[
				['problem area IDs that are not numbers', 'reportable_problem_areas', '1, north', '[1]'],
				['a work order type outside all and assigned', 'failure_type', '={{ "some" }}', ''],
				['a report state outside the three', 'failure_reports_states', '={{ "open" }}', ''],
				['a permission that is not true or false', 'preventive', '={{ "yes" }}', ''],
			] as const
		).map(([what, permission, value, index]): [string, Record<string, unknown>, string] => [
			what,
			{ name: 'A', direct_permissions: { [permission]: value } },
			`direct_permissions.${permission}${index}`,
		]),
	];

	fixture.itRefuses(checkOrCreate, BAD, 0);
});

describe('Contact: errors and items', () => {
	it('500 with the spec message, sent once: a create is never retried', async () => {
		await fixture.control('POST', '/faults', { status: 500, count: 3, path: '/contacts' });
		const { error } = await checkOrCreate({ name: 'A' });
		expect(error?.message).toBe(
			'The service failed on POST /contacts (500) and the request was not retried. It may have been written: check whether it exists before sending it again.',
		);
		expect(error?.description).toMatch(/not retried/);
		expect(await fixture.requests()).toHaveLength(1);
	});

	it('with Continue On Fail, a bad item yields an error item paired with it and the others are sent', async () => {
		const { output, error } = await checkOrCreate(
			{ email: '={{ $json.email }}' },
			{
				continueOnFail: true,
				items: [{ email: 'one@example.com' }, { email: 'two' }, { email: 'contact2@example.com' }],
			},
		);
		expectItems({ output, error }, [
			{ email: 'one@example.com', type: 'contact' },
			/"email".*email address/,
			{ id: '2', full_name: 'Contact 2' },
		]);
		expect(await sentField(fixture, 'email')).toEqual(['one@example.com', 'contact2@example.com']);
	});
});

describe('Contact: checkOrCreate refuses what its rules forbid, naming the field', () => {
	fixture.itRefuses(fixture.operation('checkOrCreate'), [
		['a contact email that is not an email', { email: 'nope' }, 'email'],
	]);
});
