import { defineResource } from '../../../shared/registry';
import { checkOrCreate } from './checkOrCreate.operation';

export const contact = defineResource(
	'contact',
	{
		displayName: 'Contact',
		hint: 'Its one operation is deprecated by the API',
	},
	[
		{
			name: 'Check or Create',
			value: 'checkOrCreate',
			description:
				'Return a contact, creating it when absent. The API replaces it with separate get-contact and create-contact operations.',
			action: 'Check or create a contact',
			run: checkOrCreate,
		},
	],
);
