import { defineResource } from '../../../shared/registry';
import { create } from './create.operation';

export const work = defineResource(
	'work',
	{
		displayName: 'Planned Job',
		hint: 'The API calls a planned job a work',
		builderHint:
			'A planned job is scheduled or preventive work, not a work order: Create plans a job and reports no work order.',
	},
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
