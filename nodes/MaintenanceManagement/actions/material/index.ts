import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { create } from './create.operation';
import { update } from './update.operation';

export const material: ResourceModule = {
	description: [
		operationSelector('material', [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a stock material',
				action: 'Create a material',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update a stock material',
				action: 'Update a material',
			},
		]),
		...create.description,
		...update.description,
	],
	operations: { create, update },
};
