import { listOperation } from '../shared/definitions';

export const getAll = listOperation('/locations', {
	filters: [
		{
			displayName: 'With Assets Count',
			name: 'with_assets_count',
			type: 'boolean',
			default: false,
			description:
				'Whether to add assets_count: the number of assets in each location and all locations below it',
		},
	],
});
