import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { id, integer, lazy } from '../../../shared/schemas';
import { additionalFields } from '../../../shared/fields';
import { sendOperation } from '../../../shared/registry';
import { materialIdProperty, warehouseIdDescription } from './transactionFields';

const properties: INodeProperties[] = [
	{
		displayName: 'From Warehouse ID',
		name: 'warehouse_from_id',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2',
		description: warehouseIdDescription('The ID of the warehouse the stock leaves'),
	},
	{
		displayName: 'To Warehouse ID',
		name: 'warehouse_to_id',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2',
		description: warehouseIdDescription('The ID of the warehouse the stock goes to'),
	},
	materialIdProperty,
	{
		displayName: 'Quantity',
		name: 'quantity',
		type: 'number',
		typeOptions: { numberPrecision: 0 },
		required: true,
		default: 1,
		description: 'How many units of the material to move, a whole number',
	},
	additionalFields([
		{ displayName: 'Observations', name: 'observations', type: 'string', default: '' },
	]),
];

const schema = lazy(() =>
	z
		.object({
			warehouse_from_id: id(),
			warehouse_to_id: id(),
			material_id: id(),
			quantity: integer().refine((value) => (value as number) > 0, 'must be more than 0'),
			observations: z.string().optional(),
		})
		.strict()
		.refine((body) => body.warehouse_from_id !== body.warehouse_to_id, {
			message: 'must differ from From Warehouse ID: a transfer moves stock between two warehouses',
			path: ['warehouse_to_id'],
		}),
);

export const transfer = sendOperation('stockTransactionsTransfer', properties, {
	body: {
		fields: ['warehouse_from_id', 'warehouse_to_id', 'material_id', 'quantity'],
		collections: ['additionalFields'],
		schema,
	},
});
