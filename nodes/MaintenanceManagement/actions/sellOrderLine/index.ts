import { defineResource } from '../../../shared/registry';
import { create } from './create.operation';

export const sellOrderLine = defineResource('sellOrderLine', 'Sell Order Line', [
	{
		name: 'Create',
		value: 'create',
		description: 'Add a line to a sell order',
		action: 'Create a sell order line',
		run: create,
	},
]);
