import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { z } from 'zod/v3';

import { choices } from '../../../shared/options';
import { refusal } from '../../../shared/errors/nodeError';
import { cannotJoinBatch } from '../../../shared/errors/messages';
import { itemNumber } from '../../../shared/errors/text';
import { id, integer, lazy, oneOf } from '../../../shared/schemas';
import { toItems } from '../../../shared/simplify';
import { recordsOf } from '../../transport';
import { additionalFields, wholeNumber } from '../../../shared/fields';
import { pathIdHint } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';
import type { Grouping, ItemPart } from '../../executor/grouped';
import { sendGrouped } from '../../executor/grouped';
import { runEndpoint } from '../../executor/perItem';
import { materialIdProperty, warehouseIdDescription } from './transactionFields';

const STOCK_ACTIONS = choices({
	WAREHOUSE_ADD: 'Add to Warehouse',
	WAREHOUSE_SUBTRACT: 'Subtract From Warehouse',
});

const properties: INodeProperties[] = [
	{
		displayName: 'Warehouse ID',
		name: 'warehouseId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2',
		description: warehouseIdDescription('The ID of the warehouse whose stock changes'),
		builderHint: pathIdHint,
	},
	{
		displayName: 'Action',
		name: 'action',
		type: 'options',
		required: true,
		options: STOCK_ACTIONS.options,
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
					materialIdProperty,
					wholeNumber(
						'Quantity',
						'quantity',
						'Whole number above 0; the action sets whether it is added or subtracted',
						1,
					),
					{
						displayName: 'Cost Price',
						name: 'cost_price',
						type: 'string',
						required: true,
						default: '',
						placeholder: 'e.g. 10',
						description: 'Whole number, 0 or more, as the API expects',
					},
					{
						displayName: 'Transaction Observations',
						name: 'observations',
						type: 'string',
						default: '',
						description: 'A note on this transaction only',
					},
				],
			},
		],
	},
	additionalFields([
		{
			displayName: 'Batch Observations',
			name: 'observations',
			type: 'string',
			default: '',
			description: 'A note on the whole batch. In a combined batch, items that set it must agree.',
		},
		{
			displayName: 'Transactions (JSON)',
			name: 'transactions_json',
			type: 'json',
			default: '[]',
			description:
				'The transactions as a JSON array, instead of the Transactions fields, for example from an expression over the item\'s lines: [{"material_id": 7, "quantity": 2, "cost_price": 10}]',
		},
	]),
	{
		displayName: 'Options',
		name: 'batchOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'One Batch for All Items',
				name: 'combineItems',
				type: 'boolean',
				default: false,
				description:
					'Whether to send the transactions of all input items in one request (they must share the warehouse, the action and any batch observations). Each output item lists its own transactions.',
			},
		],
	},
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
			action: oneOf(STOCK_ACTIONS.values),
			transactions: z
				.array(transaction(), { required_error: 'is required: add at least one transaction' })
				.min(1, 'needs at least one transaction'),
			observations: z.string().optional(),
		})
		.strict(),
);

/** Why an item cannot join the items already in the combined request, or '' when it can. */
function joinProblem(parts: ItemPart[], part: ItemPart): string {
	const [first] = parts;
	const problems: string[] = [];
	const warehouse = part.pathValues.warehouseId;
	const firstWarehouse = first.pathValues.warehouseId;
	if (warehouse !== firstWarehouse) {
		problems.push(
			`its Warehouse ID is ${warehouse}, item ${itemNumber(first.itemIndex)}'s is ${firstWarehouse}`,
		);
	}
	const action = String(part.body.action);
	const firstAction = String(first.body.action);
	if (action !== firstAction)
		problems.push(
			`its Action is ${action}, item ${itemNumber(first.itemIndex)}'s is ${firstAction}`,
		);
	const observations = part.body.observations;
	const other = parts.find((entry) => entry.body.observations !== undefined);
	if (observations !== undefined && other && other.body.observations !== observations) {
		problems.push(`its batch Observations differ from item ${itemNumber(other.itemIndex)}'s`);
	}
	return problems.join('; ');
}

const transactionsOf = (part: ItemPart): IDataObject[] => part.body.transactions as IDataObject[];

/**
 * Every valid item's transactions in ONE request; each item's output is the batch plus its own
 * transactions as the answer gives them back.
 */
const combined: Grouping = {
	check(context, part, gathered) {
		const mismatch = gathered.length ? joinProblem(gathered, part) : '';
		if (mismatch) {
			throw refusal(context.getNode(), cannotJoinBatch(part.itemIndex, mismatch), {
				itemIndex: part.itemIndex,
			});
		}
	},
	body(group) {
		const observations = group.find((part) => part.body.observations !== undefined)?.body
			.observations;
		return {
			action: group[0].body.action,
			transactions: group.flatMap(transactionsOf),
			...(observations !== undefined ? { observations } : {}),
		};
	},
	share(group, envelope, simplify) {
		const [batch] = toItems(recordsOf(envelope), envelope.included, simplify);
		if (!batch) return group.map(() => undefined);
		const answered = (envelope.included ?? []).filter(
			(resource) => resource.type === 'stock-transaction',
		);
		const created = toItems(answered, [], simplify);
		const left = new Set(answered.keys());
		// Each item's transactions are the answer's of the same material and quantity, taken in order; an
		// item with one the answer leaves out is not confirmed.
		return group.map((part) => {
			const taken: number[] = [];
			for (const sent of transactionsOf(part)) {
				const match = [...left].find(
					(index) =>
						!taken.includes(index) &&
						Number(answered[index].attributes?.material_id) === Number(sent.material_id) &&
						Number(answered[index].attributes?.quantity) === Number(sent.quantity),
				);
				if (match === undefined) return undefined;
				taken.push(match);
			}
			for (const index of taken) left.delete(index);
			return { ...batch, transactions: taken.map((index) => created[index]) };
		});
	},
};

/**
 * Without "One Batch for All Items", each item is one request. With it, every valid item's
 * transactions go into ONE request; all items are read and validated before it is sent, and each
 * input item gets one output item: the batch plus the transactions it contributed.
 */
async function executeAll(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const options = context.getNodeParameter('batchOptions', 0, {}) as IDataObject;
	if (!options.combineItems) return await runEndpoint(context, createBatch, items);
	return await sendGrouped(context, createBatch, items.length, combined);
}

export const createBatch = sendOperation(
	'postStockWarehousesStockTransactions',
	properties,
	{
		answers: 'list',
		body: { fields: ['action', 'transactions'], collections: ['additionalFields'], schema },
	},
	executeAll,
);
