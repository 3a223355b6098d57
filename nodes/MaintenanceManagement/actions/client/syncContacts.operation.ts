import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { idList } from '../../helpers/schemas';
import { forOperation, simplifyProperty } from '../common';
import type { OperationModule } from '../types';

const properties: INodeProperties[] = [
	{ displayName: 'Client ID', name: 'client', type: 'string', required: true, default: '', placeholder: 'e.g. 7' },
	{
		displayName: 'Contact IDs',
		name: 'contact_ids',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 12, 15, 20',
		description: "The contacts to associate with the client, as comma-separated IDs. They become the client's contacts.",
	},
	simplifyProperty,
];

export const syncContacts: OperationModule = {
	description: forOperation('client', 'syncContacts', properties),
	endpoint: {
		method: 'POST',
		path: '/clients/{client}/contacts',
		pathParams: { client: 'client' },
		body: { fields: ['contact_ids'], schema: z.object({ contact_ids: idList() }).strict() },
	},
};
