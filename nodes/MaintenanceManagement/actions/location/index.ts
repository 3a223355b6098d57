import { defineResource } from '../../../shared/registry';
import { get } from './get.operation';
import { getAll } from './getAll.operation';
import { updateMany } from './updateMany.operation';

export const location = defineResource('location', 'Location', [
	{
		name: 'Get Many',
		value: 'getAll',
		description: 'List locations',
		action: 'Get many locations',
		run: getAll,
	},
	{
		name: 'Get',
		value: 'get',
		description: 'Get a building, location folder or location by ID',
		action: 'Get a location',
		run: get,
	},
	{
		name: 'Update Many',
		value: 'updateMany',
		description:
			'Update the base attributes of several locations, one per input item, 50 per request',
		action: 'Update many locations',
		run: updateMany,
	},
]);
