import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { syncContacts } from './syncContacts.operation';

export const client: ResourceModule = {
	description: [
		operationSelector('client', [
			{
				name: 'Sync Contacts',
				value: 'syncContacts',
				description: "Set a client's contacts to exactly the given contact IDs",
				action: 'Sync the contacts of a client',
			},
		]),
		...syncContacts.description,
	],
	operations: { syncContacts },
};
