import { defineResource } from '../../../shared/registry';
import { getAll } from './getAll.operation';
import { update } from './update.operation';

export const buyOrder = defineResource('buyOrder', 'Buy Order', [
	{
		name: 'Get Many',
		value: 'getAll',
		description: 'List buy orders (purchases)',
		action: 'Get many buy orders',
		run: getAll,
	},
	{
		name: 'Update',
		value: 'update',
		description: 'Update a buy order',
		action: 'Update a buy order',
		run: update,
	},
]);
