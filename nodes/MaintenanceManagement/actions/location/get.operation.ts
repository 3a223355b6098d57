import type { INodeProperties } from 'n8n-workflow';

import { forOperation, simplifyProperty } from '../common';
import type { OperationModule } from '../types';
import { locationLocator } from './locator';

const properties: INodeProperties[] = [
	{
		...locationLocator('id', 'Location'),
		description: 'The building, location folder or location to get; the output type field says which one it is',
	},
	simplifyProperty,
];

export const get: OperationModule = {
	description: forOperation('location', 'get', properties),
	endpoint: { method: 'GET', path: '/locations/{id}', pathParams: { id: 'id' } },
};
