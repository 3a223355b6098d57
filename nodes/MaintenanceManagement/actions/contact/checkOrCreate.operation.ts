import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { choices } from '../../../shared/options';
import { boolean, idList, lazy, oneOf } from '../../../shared/schemas';
import { additionalFields, booleanField } from '../../../shared/fields';
import { sendOperation } from '../../../shared/registry';

const REPORT_STATES = choices({ all: 'All', completed: 'Completed', confirmed: 'Confirmed' });
const WORK_ORDER_TYPES = choices({ all: 'All', assigned: 'Assigned' });

const properties: INodeProperties[] = [
	{
		displayName:
			'Deprecated in the API (still served in v3): POST /contacts is replaced by separate get-contact and create-contact operations, which the API specification does not describe yet',
		name: 'deprecationNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description:
			'Email of the contact. Set Email, Name or both: the service looks the contact up and creates it when absent.',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Full name of the contact. Set Email, Name or both.',
	},
	additionalFields([
		{
			displayName: 'Cellphone',
			name: 'cellphone',
			type: 'string',
			default: '',
			description: 'Mobile phone number',
		},
		{
			displayName: 'Language',
			name: 'language',
			type: 'string',
			default: '',
			placeholder: 'e.g. en',
			description: 'Language of the contact, as a language code',
		},
		{
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			default: '',
			description: 'Landline phone number',
		},
	]),
	{
		displayName: 'Client Portal Permissions',
		name: 'direct_permissions',
		type: 'collection',
		placeholder: 'Add Permission',
		default: {},
		description:
			'Sent as direct_permissions: what the contact may see and do in the client portal. Used when the contact has client-portal access.',
		options: [
			booleanField(
				'Allow Share Dashboards',
				'allow_share_dashboards',
				'Whether the contact may share dashboards',
			),
			booleanField(
				'Default Permissions',
				'default_permissions',
				'Whether to apply the default permissions',
			),
			booleanField('View Work Orders', 'failure', 'Whether the contact may view work orders'),
			booleanField(
				'Work Order Reports',
				'failure_reports',
				'Whether the contact may see work order reports',
			),
			{
				displayName: 'Work Order Reports States',
				name: 'failure_reports_states',
				type: 'options',
				options: REPORT_STATES.options,
				default: 'all',
				description: 'Which work order reports the contact sees, by state',
			},
			{
				displayName: 'Work Order Type',
				name: 'failure_type',
				type: 'options',
				options: WORK_ORDER_TYPES.options,
				default: 'all',
				description: 'Which work orders the contact sees',
			},
			booleanField(
				'View Planned Job Orders',
				'preventive',
				'Whether the contact may view planned job orders',
			),
			booleanField('Quotes', 'quotes', 'Whether the contact may see quotes'),
			booleanField(
				'Report All Problem Areas',
				'report_all_problem_areas',
				'Whether the contact may report in every problem area',
			),
			{
				displayName: 'Reportable Problem Area IDs',
				name: 'reportable_problem_areas',
				type: 'string',
				default: '',
				placeholder: 'e.g. 1, 4',
				description: 'Comma-separated IDs of the problem areas the contact may report in',
			},
			booleanField(
				'Show Work Order Priority',
				'show_failure_priority',
				'Whether the contact sees work order priorities',
			),
			booleanField('Show User Info', 'show_user_info', 'Whether the contact sees user information'),
			booleanField(
				'Planned Job Order Reports',
				'work_scheduled_reports',
				'Whether the contact may see planned job order reports',
			),
			{
				displayName: 'Planned Job Order Reports States',
				name: 'work_scheduled_reports_states',
				type: 'options',
				options: REPORT_STATES.options,
				default: 'all',
				description: 'Which planned job order reports the contact sees, by state',
			},
		],
	},
];

const plainText = () => z.string({ invalid_type_error: 'must be text' }).optional();
const states = () => oneOf(REPORT_STATES.values);
const permissions = () =>
	z
		.object({
			default_permissions: boolean(),
			preventive: boolean(),
			failure: boolean(),
			failure_type: oneOf(WORK_ORDER_TYPES.values),
			quotes: boolean(),
			work_scheduled_reports: boolean(),
			work_scheduled_reports_states: states(),
			failure_reports: boolean(),
			failure_reports_states: states(),
			show_user_info: boolean(),
			show_failure_priority: boolean(),
			report_all_problem_areas: boolean(),
			reportable_problem_areas: idList(),
			allow_share_dashboards: boolean(),
		})
		.partial()
		.strict();

const schema = lazy(() =>
	z
		.object({
			name: plainText(),
			email: z
				.string({ invalid_type_error: 'must be an email address, such as name@example.com' })
				.trim()
				.email('must be an email address, such as name@example.com')
				.optional(),
			phone: plainText(),
			cellphone: plainText(),
			language: plainText(),
			direct_permissions: permissions().optional(),
		})
		.strict()
		.refine((body) => (body.email ?? '').trim() !== '' || (body.name ?? '').trim() !== '', {
			message: 'is required: set Email or Name, so the contact can be found or created',
			path: ['email'],
		}),
);

export const checkOrCreate = sendOperation('checkContact', properties, {
	body: {
		fields: ['email', 'name', 'direct_permissions'],
		collections: ['additionalFields'],
		schema,
	},
});
