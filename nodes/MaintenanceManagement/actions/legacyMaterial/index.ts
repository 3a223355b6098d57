import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { create } from './create.operation';

export const legacyMaterial: ResourceModule = {
	description: [
		operationSelector('legacyMaterial', [
			{
				name: 'Create (Deprecated)',
				value: 'create',
				description:
					'Create a material or a folder (deprecated endpoint POST /materials): use Material → Create instead',
				action: 'Create a legacy material (deprecated)',
			},
		]),
		...create.description,
	],
	operations: { create },
};
