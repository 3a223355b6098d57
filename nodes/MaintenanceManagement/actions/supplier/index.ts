import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { getAll } from './getAll.operation';
import { update } from './update.operation';

export const supplier: ResourceModule = {
	description: [
		operationSelector('supplier', [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List suppliers',
				action: 'Get many suppliers',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Update a supplier. Contact IDs, when sent, replace its whole list of contacts.',
				action: 'Update a supplier',
			},
		]),
		...getAll.description,
		...update.description,
	],
	operations: { getAll, update },
};
