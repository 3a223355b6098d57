import { listOperation } from '../shared/properties';

export const getAll = listOperation('/suppliers', {
	expanded: ['categories', 'contacts', 'files', 'handshake', 'invite', 'services'],
});
