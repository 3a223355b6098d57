import { listOperation } from '../../../shared/registry';

export const getAll = listOperation('getBuyOrders');
