import { defineResource } from '../shared/properties';
import { getAll } from './getAll.operation';

export const scheduledWork = defineResource('scheduledWork', 'Planned Job Order (Scheduled Work)', [
	{
		name: 'Get Many',
		value: 'getAll',
		description: 'List planned job orders (the dated occurrences of planned jobs)',
		action: 'Get many planned job orders',
		run: getAll,
	},
]);
