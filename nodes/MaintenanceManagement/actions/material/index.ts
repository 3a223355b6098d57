import type { ResourceModule } from '../types';

export const material: ResourceModule = { description: [], operations: {} };
