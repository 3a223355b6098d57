import { defineResource } from '../shared/registry';
import { create } from './create.operation';

export const legacyMaterial = defineResource('legacyMaterial', 'Legacy Material (Deprecated)', [
	{
		name: 'Create (Deprecated)',
		value: 'create',
		description:
			'Create a material or a folder (deprecated endpoint POST /materials): use Material → Create instead',
		action: 'Create a legacy material (deprecated)',
		run: create,
	},
]);
