import { listOperation } from '../shared/registry';

export const getAll = listOperation('/sales/buy-orders');
