import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { id, integer, oneOf } from '../../helpers/schemas';
import { toItems } from '../../helpers/simplify';
import type { ApiRequest } from '../../transport';
import { apiRequest, asNodeError } from '../../transport';
import { forOperation, simplifyProperty } from '../common';
import { buildRequest, errorItem, readRetry } from '../executor';
import { runPerItem } from '../router';
import type { OperationModule } from '../types';

const properties: INodeProperties[] = [
	{ displayName: 'Warehouse ID', name: 'warehouseId', type: 'string', required: true, default: '', placeholder: 'e.g. 2' },
	{
		displayName: 'Action',
		name: 'action',
		type: 'options',
		required: true,
		options: [
			{ name: 'Add to Warehouse', value: 'WAREHOUSE_ADD' },
			{ name: 'Subtract From Warehouse', value: 'WAREHOUSE_SUBTRACT' },
		],
		default: 'WAREHOUSE_ADD',
		description: 'Applies to every transaction of the batch',
	},
	{
		displayName: 'Transactions',
		name: 'transactions',
		type: 'fixedCollection',
		required: true,
		typeOptions: { multipleValues: true },
		placeholder: 'Add Transaction',
		default: {},
		options: [
			{
				displayName: 'Transaction',
				name: 'items',
				values: [
					{ displayName: 'Material ID', name: 'material_id', type: 'number', default: 0 },
					{ displayName: 'Quantity', name: 'quantity', type: 'number', typeOptions: { numberPrecision: 0 }, default: 1 },
					{
						displayName: 'Cost Price',
						name: 'cost_price',
						type: 'number',
						typeOptions: { numberPrecision: 0 },
						default: 0,
						description: 'Whole number, as the API expects',
					},
					{ displayName: 'Observations', name: 'observations', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [{ displayName: 'Observations', name: 'observations', type: 'string', default: '', description: 'For the whole batch' }],
	},
	{
		displayName: 'Options',
		name: 'batchOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Combine All Items Into One Batch',
				name: 'combineItems',
				type: 'boolean',
				default: false,
				description:
					'Whether to send one request whose transactions come from all input items (they must share the warehouse and action). Each output item stays paired with its input item.',
			},
		],
	},
	simplifyProperty,
];

const transaction = z
	.object({
		material_id: id(),
		quantity: integer().refine((value) => (value as number) > 0, 'must be more than 0'),
		cost_price: integer(),
		observations: z.string().optional(),
	})
	.strict();

const schema = z
	.object({
		action: oneOf(['WAREHOUSE_ADD', 'WAREHOUSE_SUBTRACT']),
		transactions: z
			.array(transaction, { required_error: 'is required: add at least one transaction' })
			.min(1, 'needs at least one transaction'),
		observations: z.string().optional(),
	})
	.strict();

async function executeAll(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('batchOptions', 0, {}) as IDataObject;
	if (!options.combineItems) return await runPerItem.call(this, createBatch, items);

	const output: INodeExecutionData[] = new Array(items.length);
	const parts: Array<{ itemIndex: number; request: ApiRequest }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const request = buildRequest.call(this, createBatch, itemIndex);
			const first = parts[0]?.request;
			if (first && (first.path !== request.path || first.body?.action !== request.body?.action)) {
				throw new NodeOperationError(this.getNode(), `Item ${itemIndex} cannot join the combined batch`, {
					itemIndex,
					description: `A combined batch has one warehouse and one action. This item has ${request.path} and ${String(request.body?.action)}, the first has ${first.path} and ${String(first.body?.action)}. Make them match, or turn off "Combine All Items Into One Batch".`,
				});
			}
			parts.push({ itemIndex, request });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
			output[itemIndex] = errorItem(error, itemIndex);
		}
	}
	if (parts.length) {
		const [first] = parts;
		const transactions = parts.flatMap((part) => part.request.body!.transactions as IDataObject[]);
		const body: IDataObject = { ...first.request.body, transactions };
		try {
			const envelope = await apiRequest.call(this, { ...first.request, body }, readRetry.call(this, first.itemIndex), first.itemIndex);
			const simplify = this.getNodeParameter('simplify', first.itemIndex, true) as boolean;
			const data = Array.isArray(envelope.data) ? envelope.data : envelope.data ? [envelope.data] : [];
			const [batch] = toItems(data, envelope.included, simplify);
			const created = toItems(envelope.included ?? [], [], simplify);
			let offset = 0;
			for (const { itemIndex, request } of parts) {
				const count = (request.body!.transactions as IDataObject[]).length;
				output[itemIndex] = {
					json: { ...batch, transactions: created.slice(offset, offset + count) },
					pairedItem: { item: itemIndex },
				};
				offset += count;
			}
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, first.itemIndex);
			for (const { itemIndex } of parts) output[itemIndex] = errorItem(error, itemIndex);
		}
	}
	return output;
}

export const createBatch: OperationModule = {
	description: forOperation('stockTransaction', 'createBatch', properties),
	endpoint: {
		method: 'POST',
		path: '/stocks/warehouses/{warehouseId}/stock-transactions',
		pathParams: { warehouseId: 'warehouseId' },
		body: { fields: ['action', 'transactions'], collections: ['additionalFields'], schema },
	},
	executeAll,
};
