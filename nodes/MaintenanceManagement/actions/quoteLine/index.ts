import type { ResourceModule } from '../types';

export const quoteLine: ResourceModule = { description: [], operations: {} };
