import { oneOf } from '../../../shared/schemas';
import { listOperation } from '../../../shared/registry';
import type { OperationModule, QueryFilter } from '../../../shared/types';
import { FAILURE_RELATIONS, FAILURE_STATUSES, idFilter, locationFilter } from './filters';

/** A date filter in the service's own syntax, sent as written. */
const dateFilter = <N extends string>(
	name: N,
	displayName: string,
	what: string,
): QueryFilter<N> => ({
	property: {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-05-01',
		description: `Only work orders whose ${what} matches this value, sent as ${name} and read by the service's query language`,
	},
});

/**
 * The spec's named filters. The IDs and the status are checked before anything is sent; dates follow
 * the service's own syntax.
 */
export const getAllOpen: OperationModule = listOperation('getOpenFailures', {
	filters: [
		dateFilter('approved_date', 'Approved Date', 'approval date'),
		dateFilter('completed_date', 'Completed Date', 'completion date'),
		idFilter(
			'failure_id',
			'Failure ID',
			'Only the work order with this ID, a whole number (failure_id)',
		),
		dateFilter('last_status_change_date', 'Last Status Change Date', 'last status change date'),
		locationFilter,
		idFilter(
			'problem_id',
			'Problem ID',
			'Only work orders of this problem type: its ID, a whole number (problem_id)',
		),
		dateFilter('start_date', 'Start Date', 'report date (start_date)'),
		{
			property: {
				displayName: 'Status',
				name: 'status',
				type: 'options',
				// Open work orders are never COMPLETED or ARCHIVED.
				options: FAILURE_STATUSES.options.map((option) =>
					option.value === 'COMPLETED' || option.value === 'ARCHIVED'
						? { ...option, description: 'Always gives an empty list here' }
						: option,
				),
				default: 'WAITING_APPROVAL',
				description:
					'Only work orders in this status. Open work orders are never COMPLETED or ARCHIVED, so those two always give an empty list here.',
			},
			check: () => oneOf(FAILURE_STATUSES.values),
		},
	],
	expanded: FAILURE_RELATIONS,
});
