import { defineResource } from '../../../shared/registry';
import { syncContacts } from './syncContacts.operation';

export const client = defineResource('client', 'Client', [
	{
		name: 'Sync Contacts',
		value: 'syncContacts',
		description: "Set a client's contacts to exactly the given contact IDs",
		action: 'Sync the contacts of a client',
		run: syncContacts,
	},
]);
