import type { ResourceModule } from '../types';

export const stockTransaction: ResourceModule = { description: [], operations: {} };
