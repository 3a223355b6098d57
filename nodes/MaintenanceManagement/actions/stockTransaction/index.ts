import { defineResource } from '../../../shared/registry';
import { createBatch } from './createBatch.operation';
import { transfer } from './transfer.operation';

export const stockTransaction = defineResource('stockTransaction', 'Stock Transaction', [
	{
		name: 'Create Batch',
		value: 'createBatch',
		description: 'Add stock to or subtract it from a warehouse',
		action: 'Create a batch of stock transactions',
		run: createBatch,
	},
	{
		name: 'Transfer',
		value: 'transfer',
		description: 'Move stock of a material between two warehouses',
		action: 'Transfer stock between warehouses',
		run: transfer,
	},
]);
