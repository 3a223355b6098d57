import { listOperation, relationOptions } from '../shared/properties';

export const getAll = listOperation('/suppliers', {
	expanded: relationOptions(['categories', 'contacts', 'files', 'handshake', 'invite', 'services']),
});
