import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { create } from './create.operation';

export const quoteLine: ResourceModule = {
	description: [
		operationSelector('quoteLine', [
			{
				name: 'Create',
				value: 'create',
				description: 'Add a line to a quote',
				action: 'Create a quote line',
			},
		]),
		...create.description,
	],
	operations: { create },
};
