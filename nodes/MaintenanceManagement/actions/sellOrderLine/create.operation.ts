import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { id, lazy, lineDescription, number, numericString, oneOf } from '../../../shared/schemas';
import {
	additionalFields,
	lineDescriptionProperty,
	lineReferenceFields,
} from '../../../shared/fields';
import { expandedProperty, pathIdHint } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';
import { checkLineType, LINE_TYPES, lineTypeProperty } from '../../../shared/lineRules';

const properties: INodeProperties[] = [
	{
		displayName: 'Sell Order ID',
		name: 'sellOrderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 31',
		description:
			'ID of the sell order (sale) that gets the line, from the list of sales in the service (the API lists no sell orders)',
		builderHint: pathIdHint,
	},
	lineTypeProperty('What the line sells'),
	{
		displayName: 'Quantity',
		name: 'quantity',
		type: 'string',
		required: true,
		default: '1',
		description: 'How many units, as a number such as 2 or 1.5 (sent as text, as the API expects)',
	},
	{
		displayName: 'Unit Price',
		name: 'unit_price',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 12.50',
		description: 'Price of one unit, before discount and VAT',
	},
	additionalFields([
		lineDescriptionProperty,
		{
			displayName: 'Discount (%)',
			name: 'discount',
			type: 'number',
			default: 0,
			description: 'Percentage; 10.23 means 10.23 percent',
		},
		...lineReferenceFields,
		{ displayName: 'Unit', name: 'unit', type: 'string', default: '' },
		{
			displayName: 'VAT (%)',
			name: 'vat',
			type: 'number',
			default: 0,
			description: 'Percentage; 10.23 means 10.23 percent',
		},
	]),
	expandedProperty(['cost_center', 'material', 'other_cost']),
];

const schema = lazy(() =>
	z
		.object({
			type: oneOf(LINE_TYPES.values),
			quantity: numericString(),
			unit_price: number(),
			description: lineDescription(),
			discount: number().optional(),
			material_id: id().optional(),
			observations: z.string().optional(),
			other_cost_id: id().optional(),
			unit: z.string().optional(),
			vat: number().optional(),
		})
		.strict()
		.superRefine(checkLineType),
);

export const create = sendOperation('createSellOrderLine', properties, {
	query: ['expanded'],
	body: { fields: ['type', 'quantity', 'unit_price'], collections: ['additionalFields'], schema },
});
