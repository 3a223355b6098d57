import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { byText } from '../../../shared/options';
import { lazy, number } from '../../../shared/schemas';
import { additionalFields } from '../../../shared/fields';
import { sendOperation } from '../../../shared/registry';
import { materialShape, optionalMaterialFields, requiredMaterialFields } from './materialFields';

const saleFields: INodeProperties[] = [
	{
		displayName: 'Sale Price',
		name: 'sale_price',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		description: 'Default sale price',
	},
	{
		displayName: 'Sale VAT (%)',
		name: 'sale_vat',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		description: 'Default sale VAT',
	},
];

const properties: INodeProperties[] = [
	...requiredMaterialFields,
	additionalFields([...optionalMaterialFields(false), ...saleFields].sort(byText('displayName'))),
];

const schema = lazy(() =>
	z
		.object({
			...materialShape(false),
			sale_price: number().optional(),
			sale_vat: number().optional(),
		})
		.strict(),
);

export const create = sendOperation('createStockMaterial', properties, {
	body: {
		fields: ['material_type_id', 'name', 'code', 'units'],
		collections: ['additionalFields'],
		schema,
		unique: ['code'],
	},
});
