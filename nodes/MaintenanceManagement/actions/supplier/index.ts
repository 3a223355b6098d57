import type { ResourceModule } from '../types';

export const supplier: ResourceModule = { description: [], operations: {} };
