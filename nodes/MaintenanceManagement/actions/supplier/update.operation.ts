import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { boolean, idList, lazy, text, toNumber } from '../../../shared/schemas';
import {
	clearableText,
	nullableText,
	toNull,
	updateFields,
	NOTHING_TO_CHANGE,
} from '../../../shared/fields';
import { recordLocator } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';

const coordinateField = (displayName: string, name: string, limit: number): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { numberPrecision: 7, minValue: -limit, maxValue: limit },
	default: 0,
	description: `${displayName} in decimal degrees, from -${limit} to ${limit}. An expression giving null clears it.`,
});

const properties: INodeProperties[] = [
	{
		...recordLocator('supplier', 'Supplier', 'searchSuppliers'),
		description: 'The supplier to update: pick it from the list (searched by name) or enter its ID',
	},
	updateFields([
		{
			displayName: 'Add to Market',
			name: 'add_to_market',
			type: 'boolean',
			default: false,
			description:
				'Whether to add the supplier to the marketplace. The API takes false when this is left out; a supplier already there is not added again.',
		},
		clearableText('Address', 'address', 'Street address'),
		clearableText('Area', 'area', 'District, region or state'),
		clearableText('City', 'city', 'City or town'),
		{
			displayName: 'Code',
			name: 'code',
			type: 'string',
			default: '',
			description: 'Code of the supplier, unique in the entity',
		},
		{
			displayName: 'Contact IDs',
			name: 'contacts',
			type: 'string',
			default: '',
			placeholder: 'e.g. 12, 15',
			description:
				'Warning: replaces the whole list of contacts associated with the supplier; contacts not listed here are removed from it. Comma-separated contact IDs, or null to remove every contact.',
		},
		clearableText('IBAN', 'iban', 'Bank account number (IBAN)'),
		coordinateField('Latitude', 'latitude', 90),
		coordinateField('Longitude', 'longitude', 180),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: 'Name of the supplier',
		},
		clearableText('Post Code', 'post_code', 'Postal code'),
		clearableText('VAT Number', 'vat', 'VAT (tax) number'),
	]),
];

const coordinate = (limit: number) => {
	const message = `must be a number from -${limit} to ${limit}, or null to clear it`;
	return z
		.preprocess(
			(value) => toNumber(toNull(value)),
			z.number({ invalid_type_error: message }).min(-limit, message).max(limit, message).nullable(),
		)
		.optional();
};

const schema = lazy(() =>
	z
		.object({
			name: text().optional(),
			code: text().optional(),
			vat: nullableText(),
			address: nullableText(),
			post_code: nullableText(),
			city: nullableText(),
			area: nullableText(),
			iban: nullableText(),
			latitude: coordinate(90),
			longitude: coordinate(180),
			add_to_market: boolean().nullable().optional(),
			contacts: z.preprocess(toNull, idList().nullable()).optional(),
		})
		.strict()
		.refine((body) => Object.keys(body).length > 0, NOTHING_TO_CHANGE),
);

export const update = sendOperation('updateSupplier', properties, {
	body: { collections: ['updateFields'], schema, unique: ['code'] },
});
