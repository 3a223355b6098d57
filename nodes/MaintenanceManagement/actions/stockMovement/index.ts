import type { ResourceModule } from '../types';

export const stockMovement: ResourceModule = { description: [], operations: {} };
