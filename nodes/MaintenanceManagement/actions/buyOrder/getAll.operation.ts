import { listOperation } from '../common';

export const getAll = listOperation('buyOrder', 'getAll', '/sales/buy-orders');
