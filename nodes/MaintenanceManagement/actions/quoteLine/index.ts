import { defineResource } from '../../../shared/registry';
import { create } from './create.operation';

export const quoteLine = defineResource('quoteLine', 'Quote Line', [
	{
		name: 'Create',
		value: 'create',
		description: 'Add a line to a quote',
		action: 'Create a quote line',
		run: create,
	},
]);
