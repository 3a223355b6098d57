import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { id, oneOf } from '../../helpers/schemas';
import { forOperation, recordLocator, simplifyProperty } from '../common';
import type { OperationModule } from '../types';

const properties: INodeProperties[] = [
	recordLocator('buyOrderId', 'Buy Order', 'searchBuyOrders'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Description', name: 'description', type: 'string', default: '' },
			{ displayName: 'External Sale ID', name: 'external_sale_id', type: 'string', default: '' },
			{ displayName: 'Internal Sale ID', name: 'internal_sale_id', type: 'string', default: '' },
			{
				displayName: 'Related To ID',
				name: 'related_to_id',
				type: 'number',
				default: 0,
				description: 'ID of the work order or planned job order. Set it together with Related To Type.',
			},
			{
				displayName: 'Related To Type',
				name: 'related_to_type',
				type: 'options',
				options: [
					{ name: 'Work Order (Failure)', value: 'FAILURE' },
					{ name: 'Planned Job Order (Scheduled Work)', value: 'SCHEDULED_WORK' },
				],
				default: 'FAILURE',
				description: 'What the order relates to. Set it together with Related To ID.',
			},
			{
				displayName: 'Supplier ID',
				name: 'supplier_id',
				type: 'string',
				default: '',
				placeholder: 'e.g. 12, or null',
				description:
					'The supplier ID, or the word null to remove the supplier. Removing it is allowed only while the order is in state SAVED_AS_DRAFT; in any other state the API refuses it with a validation error.',
			},
			{ displayName: 'Warehouse ID', name: 'warehouse_id', type: 'number', default: 0 },
		],
	},
	simplifyProperty,
];

const schema = z
	.object({
		supplier_id: z
			.preprocess((value) => (typeof value === 'string' && value.trim().toLowerCase() === 'null' ? null : value), id().nullable())
			.optional(),
		warehouse_id: id().optional(),
		description: z.string().optional(),
		internal_sale_id: z.string().optional(),
		external_sale_id: z.string().optional(),
		related_to_type: oneOf(['FAILURE', 'SCHEDULED_WORK']).optional(),
		related_to_id: id().optional(),
	})
	.strict()
	.superRefine((body, context) => {
		if (Object.keys(body).length === 0) {
			context.addIssue({ code: 'custom', path: ['updateFields'], message: 'has nothing to change: add at least one field under Update Fields' });
		}
		if ((body.related_to_type === undefined) !== (body.related_to_id === undefined)) {
			context.addIssue({
				code: 'custom',
				path: [body.related_to_type === undefined ? 'related_to_type' : 'related_to_id'],
				message: 'must be set together with the other: set both Related To Type and Related To ID, or neither',
			});
		}
	});

export const update: OperationModule = {
	description: forOperation('buyOrder', 'update', properties),
	endpoint: {
		method: 'PATCH',
		path: '/sales/buy-orders/{buy-order-id}',
		pathParams: { 'buy-order-id': 'buyOrderId' },
		body: { collections: ['updateFields'], schema },
	},
};
