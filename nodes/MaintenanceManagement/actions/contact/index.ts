import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { checkOrCreate } from './checkOrCreate.operation';

export const contact: ResourceModule = {
	description: [
		operationSelector('contact', [
			{
				name: 'Check or Create (Deprecated)',
				value: 'checkOrCreate',
				description: 'Return a contact, creating it when absent. Deprecated in the API.',
				action: 'Check or create a contact',
			},
		]),
		...checkOrCreate.description,
	],
	operations: { checkOrCreate },
};
