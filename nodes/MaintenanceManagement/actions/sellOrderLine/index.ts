import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { create } from './create.operation';

export const sellOrderLine: ResourceModule = {
	description: [
		operationSelector('sellOrderLine', [
			{
				name: 'Create',
				value: 'create',
				description: 'Add a line to a sell order',
				action: 'Create a sell order line',
			},
		]),
		...create.description,
	],
	operations: { create },
};
