import { operationSelector } from '../common';
import type { ResourceModule } from '../types';
import { createBatch } from './createBatch.operation';
import { transfer } from './transfer.operation';

export const stockTransaction: ResourceModule = {
	description: [
		operationSelector('stockTransaction', [
			{
				name: 'Create Batch',
				value: 'createBatch',
				description: 'Add stock to or subtract it from a warehouse',
				action: 'Create a batch of stock transactions',
			},
			{
				name: 'Transfer',
				value: 'transfer',
				description: 'Move stock of a material between two warehouses',
				action: 'Transfer stock between warehouses',
			},
		]),
		...createBatch.description,
		...transfer.description,
	],
	operations: { createBatch, transfer },
};
