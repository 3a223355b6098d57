import type { ResourceModule } from '../types';

export const legacyMaterial: ResourceModule = { description: [], operations: {} };
