import { listOperation } from '../shared/registry';

export const getAll = listOperation('/suppliers', {
	expanded: ['categories', 'contacts', 'files', 'handshake', 'invite', 'services'],
});
