import { defineResource } from '../../../shared/registry';
import { create } from './create.operation';

export const materialType = defineResource('materialType', 'Material Type', [
	{
		name: 'Create',
		value: 'create',
		description: 'Create a material type',
		action: 'Create a material type',
		run: create,
	},
]);
