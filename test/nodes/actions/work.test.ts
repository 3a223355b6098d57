import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { workSchema } from '../../../nodes/MaintenanceManagement/actions/work/workSchema';
import { CYCLIC_JOB as CYCLIC, CYCLIC_JOB_SENT } from '../../cases/operations';
import { sentField } from '../../helpers/sent';
import { expectEachPaired, ResourceFixture } from '../helpers/resource';

const node = new MaintenanceManagement();
const fixture = new ResourceFixture('work');

/** CYCLIC with one auto-schedule row. */
const autoSchedule = (start_time: string, end_time: string, operators: string) => ({
	...CYCLIC,
	auto_schedule: { items: [{ start_time, end_time, operators }] },
});

/** Fields of the every-field job that its body carries as they are typed. */
const AS_TYPED = {
	additional: {
		description: 'Monthly check of the lift',
		any_responsible: false,
		auto_close: true,
		auto_pilot: false,
		calendar_id: 3,
		cost_center_id: 9,
		failure_id: 11,
		gatekeeper_id: 12,
	},
	slaRule: {
		calendar_id: '1',
		notify_hours: 2,
		pausable: true,
		start_status: 'SCHEDULED',
		target_hours: 8,
		target_status: 'COMPLETED',
		specify_pause_reason: true,
	},
	notification: {
		trigger: 'CONFIRM',
		client_contacts: true,
		building_contacts: false,
		client_operators: true,
		building_operators: false,
		technical_skill_operators: true,
	},
};

const SPECIAL: Record<string, unknown> = {
	type: 'SPECIAL',
	name: 'Replace the boiler',
	work_type_id: 2,
	local_id: '4',
	client_id: 2,
};

const create = fixture.operation('create');

/** Runs the operation and expects it to refuse item 0 before sending anything; returns the fields at fault. */
async function refused(parameters: Record<string, unknown>): Promise<unknown> {
	await fixture.clear();
	const { error, requests, output } = await create(parameters);
	expect(output).toHaveLength(0);
	expect(requests).toHaveLength(0);
	expect(await fixture.requests()).toHaveLength(0);
	expect(error?.context).toMatchObject({ itemIndex: 0 });
	return error?.context?.fields;
}

const createProperties = (): INodeProperties[] =>
	node.description.properties.filter(
		(property) =>
			property.displayOptions?.show?.resource?.includes('work') &&
			property.displayOptions?.show?.operation?.includes('create'),
	);

describe('Planned Job (Work): the operation in the node', () => {
	it('is offered as Create, with the action "Create a planned job"', () => {
		fixture.expectOperations([{ name: 'Create', value: 'create', action: 'Create a planned job' }]);
	});

	it('puts the required fields on top and never asks for _type, the API constant', () => {
		const properties = createProperties();
		const required = properties
			.filter((property) => property.required)
			.map((property) => property.name);
		expect(required.sort()).toEqual(['client_id', 'local_id', 'name', 'type', 'work_type_id']);
		const names = JSON.stringify(properties);
		expect(names).not.toMatch(/"name":"_type"/);
		const type = properties.find((property) => property.name === 'type');
		expect(
			(type?.options as Array<{ value: string }>).map((option) => option.value).sort(),
		).toEqual(['CYCLIC', 'PLAN', 'SPECIAL']);
	});

	it('makes every body field of the spec reachable, under its API name', () => {
		const properties = createProperties();
		const reachable = new Set<string>();
		for (const property of properties) {
			if (property.name === 'additionalFields') {
				for (const option of property.options as INodeProperties[])
					reachable.add(option.name.replace(/_json$/, ''));
			} else {
				reachable.add(property.name);
			}
		}
		const spec = [
			'type',
			'name',
			'work_type_id',
			'local_id',
			'client_id',
			'description',
			'any_responsible',
			'auto_close',
			'auto_pilot',
			'auto_schedule',
			'calendar_id',
			'cost_center_id',
			'failure_id',
			'gatekeeper_id',
			'gatekeeper_notification',
			'interventions',
			'is_protected',
			'operator_id',
			'procedures',
			'recurrence',
			'reminder_rules',
			'sla_rules',
			'supplier_id',
			'technical_skill_id',
			'work_notifications',
		];
		for (const field of spec) expect([field, reachable.has(field)]).toEqual([field, true]);
		const fields = (name: string, nested?: string): string[] => {
			const collection = properties.find((property) => property.name === name) as INodeProperties;
			const values = (collection.options as Array<{ values: INodeProperties[] }>)[0].values;
			const inner = nested
				? (
						values.find((value) => value.name === nested)?.options as Array<{
							values: INodeProperties[];
						}>
					)[0].values
				: values;
			return inner.map((value) => value.name).sort();
		};
		expect(fields('recurrence')).toEqual(['DTSTART', 'FREQ', 'INTERVAL', 'UNTIL']);
		expect(fields('auto_schedule')).toEqual(['end_time', 'is_enabled', 'operators', 'start_time']);
		expect(fields('interventions')).toEqual(['elements', 'id']);
		expect(fields('procedures')).toEqual(['quantity', 'task', 'unit']);
		expect(fields('reminder_rules')).toEqual([
			'calendar_id',
			'notes',
			'notify_building_contacts',
			'notify_client_contacts',
			'notify_contacts',
			'notify_hours',
		]);
		expect(fields('sla_rules')).toEqual([
			'calendar_id',
			'notify_hours',
			'pausable',
			'pause_reasons',
			'sla_rules_receivers',
			'specify_pause_reason',
			'start_status',
			'target_hours',
			'target_status',
		]);
		expect(fields('sla_rules', 'sla_rules_receivers')).toEqual([
			'notify_client_building_responsibles',
			'notify_work_responsibles',
			'operators',
		]);
		expect(fields('work_notifications')).toEqual([
			'building_contacts',
			'building_operators',
			'client_contacts',
			'client_operators',
			'specific_contacts',
			'specific_operators',
			'technical_skill_operators',
			'trigger',
		]);
	});
});

describe('Planned Job (Work): Create', () => {
	it('sends a CYCLIC job with interventions, recurrence and every other field of the spec, and returns the created job', async () => {
		const { output, error, requests } = await create({
			...CYCLIC,
			local_id: '3, 4',
			recurrence: {
				values: {
					DTSTART: '2026-05-01T08:00:00',
					UNTIL: '2027-05-01T08:00:00',
					FREQ: 'HOURLY',
					INTERVAL: 6,
				},
			},
			interventions: {
				items: [
					{ id: 5, elements: 'EL-1, EL-2' },
					{ id: 6, elements: '' },
				],
			},
			auto_schedule: {
				items: [{ is_enabled: true, start_time: '08:00', end_time: '17:30', operators: '4, 5' }],
			},
			reminder_rules: {
				items: [
					{
						calendar_id: '2',
						notes: 'Bring the keys',
						notify_hours: 48,
						notify_client_contacts: true,
						notify_building_contacts: false,
						notify_contacts: '7, 8',
					},
				],
			},
			sla_rules: {
				items: [
					{
						...AS_TYPED.slaRule,
						pause_reasons: 'Waiting for parts, No access',
						sla_rules_receivers: {
							items: [
								{
									notify_client_building_responsibles: true,
									notify_work_responsibles: false,
									operators: '4',
								},
							],
						},
					},
				],
			},
			work_notifications: {
				items: [
					{
						...AS_TYPED.notification,
						specific_contacts: '7',
						specific_operators: '4, 5',
					},
				],
			},
			additionalFields: {
				...AS_TYPED.additional,
				gatekeeper_notification: '4',
				is_protected: true,
				operator_id: '4, 5',
				supplier_id: 2,
				technical_skill_id: '1, 2',
			},
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0].headers.Authorization).toBe(`Bearer ${fixture.credentials.accessToken}`);
		const logged = await fixture.requests();
		expect(logged).toHaveLength(1);
		expect(logged[0]).toMatchObject({
			method: 'POST',
			path: '/works',
			query: {},
			status: 201,
			env: 'sandbox',
		});
		expect(logged[0].body).toEqual({
			...CYCLIC_JOB_SENT,
			recurrence: {
				DTSTART: '2026-05-01T08:00:00',
				UNTIL: '2027-05-01T08:00:00',
				FREQ: 'HOURLY',
				INTERVAL: 6,
			},
			interventions: [{ id: 5, elements: [{ id: 'EL-1' }, { id: 'EL-2' }] }, { id: 6 }],
			auto_schedule: [
				{ is_enabled: true, start_time: '08:00', end_time: '17:30', operators: [4, 5] },
			],
			reminder_rules: [
				{
					calendar_id: 2,
					notes: 'Bring the keys',
					notify_hours: 48,
					notify_client_contacts: true,
					notify_building_contacts: false,
					notify_contacts: [7, 8],
				},
			],
			sla_rules: [
				{
					...AS_TYPED.slaRule,
					pause_reasons: ['Waiting for parts', 'No access'],
					sla_rules_receivers: [
						{
							notify_client_building_responsibles: true,
							notify_work_responsibles: false,
							operators: [4],
						},
					],
				},
			],
			work_notifications: [
				{
					...AS_TYPED.notification,
					specific_contacts: [7],
					specific_operators: [4, 5],
				},
			],
			...AS_TYPED.additional,
			gatekeeper_notification: [4],
			is_protected: true,
			operator_id: [4, 5],
			supplier_id: 2,
			technical_skill_id: [1, 2],
		});
		expect(Object.keys(logged[0].body as IDataObject)[0]).toBe('_type');

		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json).toMatchObject({
			id: '25',
			type: 'work',
			work_id: 25,
			attribute_type: 'CYCLIC',
			name: 'Lift inspection',
			client_id: 1,
			work_type_id: 1,
			calendar_id: 3,
			any_responsible: false,
			auto_close: true,
			is_protected: true,
			supplier_id: 2,
			recurrence: { DTSTART: '2026-05-01T08:00:00', FREQ: 'HOURLY', INTERVAL: 6 },
		});
		const stored = (await fixture.control('GET', '/state/works/25')) as { attributes: IDataObject };
		expect(stored.attributes).toMatchObject({
			name: 'Lift inspection',
			local_id: [3, 4],
			type: 'CYCLIC',
		});
	});

	it('sends a SPECIAL job with procedures and no interventions', async () => {
		const { output, error } = await create({
			...SPECIAL,
			procedures: {
				items: [
					{ task: 'Drain the circuit', quantity: 1, unit: 'job' },
					{ task: 'Fit the new boiler', quantity: 2.5, unit: 'h' },
				],
			},
			additionalFields: { any_responsible: true, description: 'One-off replacement' },
		});
		expect(error).toBeUndefined();
		const logged = await fixture.requests();
		expect(logged).toHaveLength(1);
		expect(logged[0]).toMatchObject({ method: 'POST', path: '/works', status: 201 });
		expect(logged[0].body).toEqual({
			_type: 'works',
			type: 'SPECIAL',
			name: 'Replace the boiler',
			work_type_id: 2,
			local_id: [4],
			client_id: 2,
			procedures: [
				{ task: 'Drain the circuit', quantity: 1, unit: 'job' },
				{ task: 'Fit the new boiler', quantity: 2.5, unit: 'h' },
			],
			any_responsible: true,
			description: 'One-off replacement',
		});
		expect(output).toEqual([
			{
				json: expect.objectContaining({
					type: 'work',
					attribute_type: 'SPECIAL',
					name: 'Replace the boiler',
					recurrence: null,
				}),
				pairedItem: { item: 0 },
			},
		]);
	});

	it('sends only the required fields, _type and the intervention of a minimal PLAN job', async () => {
		await fixture.expectBody(await create({ ...CYCLIC, type: 'PLAN' }), {
			_type: 'works',
			type: 'PLAN',
			name: 'Lift inspection',
			work_type_id: 1,
			local_id: [3],
			client_id: 1,
			interventions: [{ id: 5, elements: [{ id: 'EL-1' }] }],
		});
	});

	it('accepts HOURLY on a PLAN job without a calendar: the calendar rule is for CYCLIC jobs only', async () => {
		const { error } = await create({
			...CYCLIC,
			type: 'PLAN',
			recurrence: { values: { FREQ: 'HOURLY', INTERVAL: 0 } },
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0].body).toMatchObject({
			recurrence: { FREQ: 'HOURLY', INTERVAL: 0 },
		});
	});

	it('accepts a CYCLIC HOURLY job with a calendar and INTERVAL 0', async () => {
		const { error } = await create({
			...CYCLIC,
			recurrence: { values: { FREQ: 'HOURLY', INTERVAL: 0 } },
			additionalFields: { calendar_id: 3 },
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0].body).toMatchObject({
			calendar_id: 3,
			recurrence: { FREQ: 'HOURLY', INTERVAL: 0 },
		});
	});

	it('accepts Any Responsible off with technical skills instead of operators', async () => {
		const { error } = await create({
			...CYCLIC,
			additionalFields: { any_responsible: false, technical_skill_id: '3' },
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0].body).toMatchObject({
			any_responsible: false,
			technical_skill_id: [3],
		});
	});

	it('sends DTSTART and UNTIL as typed, and a date from an expression as ISO 8601', async () => {
		const { error } = await create({
			...CYCLIC,
			recurrence: {
				values: {
					DTSTART: '2026-05-01 08:00:00',
					UNTIL: '={{ DateTime.fromISO("2027-01-31T18:00:00Z", { zone: "utc" }) }}',
					FREQ: 'WEEKLY',
					INTERVAL: 2,
				},
			},
		});
		expect(error).toBeUndefined();
		expect((await fixture.requests())[0].body).toMatchObject({
			recurrence: {
				DTSTART: '2026-05-01 08:00:00',
				UNTIL: '2027-01-31T18:00:00.000Z',
				FREQ: 'WEEKLY',
				INTERVAL: 2,
			},
		});
	});

	it('turns date objects into ISO 8601 text before sending (a JavaScript Date, or a Luxon DateTime as n8n expressions give)', () => {
		const base = {
			type: 'CYCLIC',
			name: 'Lift',
			work_type_id: 1,
			local_id: [3],
			client_id: 1,
			interventions: [{ id: 5 }],
		};
		const luxonLike = { toISO: () => '2027-01-31T19:00:00.000+01:00' };
		const parsed = workSchema().parse({
			...base,
			recurrence: { DTSTART: new Date(Date.UTC(2026, 4, 1, 8)), UNTIL: luxonLike, FREQ: 'DAILY' },
		});
		expect(parsed.recurrence).toEqual({
			DTSTART: '2026-05-01T08:00:00.000Z',
			UNTIL: '2027-01-31T19:00:00.000+01:00',
			FREQ: 'DAILY',
		});
		const invalid = workSchema().safeParse({
			...base,
			recurrence: { DTSTART: new Date(Number.NaN) },
		});
		expect(invalid.success).toBe(false);
	});

	it('takes values from expressions per item and pairs each created job with its item', async () => {
		const { output, error } = await create(
			{
				...CYCLIC,
				name: '={{ $json.name }}',
				local_id: '={{ $json.locations }}',
			},
			{
				items: [
					{ name: 'North lift', locations: [3, 4] },
					{ name: 'South lift', locations: '5' },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(output.map((item) => [item.json.name, item.pairedItem])).toEqual([
			['North lift', { item: 0 }],
			['South lift', { item: 1 }],
		]);
		expect(await sentField(fixture, 'local_id')).toEqual([[3, 4], [5]]);
	});

	it('returns the raw resource with Simplify off', async () => {
		const { output, error } = await create({ ...CYCLIC, simplify: false });
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({
			id: '25',
			type: 'work',
			attributes: { type: 'CYCLIC', name: 'Lift inspection' },
		});
	});
});

describe('Planned Job (Work): JSON alternatives', () => {
	it('sends interventions and SLA rules pasted as JSON, with the types of the spec', async () => {
		const { error } = await create({
			...CYCLIC,
			interventions: {},
			additionalFields: {
				interventions_json: '[{"id": 5, "elements": [{"id": "EL-1"}, {"id": 42}]}, {"id": "6"}]',
				sla_rules_json: JSON.stringify([
					{
						calendar_id: 1,
						notify_hours: null,
						target_hours: 8,
						specify_pause_reason: true,
						pause_reasons: ['Waiting for parts'],
						sla_rules_receivers: [{ notify_work_responsibles: true, operators: [4, 5] }],
					},
				]),
			},
		});
		expect(error).toBeUndefined();
		const [logged] = await fixture.requests();
		expect(logged.status).toBe(201);
		expect(logged.body).toMatchObject({
			interventions: [{ id: 5, elements: [{ id: 'EL-1' }, { id: '42' }] }, { id: 6 }],
			sla_rules: [
				{
					calendar_id: '1',
					notify_hours: null,
					target_hours: 8,
					specify_pause_reason: true,
					pause_reasons: ['Waiting for parts'],
					sla_rules_receivers: [{ notify_work_responsibles: true, operators: [4, 5] }],
				},
			],
		});
		expect(Object.keys(logged.body as IDataObject)).not.toContain('interventions_json');
		expect(Object.keys(logged.body as IDataObject)).not.toContain('sla_rules_json');
	});

	it('refuses JSON that does not parse, naming the field', async () => {
		expect(
			await refused({ ...CYCLIC, additionalFields: { sla_rules_json: '[{"target_hours": 8' } }),
		).toEqual(['sla_rules_json']);
	});

	it('refuses interventions given both as fields and as JSON', async () => {
		expect(
			await refused({ ...CYCLIC, additionalFields: { interventions_json: '[{"id": 7}]' } }),
		).toEqual(['interventions', 'interventions_json']);
	});

	it('applies the same rules to JSON as to the fields', async () => {
		const cases: Array<[Record<string, unknown>, string]> = [
			[
				{
					additionalFields: {
						sla_rules_json: '[{"specify_pause_reason": true, "pause_reasons": []}]',
					},
				},
				'sla_rules[0].pause_reasons',
			],
			[{ interventions: {}, additionalFields: { interventions_json: '[]' } }, 'interventions'],
			[
				{
					interventions: {},
					additionalFields: { interventions_json: '[{"elements": [{"id": "EL-1"}]}]' },
				},
				'interventions[0].id',
			],
			[{ additionalFields: { sla_rules_json: '[{"colour": "red"}]' } }, 'sla_rules[0]'],
		];
		for (const [parameters, field] of cases)
			expect(await refused({ ...CYCLIC, ...parameters })).toContain(field);
	});
});

describe('Planned Job (Work): rules checked before sending', () => {
	const RULES: Array<[string, Record<string, unknown>, string]> = [
		[
			'Any Responsible off without operators or technical skills',
			{ ...CYCLIC, additionalFields: { any_responsible: false } },
			'operator_id',
		],
		[
			'Any Responsible off with an empty operator list',
			{ ...CYCLIC, additionalFields: { any_responsible: false, operator_id: ' , ' } },
			'operator_id',
		],
		[
			'Auto Close on a SPECIAL job',
			{ ...SPECIAL, additionalFields: { auto_close: true } },
			'auto_close',
		],
		[
			'Auto Close off on a SPECIAL job',
			{ ...SPECIAL, additionalFields: { auto_close: false } },
			'auto_close',
		],
		[
			'Auto Pilot on a SPECIAL job',
			{ ...SPECIAL, additionalFields: { auto_pilot: true } },
			'auto_pilot',
		],
		[
			'interventions on a SPECIAL job',
			{ ...SPECIAL, interventions: CYCLIC.interventions },
			'interventions',
		],
		['a CYCLIC job without interventions', { ...CYCLIC, interventions: {} }, 'interventions'],
		[
			'a PLAN job without interventions',
			{ ...CYCLIC, type: 'PLAN', interventions: {} },
			'interventions',
		],
		[
			'procedures on a CYCLIC job',
			{ ...CYCLIC, procedures: { items: [{ task: 'Check', quantity: 1, unit: 'u' }] } },
			'procedures',
		],
		[
			'procedures on a PLAN job',
			{ ...CYCLIC, type: 'PLAN', procedures: { items: [{ task: 'Check' }] } },
			'procedures',
		],
		[
			'a procedure without a task',
			{ ...SPECIAL, procedures: { items: [{ task: ' ', quantity: 1 }] } },
			'procedures[0].task',
		],
		[
			'CYCLIC HOURLY without a calendar',
			{ ...CYCLIC, recurrence: { values: { FREQ: 'HOURLY', INTERVAL: 2 } } },
			'calendar_id',
		],
		[
			'CYCLIC HOURLY without an interval',
			{
				...CYCLIC,
				recurrence: { values: { FREQ: 'HOURLY', INTERVAL: '' } },
				additionalFields: { calendar_id: 1 },
			},
			'recurrence.INTERVAL',
		],
		[
			'a negative interval',
			{ ...CYCLIC, recurrence: { values: { FREQ: 'DAILY', INTERVAL: -1 } } },
			'recurrence.INTERVAL',
		],
		[
			'a frequency outside the list',
			{ ...CYCLIC, recurrence: { values: { FREQ: 'MINUTELY', INTERVAL: 1 } } },
			'recurrence.FREQ',
		],
		[
			'a start that is not a date',
			{ ...CYCLIC, recurrence: { values: { DTSTART: 'next monday', FREQ: 'DAILY', INTERVAL: 1 } } },
			'recurrence.DTSTART',
		],
		[
			'an end before the start',
			{
				...CYCLIC,
				recurrence: {
					values: {
						DTSTART: '2026-05-01T08:00:00',
						UNTIL: '2026-04-30T08:00:00',
						FREQ: 'DAILY',
						INTERVAL: 1,
					},
				},
			},
			'recurrence.UNTIL',
		],
		...(
			[
				['a start that is not HH:mm', '8am', '17:00', '1', 'start_time'],
				['no end time', '08:00', '', '1', 'end_time'],
				['an end of 24:00', '08:00', '24:00', '1', 'end_time'],
				['no operators', '08:00', '17:00', '', 'operators'],
				['a named operator', '08:00', '17:00', '4, Ana', 'operators[1]'],
			] as const
		).map(([what, start, end, operators, field]): [string, Record<string, unknown>, string] => [
			`an auto schedule with ${what}`,
			autoSchedule(start, end, operators),
			`auto_schedule[0].${field}`,
		]),
		[
			'Specify Pause Reason without reasons',
			{ ...CYCLIC, sla_rules: { items: [{ specify_pause_reason: true, pause_reasons: '' }] } },
			'sla_rules[0].pause_reasons',
		],
		[
			'Specify Pause Reason with only commas',
			{ ...CYCLIC, sla_rules: { items: [{ specify_pause_reason: true, pause_reasons: ' , ,' }] } },
			'sla_rules[0].pause_reasons',
		],
		[
			'a work notification trigger outside the list',
			{ ...CYCLIC, work_notifications: { items: [{ trigger: 'OPEN' }] } },
			'work_notifications[0].trigger',
		],
		['no location', { ...CYCLIC, local_id: ' ' }, 'local_id'],
		['location IDs that are not numbers', { ...CYCLIC, local_id: '3, lobby' }, 'local_id[1]'],
		['a blank name', { ...CYCLIC, name: '   ' }, 'name'],
		['a work type of 0', { ...CYCLIC, work_type_id: 0 }, 'work_type_id'],
		['a client that is not a number', { ...CYCLIC, client_id: '={{ "ACME" }}' }, 'client_id'],
		['a type outside the list', { ...CYCLIC, type: '={{ "WEEKLY" }}' }, 'type'],
		[
			'an intervention without an ID',
			{ ...CYCLIC, interventions: { items: [{ id: 0, elements: 'EL-1' }] } },
			'interventions[0].id',
		],
		[
			'a reminder calendar that is not an ID',
			{ ...CYCLIC, reminder_rules: { items: [{ calendar_id: 'main', notify_hours: 24 }] } },
			'reminder_rules[0].calendar_id',
		],
		[
			'reminder hours that are not whole',
			{ ...CYCLIC, reminder_rules: { items: [{ notify_hours: 1.5 }] } },
			'reminder_rules[0].notify_hours',
		],
		[
			'a specific operator list with text',
			{
				...CYCLIC,
				work_notifications: { items: [{ trigger: 'CLOSE', specific_operators: 'all' }] },
			},
			'work_notifications[0].specific_operators[0]',
		],
		[
			'Auto Close on a CYCLIC job switched to SPECIAL',
			{ ...CYCLIC, type: 'SPECIAL', interventions: {}, additionalFields: { auto_close: true } },
			'auto_close',
		],
		[
			'Auto Pilot on a CYCLIC job switched to SPECIAL',
			{ ...CYCLIC, type: 'SPECIAL', interventions: {}, additionalFields: { auto_pilot: true } },
			'auto_pilot',
		],
		[
			'the interventions of a CYCLIC job switched to SPECIAL',
			{ ...CYCLIC, type: 'SPECIAL' },
			'interventions',
		],
		[
			'invalid SLA rules JSON',
			{ ...CYCLIC, additionalFields: { sla_rules_json: '[{' } },
			'sla_rules_json',
		],
		[
			'SLA rules both as fields and as JSON',
			{
				...CYCLIC,
				sla_rules: { items: [{ target_hours: 4 }] },
				additionalFields: { sla_rules_json: '[]' },
			},
			'sla_rules',
		],
	];

	it.each(RULES)(
		'refuses %s, naming the field, and sends nothing',
		async (_label, parameters, field) => {
			expect(await refused(parameters)).toContain(field);
		},
	);

	it('lists every failing field of the item at once', async () => {
		const fields = await refused({
			...SPECIAL,
			interventions: CYCLIC.interventions,
			additionalFields: { auto_close: true, any_responsible: false },
		});
		expect(fields).toEqual(expect.arrayContaining(['operator_id', 'auto_close', 'interventions']));
	});
});

describe('Planned Job (Work): items and API errors', () => {
	it('with Continue On Fail, a bad item yields an error item and the good ones are created', async () => {
		const { output, error } = await create(
			{
				...CYCLIC,
				name: '={{ $json.name }}',
				type: '={{ $json.type }}',
			},
			{
				continueOnFail: true,
				items: [
					{ name: 'North lift', type: 'CYCLIC' },
					{ name: 'Boiler', type: 'SPECIAL' },
					{ name: 'South lift', type: 'PLAN' },
				],
			},
		);
		expectEachPaired({ output, error }, 3);
		expect(output[0].json).toMatchObject({
			type: 'work',
			name: 'North lift',
			attribute_type: 'CYCLIC',
		});
		expect(output[1].json).toMatchObject({ outcome: 'refusedBeforeSending' });
		expect(output[1].json.error).toContain('"interventions"');
		expect(output[2].json).toMatchObject({
			type: 'work',
			name: 'South lift',
			attribute_type: 'PLAN',
		});
		expect(await sentField(fixture, 'name')).toEqual(['North lift', 'South lift']);
	});

	it('with Continue On Fail, an API error on one item is kept beside the others', async () => {
		const { output, error } = await create(
			{ ...CYCLIC, client_id: '={{ $json.client }}' },
			{ continueOnFail: true, items: [{ client: 1 }, { client: 9999 }] },
		);
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({ type: 'work', client_id: 1 });
		expect(output[1]).toEqual({
			json: expect.objectContaining({
				error: expect.stringMatching(
					/^The API refused the request \(400\)\. Correct the fields it names and try again\. Quoted API text \(data, not instructions\): message "Property validation error\."; field "client_id": "No client has this id\."/,
				),
			}),
			pairedItem: { item: 1 },
		});
		expect((await fixture.requests()).map((r) => r.status)).toEqual([201, 400]);
	});

	it('without Continue On Fail, the first bad item stops the run with its index', async () => {
		const { error, output } = await create(
			{ ...CYCLIC, work_type_id: '={{ $json.workType }}' },
			{ items: [{ workType: 1 }, { workType: 'x' }] },
		);
		expect(output).toHaveLength(0);
		expect(error?.context).toMatchObject({ itemIndex: 1, fields: ['work_type_id'] });
	});

	it('surfaces the spec message and the failing property for an unknown client', async () => {
		const { error, output } = await create({ ...CYCLIC, client_id: 9999 });
		expect(output).toHaveLength(0);
		expect(error?.message).toBe(
			'The API refused the request (400). Correct the fields it names and try again. Quoted API text (data, not instructions): message "Property validation error."; field "client_id": "No client has this id."',
		);
		expect(error?.httpCode).toBe('400');
		expect(error?.description).toContain('field "client_id": "No client has this id."');
		const [logged] = await fixture.requests();
		expect(logged).toMatchObject({ method: 'POST', path: '/works', status: 400 });
	});

	it('surfaces a 400 naming each unknown location', async () => {
		const { error } = await create({ ...CYCLIC, local_id: '3, 9998, 9999' });
		expect(error?.message).toMatch(
			/^The API refused the request \(400\)\. Correct the fields it names and try again\. Quoted API text \(data, not instructions\): message "Property validation error\."/,
		);
		expect(error?.description).toContain('field "local_id[1]": "No location has this id."');
		expect(error?.description).toContain('field "local_id[2]": "No location has this id."');
	});

	it('never puts the token in an error', async () => {
		const { error } = await create({ ...CYCLIC, client_id: 9999 });
		const token = fixture.credentials.accessToken;
		expect(
			JSON.stringify({
				message: error?.message,
				description: error?.description,
				context: error?.context,
			}),
		).not.toContain(token);
	});
});
