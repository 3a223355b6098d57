import type { INodeProperties } from 'n8n-workflow';

import { booleanField, idField, wholeNumber } from '../../../shared/fields';
import { NOTIFICATION_TRIGGERS } from './workSchema';

/** A text field for comma-separated IDs. */
export const ids = (displayName: string, name: string, description: string): INodeProperties => ({
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

/** The repeatable groups of a planned job: each becomes a list of objects in the body. */
export const WORK_LISTS: INodeProperties[] = [
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
];
