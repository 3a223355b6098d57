import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { id, integer, lazy, lineDescription, oneOf } from '../../../shared/schemas';
import {
	additionalFields,
	idField,
	lineDescriptionProperty,
	lineReferenceFields,
	wholeNumber,
} from '../../../shared/fields';
import { pathIdHint } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';
import { checkLineType, LINE_TYPES, lineTypeProperty } from '../../../shared/lineRules';

const properties: INodeProperties[] = [
	{
		displayName: 'Quote ID',
		name: 'quoteId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 8',
		description:
			'ID of the quote that gets the line, from the list of quotes in the service (the API lists no quotes)',
		builderHint: pathIdHint,
	},
	lineTypeProperty(
		'What the line quotes. The API does not list the values it accepts for a new quote line; these are the types its quote lines carry.',
	),
	additionalFields([
		lineDescriptionProperty,
		wholeNumber('Discount (%)', 'discount', 'Whole-number percentage'),
		...lineReferenceFields,
		wholeNumber('Quantity', 'quantity', 'Whole number of units'),
		idField(
			'Received Quote Request Line ID',
			'received_quote_request_line_id',
			'The ID of the received quote request line',
		),
		{
			displayName: 'Received Quote Request Line UUID',
			name: 'received_quote_request_line_uuid',
			type: 'string',
			default: '',
		},
		{ displayName: 'Unit', name: 'unit', type: 'string', default: '' },
		wholeNumber('Unit Price', 'unit_price', 'Whole number, as the API expects for quote lines'),
		wholeNumber('VAT (%)', 'vat', 'Whole-number percentage'),
	]),
];

const schema = lazy(() =>
	z
		.object({
			type: oneOf(LINE_TYPES.values),
			description: lineDescription(),
			discount: integer().optional(),
			material_id: id().optional(),
			observations: z.string().optional(),
			other_cost_id: id().optional(),
			quantity: integer().optional(),
			received_quote_request_line_id: id().optional(),
			received_quote_request_line_uuid: z.string().optional(),
			unit: z.string().optional(),
			unit_price: integer().optional(),
			vat: integer().optional(),
		})
		.strict()
		.superRefine(checkLineType),
);

export const create = sendOperation('createQuoteLine', properties, {
	pathParams: { id: 'quoteId' },
	body: { fields: ['type'], collections: ['additionalFields'], schema },
});
