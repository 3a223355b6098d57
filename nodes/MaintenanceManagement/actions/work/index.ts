import { defineResource } from '../shared/registry';
import { create } from './create.operation';

export const work = defineResource(
	'work',
	{ displayName: 'Planned Job', hint: 'The API calls a planned job a work' },
	[
		{
			name: 'Create',
			value: 'create',
			description: 'Create a planned job',
			action: 'Create a planned job',
			run: create,
		},
	],
);
