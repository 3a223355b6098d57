import type { ResourceModule } from '../types';

export const sellOrderLine: ResourceModule = { description: [], operations: {} };
