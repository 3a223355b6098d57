import type { INodeProperties } from 'n8n-workflow';

import { recordLocator } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';
import { withAssetsCount } from './getAll.operation';

const properties: INodeProperties[] = [
	{
		...recordLocator('id', 'Location', 'searchLocations'),
		description:
			'The building, location folder or location to get; the output type field says which one it is',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [withAssetsCount],
	},
];

export const get = sendOperation('getLocation', properties, {
	queryCollections: ['options'],
});
