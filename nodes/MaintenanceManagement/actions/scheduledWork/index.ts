import type { ResourceModule } from '../types';

export const scheduledWork: ResourceModule = { description: [], operations: {} };
