import { listOperation } from '../shared/definitions';

export const getAll = listOperation('/sales/buy-orders');
