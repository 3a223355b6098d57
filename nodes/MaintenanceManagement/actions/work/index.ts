import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { create } from './create.operation';

export const work: ResourceModule = {
	description: [
		operationSelector('work', [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a planned job',
				action: 'Create a planned job',
			},
		]),
		...create.description,
	],
	operations: { create },
};
