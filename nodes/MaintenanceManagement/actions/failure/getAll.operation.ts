import type { INodePropertyOptions } from 'n8n-workflow';

import { listOperation } from '../../../shared/registry';
import type { OperationModule, QueryFilter } from '../../../shared/types';
import {
	dateValue,
	FAILURE_RELATIONS,
	FAILURE_STATUSES,
	idFilter,
	locationFilter,
	oneOfList,
} from './filters';

/** A filter on any of several values, sent joined by commas (s_<field>_in), each one of its options. */
const anyOfFilter = <N extends string>(
	displayName: string,
	name: N,
	options: INodePropertyOptions[],
	description: string,
): QueryFilter<N> => ({
	property: { displayName, name, type: 'multiOptions', options, default: [], description },
	check: () => oneOfList(options.map((option) => String(option.value))),
});

/** The two filters of a date range: on or after a time (date_min_<field>), on or before it (date_max_<field>). */
const dateRange = <F extends string>(
	field: F,
	label: string,
	what: string,
): Array<QueryFilter<`date_${'min' | 'max'}_${F}`>> =>
	(['min', 'max'] as const).map((bound) => {
		const name = `date_${bound}_${field}` as const;
		const side = bound === 'min' ? 'After' : 'Before';
		return {
			property: {
				displayName: `${label} ${side}`,
				name,
				type: 'dateTime',
				default: '',
				description: `Only work orders ${what} at or ${side.toLowerCase()} this time (${name})`,
			},
			check: dateValue,
		};
	});

/**
 * Named filters in the service's query syntax: `s_<field>` (exact), `s_<field>_in` (any of a list),
 * `date_min_<field>` / `date_max_<field>` (a range), and `sort=<field>` or `sort=<field>-`.
 */
export const getAll: OperationModule = listOperation('getFailures', {
	filters: [
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
			property: {
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
		},
		anyOfFilter(
			'Status',
			's_status_in',
			FAILURE_STATUSES.options,
			'Only work orders in one of these statuses (s_status_in). Waiting Approval lists the orders awaiting approval.',
		),
	],
	expanded: FAILURE_RELATIONS,
});
