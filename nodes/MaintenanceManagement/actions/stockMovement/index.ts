import { defineResource } from '../shared/registry';
import { getAll } from './getAll.operation';

export const stockMovement = defineResource('stockMovement', 'Stock Movement (Deprecated)', [
	{
		name: 'Get Many (Deprecated)',
		value: 'getAll',
		description:
			'(Deprecated) List stock movements. Stock changes are now made with Stock Transaction operations, which have no list endpoint.',
		action: 'Get many stock movements (deprecated)',
		run: getAll,
	},
]);
