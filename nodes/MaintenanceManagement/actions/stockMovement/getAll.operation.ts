import { listOperation } from '../../../shared/registry';
import type { OperationModule } from '../../../shared/types';

/**
 * GET /stock-movements is deprecated in v3 and still served. The spec names no list endpoint that
 * replaces it: stock is now changed through stock transactions (batches and transfers), which have
 * create endpoints only.
 */
const list = listOperation('getStockMovements');

export const getAll: OperationModule = {
	...list,
	description: [
		{
			displayName:
				'Deprecated in the API (still served in v3). Stock changes are now made with Stock Transaction → Create Batch and Transfer; with no endpoint that lists stock transactions, this still reads the history.',
			name: 'deprecationNotice',
			type: 'notice',
			default: '',
		},
		...list.description,
	],
};
