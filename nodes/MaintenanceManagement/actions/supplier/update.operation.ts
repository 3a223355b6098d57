import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { boolean, idList, number, text } from '../../helpers/schemas';
import { forOperation, recordLocator, simplifyProperty } from '../common';
import type { OperationModule } from '../types';

const nullableText = z.string().optional();

const properties: INodeProperties[] = [
	recordLocator('supplier', 'Supplier', 'searchSuppliers'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Add to Market',
				name: 'add_to_market',
				type: 'boolean',
				default: false,
				description: 'Whether to add the supplier to the marketplace. A supplier already there is not added again.',
			},
			{ displayName: 'Address', name: 'address', type: 'string', default: '' },
			{ displayName: 'Area', name: 'area', type: 'string', default: '', description: 'District, region or state' },
			{ displayName: 'City', name: 'city', type: 'string', default: '' },
			{ displayName: 'Code', name: 'code', type: 'string', default: '', description: 'Unique in the entity' },
			{
				displayName: 'Contact IDs',
				name: 'contacts',
				type: 'string',
				default: '',
				placeholder: 'e.g. 12, 15',
				description:
					'Warning: replaces the whole list of contacts associated with the supplier. Contacts not listed here are removed from it. Comma-separated contact IDs.',
			},
			{ displayName: 'IBAN', name: 'iban', type: 'string', default: '' },
			{ displayName: 'Latitude', name: 'latitude', type: 'number', typeOptions: { numberPrecision: 7 }, default: 0 },
			{ displayName: 'Longitude', name: 'longitude', type: 'number', typeOptions: { numberPrecision: 7 }, default: 0 },
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{ displayName: 'Post Code', name: 'post_code', type: 'string', default: '' },
			{ displayName: 'VAT Number', name: 'vat', type: 'string', default: '' },
		],
	},
	simplifyProperty,
];

const schema = z
	.object({
		name: text().optional(),
		code: text().optional(),
		vat: nullableText,
		address: nullableText,
		post_code: nullableText,
		city: nullableText,
		area: nullableText,
		iban: nullableText,
		latitude: number().optional(),
		longitude: number().optional(),
		add_to_market: boolean().optional(),
		contacts: idList().optional(),
	})
	.strict()
	.refine((body) => Object.keys(body).length > 0, {
		message: 'has nothing to change: add at least one field under Update Fields',
		path: ['updateFields'],
	});

export const update: OperationModule = {
	description: forOperation('supplier', 'update', properties),
	endpoint: {
		method: 'PATCH',
		path: '/suppliers/{supplier}',
		pathParams: { supplier: 'supplier' },
		body: { collections: ['updateFields'], schema },
	},
};
