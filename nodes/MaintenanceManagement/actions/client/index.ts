import type { ResourceModule } from '../types';

export const client: ResourceModule = { description: [], operations: {} };
