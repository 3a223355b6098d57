import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { create } from './create.operation';

export const materialType: ResourceModule = {
	description: [
		operationSelector('materialType', [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a material type',
				action: 'Create a material type',
			},
		]),
		...create.description,
	],
	operations: { create },
};
