import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { getAll } from './getAll.operation';

export const stockMovement: ResourceModule = {
	description: [
		operationSelector('stockMovement', [
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'(Deprecated) List stock movements. Stock changes are now made with Stock Transaction operations, which have no list endpoint.',
				action: 'Get many stock movements (deprecated)',
			},
		]),
		...getAll.description,
	],
	operations: { getAll },
};
