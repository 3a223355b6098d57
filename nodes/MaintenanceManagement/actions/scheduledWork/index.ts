import { defineResource } from '../../../shared/registry';
import { getAll } from './getAll.operation';

export const scheduledWork = defineResource(
	'scheduledWork',
	{
		displayName: 'Planned Job Order',
		hint: 'A dated occurrence of a planned job; the API calls it a scheduled work',
	},
	[
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List planned job orders (the dated occurrences of planned jobs)',
			action: 'Get many planned job orders',
			run: getAll,
		},
	],
);
