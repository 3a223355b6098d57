import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { getAll } from './getAll.operation';
import { update } from './update.operation';

export const buyOrder: ResourceModule = {
	description: [
		operationSelector('buyOrder', [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List buy orders (purchases)',
				action: 'Get many buy orders',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update a buy order',
				action: 'Update a buy order',
			},
		]),
		...getAll.description,
		...update.description,
	],
	operations: { getAll, update },
};
