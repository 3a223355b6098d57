import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { idList, lazy } from '../../../shared/schemas';
import { pathIdHint } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';

const properties: INodeProperties[] = [
	{
		displayName: 'Client ID',
		name: 'client',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 7',
		description:
			"ID of the client whose contacts to set: a building's client_id in Location → Get Many, or the list of clients in the service",
		builderHint: pathIdHint,
	},
	{
		displayName: 'Contact IDs',
		name: 'contact_ids',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 12, 15, 20',
		description:
			"Comma-separated contact IDs (see Contact → Check or Create). They become the client's contacts: one left out is no longer associated; an empty list [] removes them all.",
	},
];

/** Text with no ID in it (blank, or only commas) is a slip, not a request to remove every contact. */
const noIdsInText = (value: unknown): unknown =>
	typeof value === 'string' && value.split(',').every((part) => part.trim() === '')
		? undefined
		: value;

const schema = lazy(() => z.object({ contact_ids: z.preprocess(noIdsInText, idList()) }).strict());

export const syncContacts = sendOperation('syncContacts', properties, {
	body: { fields: ['contact_ids'], schema },
});
