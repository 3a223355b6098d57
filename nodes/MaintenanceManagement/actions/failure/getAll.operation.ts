import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { z } from 'zod';

import { id, lazy } from '../../helpers/schemas';
import { listOperation } from '../shared/registry';
import type { OperationModule } from '../types';
import {
	dateValue,
	FAILURE_RELATIONS,
	FAILURE_STATUSES,
	idFilter,
	locationFilter,
	oneOfList,
} from './filters';

const PRIORITIES = ['1', '2', '3', '4'] as const;

/** A filter on any of several values, sent joined by commas (s_<field>_in). */
const anyOfFilter = (
	displayName: string,
	name: string,
	options: INodePropertyOptions[],
	description: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'multiOptions',
	options,
	default: [],
	description,
});

/** The two filters of a date range: on or after a time (date_min_<field>), on or before it (date_max_<field>). */
const dateRange = (field: string, label: string, what: string): INodeProperties[] =>
	(['After', 'Before'] as const).map((side) => {
		const name = `date_${side === 'After' ? 'min' : 'max'}_${field}`;
		return {
			displayName: `${label} ${side}`,
			name,
			type: 'dateTime',
			default: '',
			description: `Only work orders ${what} at or ${side.toLowerCase()} this time (${name})`,
		};
	});

/**
 * Named filters in the service's query syntax: `s_<field>` (exact), `s_<field>_in` (any of a list),
 * `date_min_<field>` / `date_max_<field>` (a range), and `sort=<field>` or `sort=<field>-`.
 */
const filters: INodeProperties[] = [
	...dateRange('completed_date', 'Completed', 'completed'),
	locationFilter,
	anyOfFilter(
		'Priority',
		's_priority_in',
		[
			{ name: '1 (Lowest)', value: '1' },
			{ name: '2', value: '2' },
			{ name: '3', value: '3' },
			{ name: '4 (Highest)', value: '4' },
		],
		'Only work orders with one of these priorities, from 1 (lowest) to 4 (highest) (s_priority_in)',
	),
	idFilter(
		's_problem_id',
		'Problem ID',
		'Only work orders of this problem type: its ID, a whole number (s_problem_id)',
	),
	...dateRange('start_date', 'Reported', 'reported'),
	{
		displayName: 'Sort',
		name: 'sort',
		type: 'options',
		options: [
			{ name: 'Highest Priority First', value: 'priority-' },
			{ name: 'Latest Status Change First', value: 'last_status_change_date-' },
			{ name: 'Newest Reported First', value: 'start_date-' },
			{ name: 'Oldest Reported First', value: 'start_date' },
		],
		default: 'start_date-',
		description: 'The order of the work orders (sort)',
	},
	anyOfFilter(
		'Status',
		's_status_in',
		FAILURE_STATUSES.options,
		'Only work orders in one of these statuses (s_status_in). Waiting Approval lists the orders awaiting approval.',
	),
];

/** The named filters, checked before anything is sent. */
const filterSchema = lazy(() =>
	z
		.object({
			s_local_id: id().optional(),
			s_problem_id: id().optional(),
			s_status_in: oneOfList(FAILURE_STATUSES.values).optional(),
			s_priority_in: oneOfList(PRIORITIES).optional(),
			date_min_start_date: dateValue().optional(),
			date_max_start_date: dateValue().optional(),
			date_min_completed_date: dateValue().optional(),
			date_max_completed_date: dateValue().optional(),
		})
		.passthrough(),
);

export const getAll: OperationModule = listOperation('getFailures', {
	filters,
	expanded: FAILURE_RELATIONS,
	querySchema: filterSchema,
});
