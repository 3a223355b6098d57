import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { id, oneOf, text } from '../../helpers/schemas';

export const CONSUMPTION_TYPES = ['INHERIT', 'AUTOMATIC', 'MANUAL'] as const;

/** The fields both Create and Update of a material require. */
export const requiredMaterialFields: INodeProperties[] = [
	{ displayName: 'Material Type ID', name: 'material_type_id', type: 'number', required: true, default: 0 },
	{ displayName: 'Name', name: 'name', type: 'string', required: true, default: '' },
	{ displayName: 'Code', name: 'code', type: 'string', required: true, default: '', description: 'Unique material code' },
	{ displayName: 'Units', name: 'units', type: 'string', required: true, default: '', placeholder: 'e.g. unit, kg, m' },
];

export const optionalMaterialFields: INodeProperties[] = [
	{ displayName: 'Description', name: 'description', type: 'string', default: '' },
	{ displayName: 'EAN/UPC', name: 'ean_upc', type: 'string', default: '' },
	{ displayName: 'Observations', name: 'observations', type: 'string', default: '' },
	{
		displayName: 'Purchase Consumption Type',
		name: 'purchase_consumption_type',
		type: 'options',
		options: [
			{ name: 'Automatic', value: 'AUTOMATIC' },
			{ name: 'Inherit', value: 'INHERIT' },
			{ name: 'Manual', value: 'MANUAL' },
		],
		default: 'INHERIT',
	},
	{ displayName: 'SKU', name: 'sku', type: 'string', default: '' },
];

export const materialShape = {
	material_type_id: id(),
	name: text(),
	code: text(),
	units: text(),
	description: z.string().optional(),
	ean_upc: z.string().optional(),
	observations: z.string().optional(),
	purchase_consumption_type: oneOf(CONSUMPTION_TYPES).optional(),
	sku: z.string().optional(),
};
