import type { INodeProperties } from 'n8n-workflow';

/** Location picker: search the list, or enter an ID. */
export const locationLocator = (name: string, displayName: string): INodeProperties => ({
	displayName,
	name,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchLocations', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 42',
			validation: [{ type: 'regex', properties: { regex: '^\\d+$', errorMessage: 'A location ID is a whole number' } }],
		},
	],
});
