import type { ResourceModule } from '../types';
import { getAll } from './getAll.operation';
import { getAllOpen } from './getAllOpen.operation';

export const failure: ResourceModule = {
	description: [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['failure'] } },
			options: [
				{
					name: 'Get Many',
					value: 'getAll',
					description: 'List work orders',
					action: 'Get many work orders',
				},
				{
					name: 'Get Many Open',
					value: 'getAllOpen',
					description: 'List work orders that are not completed or archived',
					action: 'Get many open work orders',
				},
			],
			default: 'getAllOpen',
		},
		...getAll.description,
		...getAllOpen.description,
	],
	operations: { getAll, getAllOpen },
};
