import { booleanField } from '../../../shared/fields';
import { listOperation } from '../../../shared/registry';

/** Asks the API for each location's assets_count (Get and Get Many). */
export const withAssetsCount = booleanField(
	'With Assets Count',
	'with_assets_count',
	'Whether to add assets_count: the number of assets in each location and all locations below it',
);

export const getAll = listOperation('getLocations', {
	filters: [{ property: withAssetsCount }],
});
