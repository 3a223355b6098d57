import { listOperation } from '../../../shared/registry';

/**
 * GET /stock-movements is deprecated in v3 and still served. The spec names no list endpoint that
 * replaces it: stock is now changed through stock transactions (batches and transfers), which have
 * create endpoints only.
 */
export const getAll = listOperation('getStockMovements', {
	notice: {
		displayName:
			'Deprecated in the API (still served in v3). Stock changes are now made with Stock Transaction → Create Batch and Transfer; with no endpoint that lists stock transactions, this still reads the history.',
		name: 'deprecationNotice',
		type: 'notice',
		default: '',
	},
});
