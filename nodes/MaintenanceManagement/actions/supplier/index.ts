import { defineResource } from '../../../shared/registry';
import { getAll } from './getAll.operation';
import { update } from './update.operation';

export const supplier = defineResource('supplier', 'Supplier', [
	{
		name: 'Get Many',
		value: 'getAll',
		description: 'List suppliers',
		action: 'Get many suppliers',
		run: getAll,
	},
	{
		name: 'Update',
		value: 'update',
		description: 'Update a supplier. Contact IDs, when sent, replace its whole list of contacts.',
		action: 'Update a supplier',
		run: update,
	},
]);
