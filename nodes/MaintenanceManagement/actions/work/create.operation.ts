import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, booleanField, idField } from '../../../shared/fields';
import { sendOperation } from '../../../shared/registry';
import { ids, WORK_LISTS } from './workLists';
import { FREQUENCIES, WORK_TYPES, workSchema } from './workSchema';

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
	...WORK_LISTS,
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
