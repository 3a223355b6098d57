import type { ResourceModule } from '../types';

export const materialType: ResourceModule = { description: [], operations: {} };
