import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { choices } from '../../../shared/options';
import { id, oneOf, text } from '../../../shared/schemas';
import { nullableText, nameAndCode } from '../../../shared/fields';

export const CONSUMPTION_TYPES = choices({
	INHERIT: 'Inherit',
	AUTOMATIC: 'Automatic',
	MANUAL: 'Manual',
});

/** The fields both Create and Update of a material require. */
export const requiredMaterialFields: INodeProperties[] = [
	{
		displayName: 'Material Type ID',
		name: 'material_type_id',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3',
		description:
			'ID of the material type the material belongs to: the output of Material Type → Create, or the list of material types in the service',
	},
	...nameAndCode(
		'The name of the material, as lists show it',
		'Material code, unique across materials',
	),
	{
		displayName: 'Units',
		name: 'units',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. unit, kg, m',
		description: 'The unit the material is counted in, as text of your choice',
	},
];

/** The optional text fields; on update the API also accepts null for them, which clears them. */
const NULLABLE_ON_UPDATE = ['description', 'ean_upc', 'observations', 'sku'] as const;

const textField = (displayName: string, name: string, update: boolean): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	...(update
		? { description: 'Enter null to clear it', placeholder: 'e.g. text, or null to clear it' }
		: {}),
});

/** Optional fields of Create ("Additional Fields") or Update ("Update Fields"), sorted by display name. */
export const optionalMaterialFields = (update: boolean): INodeProperties[] => [
	textField('Description', 'description', update),
	textField('EAN/UPC', 'ean_upc', update),
	textField('Observations', 'observations', update),
	{
		displayName: 'Purchase Consumption Type',
		name: 'purchase_consumption_type',
		type: 'options',
		options: CONSUMPTION_TYPES.options,
		default: 'INHERIT',
		description:
			'How purchases of the material are consumed; Inherit takes the setting of its material type',
	},
	textField('SKU', 'sku', update),
];

const optionalText = (update: boolean) =>
	update ? nullableText() : z.string({ invalid_type_error: 'must be text' }).optional();

/** The body fields Create and Update share; Update lets the optional text fields be null. */
export const materialShape = (update: boolean) => ({
	material_type_id: id(),
	name: text(),
	code: text(),
	units: text(),
	purchase_consumption_type: oneOf(CONSUMPTION_TYPES.values).optional(),
	...Object.fromEntries(NULLABLE_ON_UPDATE.map((field) => [field, optionalText(update)])),
});
