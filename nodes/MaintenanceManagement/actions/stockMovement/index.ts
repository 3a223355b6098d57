import type { ResourceModule } from '../types';
import { getAll } from './getAll.operation';

export const stockMovement: ResourceModule = {
	description: [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['stockMovement'] } },
			options: [
				{
					name: 'Get Many',
					value: 'getAll',
					description: 'List stock movements. Deprecated: stock changes are now made with stock transactions.',
					action: 'Get many stock movements',
				},
			],
			default: 'getAll',
		},
		...getAll.description,
	],
	operations: { getAll },
};
