import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { lazy } from '../../../shared/schemas';
import { updateFields } from '../../../shared/fields';
import { expandedProperty, pathIdHint } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';
import { materialShape, optionalMaterialFields, requiredMaterialFields } from './materialFields';

const properties: INodeProperties[] = [
	{
		displayName: 'Material ID',
		name: 'materialId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 15',
		description:
			'ID of the material to update: material_id in the output of Material → Create, or the list of materials in the service',
		builderHint: pathIdHint,
	},
	{
		displayName:
			'The API requires Material Type ID, Name, Code and Units on every update: send the current values of those you do not change',
		name: 'requiredNotice',
		type: 'notice',
		default: '',
	},
	...requiredMaterialFields,
	updateFields(optionalMaterialFields(true)),
	expandedProperty(['material_type', 'supplier_custom_price', 'warehouse']),
];

export const update = sendOperation('updateStockMaterial', properties, {
	query: ['expanded'],
	body: {
		fields: ['material_type_id', 'name', 'code', 'units'],
		collections: ['updateFields'],
		schema: lazy(() => z.object(materialShape(true)).strict()),
		unique: ['code'],
	},
});
