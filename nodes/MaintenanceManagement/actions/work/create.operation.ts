import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, booleanField, idField, wholeNumber } from '../../../shared/fields';
import { sendOperation } from '../../../shared/registry';
import { FREQUENCIES, NOTIFICATION_TRIGGERS, WORK_TYPES, workSchema } from './workSchema';

const ids = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: 'e.g. 3, 8',
	description,
});

/** A repeatable group of fields that becomes an array of objects in the body. */
const list = (
	displayName: string,
	name: string,
	itemName: string,
	values: INodeProperties[],
	description?: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: `Add ${itemName}`,
	default: {},
	...(description ? { description } : {}),
	options: [{ displayName: itemName, name: 'items', values }],
});

const properties: INodeProperties[] = [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		required: true,
		options: WORK_TYPES.options,
		default: 'CYCLIC',
		description:
			'How the job runs. CYCLIC and PLAN jobs need at least one intervention under Interventions; SPECIAL jobs take none.',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Monthly boiler check',
		description: 'The name the planned job is listed by, chosen by you',
	},
	{
		displayName: 'Work Type ID',
		name: 'work_type_id',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 4',
		description:
			'The ID of the kind of work (e.g. preventive). The API lists no work types: take it from the list of work types in the service, or from work_type_id of an existing job.',
	},
	{
		...ids(
			'Location IDs',
			'local_id',
			'Comma-separated IDs of the locations the job covers; at least one. See Location → Get Many.',
		),
		required: true,
	},
	{
		displayName: 'Client ID',
		name: 'client_id',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1',
		description:
			"The ID of the client the job is done for: a building's client_id in Location → Get Many, or the list of clients in the service",
	},
	{
		displayName: 'Recurrence',
		name: 'recurrence',
		type: 'fixedCollection',
		placeholder: 'Add Recurrence',
		default: {},
		description:
			'When and how often the job repeats. A CYCLIC job repeating HOURLY also needs Calendar ID and Interval.',
		options: [
			{
				displayName: 'Recurrence',
				name: 'values',
				values: [
					{
						displayName: 'Start (DTSTART)',
						name: 'DTSTART',
						type: 'dateTime',
						default: '',
						description:
							'When the job starts repeating; sent as entered (ISO 8601 or YYYY-MM-DD HH:mm:ss)',
					},
					{
						displayName: 'Until (UNTIL)',
						name: 'UNTIL',
						type: 'dateTime',
						default: '',
						description: 'When the job stops repeating; must not be before the start',
					},
					{
						displayName: 'Frequency (FREQ)',
						name: 'FREQ',
						type: 'options',
						options: FREQUENCIES.options,
						default: 'MONTHLY',
					},
					{
						displayName: 'Interval (INTERVAL)',
						name: 'INTERVAL',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 1,
						description:
							'Every how many periods; 0 or more. Required for CYCLIC jobs repeating HOURLY.',
					},
				],
			},
		],
	},
	list(
		'Interventions',
		'interventions',
		'Intervention',
		[
			idField(
				'Intervention ID',
				'id',
				'The ID of an intervention in the service, a whole number. The API lists no interventions: take it from the list of interventions in the service.',
			),
			{
				displayName: 'Element IDs',
				name: 'elements',
				type: 'string',
				default: '',
				placeholder: 'e.g. EL-1, EL-2',
				description: 'Comma-separated asset (element) IDs; each is sent as text',
			},
		],
		'Required for CYCLIC and PLAN jobs, not allowed for SPECIAL ones. Or paste them as JSON under Additional Fields → Interventions (JSON).',
	),
	list(
		'Procedures',
		'procedures',
		'Procedure',
		[
			{ displayName: 'Task', name: 'task', type: 'string', default: '' },
			{ displayName: 'Quantity', name: 'quantity', type: 'number', default: 1 },
			{ displayName: 'Unit', name: 'unit', type: 'string', default: '' },
		],
		'Only for SPECIAL jobs',
	),
	list('Auto Schedule', 'auto_schedule', 'Time Window', [
		{ ...booleanField('Is Enabled', 'is_enabled', 'Whether this window is used'), default: true },
		{
			displayName: 'Start Time',
			name: 'start_time',
			type: 'string',
			default: '08:00',
			placeholder: 'HH:mm',
		},
		{
			displayName: 'End Time',
			name: 'end_time',
			type: 'string',
			default: '17:00',
			placeholder: 'HH:mm',
		},
		ids('Operator IDs', 'operators', 'Comma-separated IDs of the operators to schedule'),
	]),
	list('Reminder Rules', 'reminder_rules', 'Reminder Rule', [
		{
			displayName: 'Calendar ID',
			name: 'calendar_id',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2',
			description: 'ID of the calendar of the reminder; left empty, it is not sent',
		},
		{ displayName: 'Notes', name: 'notes', type: 'string', default: '' },
		wholeNumber('Notify Hours', 'notify_hours', 'How many hours ahead to remind', 24),
		booleanField(
			'Notify Client Contacts',
			'notify_client_contacts',
			'Whether to notify the contacts of the client',
		),
		booleanField(
			'Notify Building Contacts',
			'notify_building_contacts',
			'Whether to notify the contacts of the building',
		),
		ids('Contact IDs to Notify', 'notify_contacts', 'Comma-separated contact IDs'),
	]),
	list(
		'SLA Rules',
		'sla_rules',
		'SLA Rule',
		[
			{
				displayName: 'Calendar ID',
				name: 'calendar_id',
				type: 'string',
				default: '',
				placeholder: 'e.g. 1',
				description: 'ID of the calendar the SLA counts hours in (the API takes it as text)',
			},
			wholeNumber(
				'Notify Hours',
				'notify_hours',
				'How many hours before the target to notify the receivers',
			),
			booleanField('Pausable', 'pausable', 'Whether the SLA can be paused'),
			{ displayName: 'Start Status', name: 'start_status', type: 'string', default: '' },
			wholeNumber(
				'Target Hours',
				'target_hours',
				'Hours allowed between the start status and the target status',
				24,
			),
			{ displayName: 'Target Status', name: 'target_status', type: 'string', default: '' },
			booleanField(
				'Specify Pause Reason',
				'specify_pause_reason',
				'Whether a pause needs one of the pause reasons',
			),
			{
				displayName: 'Pause Reasons',
				name: 'pause_reasons',
				type: 'string',
				default: '',
				description: 'Comma-separated; at least one when Specify Pause Reason is on',
			},
			list('Receivers', 'sla_rules_receivers', 'Receiver', [
				booleanField(
					'Notify Client Building Responsibles',
					'notify_client_building_responsibles',
					'Whether to notify the responsibles of the building',
				),
				booleanField(
					'Notify Work Responsibles',
					'notify_work_responsibles',
					'Whether to notify the responsibles of the job',
				),
				ids('Operator IDs', 'operators', 'Comma-separated operator IDs'),
			]),
		],
		'Or paste them as JSON under Additional Fields → SLA Rules (JSON)',
	),
	list('Work Notifications', 'work_notifications', 'Notification', [
		{
			displayName: 'Trigger',
			name: 'trigger',
			type: 'options',
			options: NOTIFICATION_TRIGGERS.options,
			default: 'CLOSE',
		},
		booleanField(
			'Client Contacts',
			'client_contacts',
			'Whether to notify the contacts of the client',
		),
		booleanField(
			'Building Contacts',
			'building_contacts',
			'Whether to notify the contacts of the building',
		),
		booleanField(
			'Client Operators',
			'client_operators',
			'Whether to notify the operators of the client',
		),
		booleanField(
			'Building Operators',
			'building_operators',
			'Whether to notify the operators of the building',
		),
		booleanField(
			'Technical Skill Operators',
			'technical_skill_operators',
			'Whether to notify the operators with the technical skill',
		),
		ids('Specific Contact IDs', 'specific_contacts', 'Comma-separated contact IDs'),
		ids('Specific Operator IDs', 'specific_operators', 'Comma-separated operator IDs'),
	]),
	additionalFields([
		{
			...booleanField(
				'Any Responsible',
				'any_responsible',
				'Whether anyone may start it; when off, set Operator IDs or Technical Skill IDs',
			),
			default: true,
		},
		booleanField(
			'Auto Close',
			'auto_close',
			'Whether to close orders automatically (CYCLIC and PLAN only)',
		),
		booleanField('Auto Pilot', 'auto_pilot', 'Whether to run on auto pilot (CYCLIC and PLAN only)'),
		idField(
			'Calendar ID',
			'calendar_id',
			'The ID of a calendar; required for CYCLIC jobs repeating HOURLY',
		),
		idField('Cost Center ID', 'cost_center_id', 'The ID of the cost center'),
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
		},
		idField('Failure ID', 'failure_id', 'The ID of the related work order'),
		idField('Gatekeeper ID', 'gatekeeper_id', 'The ID of the gatekeeper operator'),
		ids(
			'Gatekeeper Notification Operator IDs',
			'gatekeeper_notification',
			'Comma-separated operator IDs',
		),
		{
			displayName: 'Interventions (JSON)',
			name: 'interventions_json',
			type: 'json',
			default: '[]',
			description:
				'Interventions as a JSON array, instead of the Interventions fields, for example from an expression',
			hint: 'For example: [{"id": 5, "elements": [{"id": "EL-1"}, {"id": "EL-2"}]}]',
		},
		booleanField(
			'Is Protected',
			'is_protected',
			'Whether to protect it from edition and deletion by managers',
		),
		ids('Operator IDs', 'operator_id', 'Comma-separated IDs of the responsible operators'),
		{
			displayName: 'SLA Rules (JSON)',
			name: 'sla_rules_json',
			type: 'json',
			default: '[]',
			description: 'SLA rules as a JSON array, instead of the SLA Rules fields',
			hint: 'For example: [{"calendar_id": "1", "target_hours": 8, "pausable": true, "sla_rules_receivers": [{"notify_work_responsibles": true, "operators": [4]}]}]',
		},
		idField('Supplier ID', 'supplier_id', 'The ID of the supplier who does the job'),
		ids(
			'Technical Skill IDs',
			'technical_skill_id',
			'Comma-separated IDs of the responsible technical skills',
		),
	]),
];

export const create = sendOperation('createWork', properties, {
	answers: 'list',
	body: {
		fields: [
			'type',
			'name',
			'work_type_id',
			'local_id',
			'client_id',
			'recurrence',
			'interventions',
			'procedures',
			'auto_schedule',
			'reminder_rules',
			'sla_rules',
			'work_notifications',
		],
		collections: ['additionalFields'],
		schema: workSchema,
	},
});
