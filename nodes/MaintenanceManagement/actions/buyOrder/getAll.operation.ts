import { listOperation } from '../shared/properties';

export const getAll = listOperation('buyOrder', 'getAll', '/sales/buy-orders');
