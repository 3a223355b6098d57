import type { ResourceModule } from '../types';

export const contact: ResourceModule = { description: [], operations: {} };
