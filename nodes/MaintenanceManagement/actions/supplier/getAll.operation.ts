import { listOperation, relationOptions } from '../shared/definitions';

export const getAll = listOperation('/suppliers', {
	expanded: relationOptions(['categories', 'contacts', 'files', 'handshake', 'invite', 'services']),
});
