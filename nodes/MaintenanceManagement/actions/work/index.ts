import type { ResourceModule } from '../types';

export const work: ResourceModule = { description: [], operations: {} };
