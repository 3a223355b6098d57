import { defineResource } from '../shared/properties';
import { create } from './create.operation';

export const work = defineResource('work', 'Planned Job (Work)', [
	{
		name: 'Create',
		value: 'create',
		description: 'Create a planned job',
		action: 'Create a planned job',
		run: create,
	},
]);
