import { defineResource } from '../../../shared/registry';
import { create } from './create.operation';
import { update } from './update.operation';

export const material = defineResource('material', 'Material', [
	{
		name: 'Create',
		value: 'create',
		description: 'Create a stock material',
		action: 'Create a material',
		run: create,
	},
	{
		name: 'Update',
		value: 'update',
		description:
			'Update a stock material. The API requires its type, name, code and units on every update.',
		action: 'Update a material',
		run: update,
	},
]);
