import { listOperation } from '../common';

export const getAll = listOperation('stockMovement', 'getAll', '/stock-movements', {
	notice: {
		displayName:
			'GET /stock-movements is deprecated in the API. It stays available in v3; the API documents no list replacement, and new stock changes are made with Stock Transaction operations.',
		name: 'deprecationNotice',
		type: 'notice',
		default: '',
	},
});
