import { listOperation } from '../../../shared/registry';

export const getAll = listOperation('getSuppliers', {
	expanded: ['categories', 'contacts', 'files', 'handshake', 'invite', 'services'],
});
