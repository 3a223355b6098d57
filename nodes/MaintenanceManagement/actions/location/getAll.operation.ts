import type { INodeProperties } from 'n8n-workflow';

import { listOperation } from '../shared/definitions';

/** Asks the API for each location's assets_count (Get and Get Many). */
export const withAssetsCount: INodeProperties = {
	displayName: 'With Assets Count',
	name: 'with_assets_count',
	type: 'boolean',
	default: false,
	description:
		'Whether to add assets_count: the number of assets in each location and all locations below it',
};

export const getAll = listOperation('/locations', { filters: [withAssetsCount] });
