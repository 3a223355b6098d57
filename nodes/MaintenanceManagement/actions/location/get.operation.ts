import type { INodeProperties } from 'n8n-workflow';

import { recordLocator, outputProperties } from '../shared/definitions';
import type { OperationModule } from '../types';

const properties: INodeProperties[] = [
	{
		...recordLocator('id', 'Location', 'searchLocations'),
		description:
			'The building, location folder or location to get; the output type field says which one it is',
	},
	...outputProperties,
];

export const get: OperationModule = {
	description: properties,
	endpoint: { method: 'GET', path: '/locations/{id}', pathParams: { id: 'id' } },
};
