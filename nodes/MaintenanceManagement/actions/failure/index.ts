import type { ResourceModule } from '../types';

export const failure: ResourceModule = { description: [], operations: {} };
