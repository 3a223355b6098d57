import type { INodeProperties } from 'n8n-workflow';

import { forOperation, listOptions, listProperties, simplifyProperty } from '../common';
import type { OperationModule } from '../types';

const properties: INodeProperties[] = [
	...listProperties,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'With Assets Count',
				name: 'with_assets_count',
				type: 'boolean',
				default: false,
				description:
					'Whether to add assets_count: the number of assets in each location and all locations below it',
			},
		],
	},
	simplifyProperty,
	listOptions,
];

export const getAll: OperationModule = {
	description: forOperation('location', 'getAll', properties),
	endpoint: { method: 'GET', path: '/locations', list: true, queryCollections: ['filters'] },
};
