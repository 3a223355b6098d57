import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../types';
import { get } from './get.operation';
import { getAll } from './getAll.operation';
import { updateMany } from './updateMany.operation';

const operationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['location'] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			description: 'Get a building, location folder or location by ID',
			action: 'Get a location',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List locations',
			action: 'Get many locations',
		},
		{
			name: 'Update Many',
			value: 'updateMany',
			description:
				'Update the base attributes of several locations, one per input item, 50 per request',
			action: 'Update many locations',
		},
	],
	default: 'getAll',
};

export const location: ResourceModule = {
	description: [
		operationSelector,
		...getAll.description,
		...get.description,
		...updateMany.description,
	],
	operations: { get, getAll, updateMany },
};
