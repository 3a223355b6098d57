import { defineResource } from '../../../shared/registry';
import { getAll } from './getAll.operation';

export const stockMovement = defineResource('stockMovement', 'Stock Movement', [
	{
		name: 'Get Many',
		value: 'getAll',
		description:
			'List stock movements. Stock changes are now made with Stock Transaction operations, which have no list endpoint.',
		action: 'Get many stock movements',
		run: getAll,
	},
]);
