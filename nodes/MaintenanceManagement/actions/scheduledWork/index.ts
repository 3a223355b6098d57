import type { ResourceModule } from '../types';
import { getAll } from './getAll.operation';

export const scheduledWork: ResourceModule = {
	description: [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['scheduledWork'] } },
			options: [
				{
					name: 'Get Many',
					value: 'getAll',
					description: 'List planned job orders (the dated occurrences of planned jobs)',
					action: 'Get many planned job orders',
				},
			],
			default: 'getAll',
		},
		...getAll.description,
	],
	operations: { getAll },
};
