import { listOperation } from '../shared/definitions';

export const getAll = listOperation('/suppliers', {
	expanded: ['categories', 'contacts', 'files', 'handshake', 'invite', 'services'],
});
