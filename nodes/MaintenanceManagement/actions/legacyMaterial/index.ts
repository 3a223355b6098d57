import { defineResource } from '../../../shared/registry';
import { create } from './create.operation';

export const legacyMaterial = defineResource('legacyMaterial', 'Legacy Material', [
	{
		name: 'Create',
		value: 'create',
		description:
			'Create a material or a folder through the old endpoint POST /materials: use Material → Create instead',
		action: 'Create a legacy material',
		run: create,
	},
]);
