import { defineResource } from '../../../shared/registry';
import { getAll } from './getAll.operation';
import { getAllOpen } from './getAllOpen.operation';

export const failure = defineResource(
	'failure',
	{
		displayName: 'Work Order',
		hint: 'The API calls a work order a failure',
		builderHint:
			'Read only: Get Many and Get Many Open list work orders; no operation creates, updates, approves or closes one. The trigger starts a workflow on those events.',
	},
	[
		{
			name: 'Get Many Open',
			value: 'getAllOpen',
			description:
				'List open work orders: not completed or archived, those waiting for approval among them',
			action: 'Get many open work orders',
			run: getAllOpen,
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List work orders, filtered by status (such as waiting for approval), priority or location',
			action: 'Get many work orders',
			run: getAll,
		},
	],
);
