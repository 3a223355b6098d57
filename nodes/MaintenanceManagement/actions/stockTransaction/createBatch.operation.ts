import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { id, integer, lazy, oneOf } from '../../helpers/schemas';
import { toItems } from '../../helpers/simplify';
import type { ApiRequest } from '../../transport';
import { apiRequest, asNodeError } from '../../transport';
import { forOperation, simplifyProperty } from '../common';
import { buildRequest, errorItem, readRetry } from '../executor';
import { runPerItem } from '../router';
import type { OperationModule } from '../types';

const properties: INodeProperties[] = [
	{
		displayName: 'Warehouse ID',
		name: 'warehouseId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2',
	},
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
		description:
			'Each needs a material, a quantity and a cost price. To map a list from the input, use Transactions (JSON) under Additional Fields instead.',
		options: [
			{
				displayName: 'Transaction',
				name: 'items',
				values: [
					{ displayName: 'Material ID', name: 'material_id', type: 'number', default: 0 },
					{
						displayName: 'Quantity',
						name: 'quantity',
						type: 'number',
						typeOptions: { numberPrecision: 0 },
						default: 1,
						description: 'Whole number above 0; the action sets whether it is added or subtracted',
					},
					{
						displayName: 'Cost Price',
						name: 'cost_price',
						type: 'number',
						typeOptions: { numberPrecision: 0 },
						default: 0,
						description: 'Whole number, 0 or more, as the API expects',
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
		options: [
			{
				displayName: 'Observations',
				name: 'observations',
				type: 'string',
				default: '',
				description: 'For the whole batch. In a combined batch, items that set it must agree.',
			},
			{
				displayName: 'Transactions (JSON)',
				name: 'transactions_json',
				type: 'json',
				default: '[]',
				description:
					'The transactions as a JSON array, instead of the Transactions fields, for example from an expression over the item\'s lines: [{"material_id": 7, "quantity": 2, "cost_price": 10}]',
			},
		],
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
					'Whether to send one request whose transactions come from all input items (they must share the warehouse, the action and any batch observations). Each output item stays paired with its input item and lists the transactions it contributed.',
			},
		],
	},
	simplifyProperty,
];

const transaction = () =>
	z
		.object({
			material_id: id(),
			quantity: integer().refine(
				(value) => (value as number) > 0,
				'must be more than 0: the action sets the direction',
			),
			cost_price: integer().refine((value) => (value as number) >= 0, 'must be 0 or more'),
			observations: z.string().optional(),
		})
		.strict();

const schema = lazy(() =>
	z
		.object({
			action: oneOf(['WAREHOUSE_ADD', 'WAREHOUSE_SUBTRACT']),
			transactions: z
				.array(transaction(), { required_error: 'is required: add at least one transaction' })
				.min(1, 'needs at least one transaction'),
			observations: z.string().optional(),
		})
		.strict(),
);

interface BatchPart {
	itemIndex: number;
	request: ApiRequest;
}

const warehouseOf = (part: BatchPart): string =>
	decodeURIComponent(part.request.path.split('/')[3] ?? '');

/** Why an item cannot join the items already in the combined request, or '' when it can. */
function joinProblem(parts: BatchPart[], part: BatchPart): string {
	const [first] = parts;
	const problems: string[] = [];
	if (warehouseOf(part) !== warehouseOf(first)) {
		problems.push(
			`its Warehouse ID is ${warehouseOf(part)}, item ${first.itemIndex}'s is ${warehouseOf(first)}`,
		);
	}
	const action = String(part.request.body!.action);
	const firstAction = String(first.request.body!.action);
	if (action !== firstAction)
		problems.push(`its Action is ${action}, item ${first.itemIndex}'s is ${firstAction}`);
	const observations = part.request.body!.observations;
	const other = parts.find((entry) => entry.request.body!.observations !== undefined);
	if (observations !== undefined && other && other.request.body!.observations !== observations) {
		problems.push(`its batch Observations differ from item ${other.itemIndex}'s`);
	}
	return problems.join('; ');
}

/**
 * Without "Combine All Items Into One Batch", each item is one request. With it, every valid item's
 * transactions go into ONE request; all items are read and validated before it is sent, and each
 * input item gets one output item: the batch plus the transactions it contributed.
 */
async function executeAll(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('batchOptions', 0, {}) as IDataObject;
	if (!options.combineItems) return await runPerItem.call(this, createBatch, items);

	const output: INodeExecutionData[] = new Array(items.length);
	const parts: BatchPart[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const request = buildRequest.call(this, createBatch, itemIndex);
			if (parts.length) {
				const mismatch = joinProblem(parts, { itemIndex, request });
				if (mismatch) {
					throw new NodeOperationError(
						this.getNode(),
						`Item ${itemIndex} cannot join the combined batch: ${mismatch}`,
						{
							itemIndex,
							description: `A combined batch has one warehouse, one action and one batch observation. Make them match across the items, or turn off "Combine All Items Into One Batch". No request was sent for this item.`,
						},
					);
				}
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
		const observations = parts.find((part) => part.request.body!.observations !== undefined)
			?.request.body!.observations;
		const body: IDataObject = {
			action: first.request.body!.action,
			transactions,
			...(observations !== undefined ? { observations } : {}),
		};
		try {
			const envelope = await apiRequest.call(
				this,
				{ ...first.request, body },
				readRetry.call(this, first.itemIndex),
				first.itemIndex,
			);
			const simplify = this.getNodeParameter('simplify', first.itemIndex, true) as boolean;
			const data = Array.isArray(envelope.data)
				? envelope.data
				: envelope.data
					? [envelope.data]
					: [];
			const [batch] = toItems(data, envelope.included, simplify);
			// The batch's transactions, in the order they were sent; each item gets its own slice.
			const sent = (envelope.included ?? []).filter(
				(resource) => resource.type === 'stock-transaction',
			);
			const created = toItems(sent, [], simplify);
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
