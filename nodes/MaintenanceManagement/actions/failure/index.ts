import { defineResource } from '../shared/registry';
import { getAll } from './getAll.operation';
import { getAllOpen } from './getAllOpen.operation';

export const failure = defineResource(
	'failure',
	{ displayName: 'Work Order', hint: 'The API calls a work order a failure' },
	[
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List work orders, filtered by status (such as waiting for approval), priority or location',
			action: 'Get many work orders',
			run: getAll,
		},
		{
			name: 'Get Many Open',
			value: 'getAllOpen',
			description:
				'List open work orders: not completed or archived, those waiting for approval among them',
			action: 'Get many open work orders',
			run: getAllOpen,
		},
	],
	'getAllOpen',
);
