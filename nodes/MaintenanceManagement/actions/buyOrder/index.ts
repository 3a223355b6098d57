import type { ResourceModule } from '../types';

export const buyOrder: ResourceModule = { description: [], operations: {} };
