import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { choices } from '../../../shared/options';
import { id, lazy, number, oneOf, text } from '../../../shared/schemas';
import { additionalFields, idField, nameAndCode } from '../../../shared/fields';
import { sendOperation } from '../../../shared/registry';

const MATERIAL_KINDS = choices({
	FOLDER: { name: 'Folder', description: 'A folder: the parent of other materials' },
	MATERIAL: { name: 'Material', description: 'A material; needs Units and Parent ID' },
});

const properties: INodeProperties[] = [
	{
		displayName:
			'POST /materials is deprecated in the API (still served in v3). For new workflows use Material → Create (POST /stocks/materials).',
		name: 'deprecationNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Type',
		name: '_type',
		type: 'options',
		required: true,
		options: MATERIAL_KINDS.options,
		default: 'MATERIAL',
		description: 'A material, or a folder that groups materials; Units is required for a material',
	},
	...nameAndCode('The name of the material or folder', 'Unique material code; must not be empty'),
	additionalFields([
		{ displayName: 'Default Sell Price', name: 'default_sell_price', type: 'number', default: 0 },
		{ displayName: 'Default Sell VAT (%)', name: 'default_sell_vat', type: 'number', default: 0 },
		{
			displayName: 'Mean Price',
			name: 'mean_price',
			type: 'number',
			default: 0,
			description: 'Only for a material, not for a folder',
		},
		{ displayName: 'Observation', name: 'observation', type: 'string', default: '' },
		idField(
			'Parent ID',
			'parent_id',
			'ID of the folder the material goes in; required for a material',
		),
		{
			displayName: 'Units',
			name: 'units',
			type: 'string',
			default: '',
			placeholder: 'e.g. unit',
			description: 'Unit of measure; required for a material',
		},
	]),
	{
		displayName: 'Warehouses',
		name: 'material_warehouse',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Warehouse',
		default: {},
		description:
			'Warehouses that stock the material, each with its own minimum stock and mean price',
		options: [
			{
				displayName: 'Warehouse',
				name: 'items',
				values: [
					idField('Warehouse ID', 'warehouse_id', 'The ID of the warehouse; required'),
					{
						displayName: 'Minimum Stock',
						name: 'min_stock',
						type: 'string',
						default: '',
						placeholder: 'e.g. 5',
						description: 'A number greater than 0. Leave empty to not send it.',
					},
					{
						displayName: 'Mean Price',
						name: 'mean_price',
						type: 'string',
						default: '',
						placeholder: 'e.g. 12.5',
						description: 'A number. Leave empty to not send it.',
					},
					{ displayName: 'Observation', name: 'observation', type: 'string', default: '' },
				],
			},
		],
	},
];

const warehouse = () =>
	z
		.object({
			warehouse_id: id(),
			min_stock: number('must be a number greater than 0')
				.refine((value) => (value as number) > 0, 'must be greater than 0')
				.optional(),
			mean_price: number().optional(),
			observation: z.string().optional(),
		})
		.strict();

const schema = lazy(() =>
	z
		.object({
			_type: oneOf(MATERIAL_KINDS.values),
			name: text(),
			code: text(),
			observation: z.string().optional(),
			mean_price: number().optional(),
			units: text().optional(),
			material_warehouse: z.array(warehouse()).optional(),
			parent_id: id().optional(),
			default_sell_price: number().optional(),
			default_sell_vat: number().optional(),
		})
		.strict()
		.superRefine((body, context) => {
			if (body._type === 'MATERIAL') {
				for (const [field, label] of [
					['units', 'Units'],
					['parent_id', 'Parent ID'],
				] as const) {
					if (body[field] === undefined) {
						context.addIssue({
							code: 'custom',
							path: [field],
							message: `is required for a MATERIAL: set ${label} under Additional Fields`,
						});
					}
				}
			}
			if (body._type === 'FOLDER' && body.mean_price !== undefined) {
				context.addIssue({
					code: 'custom',
					path: ['mean_price'],
					message: 'applies only to a MATERIAL: remove Mean Price for a folder',
				});
			}
		}),
);

export const create = sendOperation('createLegacyMaterial', properties, {
	body: {
		fields: ['_type', 'name', 'code', 'material_warehouse'],
		collections: ['additionalFields'],
		schema,
		unique: ['code'],
	},
});
