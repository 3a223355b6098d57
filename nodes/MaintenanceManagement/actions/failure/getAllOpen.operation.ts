import type { INodeProperties } from 'n8n-workflow';

import { listOperation } from '../common';
import { FAILURE_RELATIONS } from './getAll.operation';

export const FAILURE_STATUSES = [
	'WAITING_APPROVAL',
	'WAITING_RESOLUTION',
	'IN_RESOLUTION',
	'PAUSED',
	'COMPLETED',
	'ARCHIVED',
] as const;

const dateFilter = (name: string, displayName: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: 'e.g. 2026-05-01',
	description: `Only work orders with this ${displayName.toLowerCase()}, in the service's query syntax`,
});

const filters: INodeProperties[] = [
	dateFilter('approved_date', 'Approved Date'),
	dateFilter('completed_date', 'Completed Date'),
	{ displayName: 'Failure ID', name: 'failure_id', type: 'number', default: 0, description: 'Only the work order with this ID' },
	dateFilter('last_status_change_date', 'Last Status Change Date'),
	{
		displayName: 'Local ID',
		name: 'local_id',
		type: 'number',
		default: 0,
		description: 'Only work orders of this location ID, as the local_id parameter',
	},
	{
		displayName: 'Location ID',
		name: 's_local_id',
		type: 'number',
		default: 0,
		description:
			'Only work orders of this location ID, sent as s_local_id, the filter form this endpoint documents. Prefer it over Local ID.',
	},
	{ displayName: 'Problem ID', name: 'problem_id', type: 'number', default: 0 },
	dateFilter('start_date', 'Start Date'),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: FAILURE_STATUSES.map((value) => ({
			name: value
				.split('_')
				.map((word) => word[0] + word.slice(1).toLowerCase())
				.join(' '),
			value,
		})),
		default: 'WAITING_APPROVAL',
		description: 'Only work orders in this status. COMPLETED and ARCHIVED always give an empty list here.',
	},
];

export const getAllOpen = listOperation('failure', 'getAllOpen', '/failures/open', {
	filters,
	expanded: FAILURE_RELATIONS,
});
