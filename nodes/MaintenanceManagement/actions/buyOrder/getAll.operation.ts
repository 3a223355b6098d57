import { listOperation } from '../shared/properties';

export const getAll = listOperation('/sales/buy-orders');
