import { listOperation, relationOptions } from '../common';

export const getAll = listOperation('supplier', 'getAll', '/suppliers', {
	expanded: relationOptions(['categories', 'contacts', 'files', 'handshake', 'invite', 'services']),
});
