import type { IDataObject } from 'n8n-workflow';

import type {
	OperationName,
	ResourceName,
} from '../../nodes/MaintenanceManagement/actions/resources';
import { firstPageQuery } from '../helpers/paging';

/**
 * One case per endpoint of the spec: the node parameters, the request the sandbox must log, and checks
 * on the output. The nodes suite runs them through the node's execute; the end-to-end suite runs the same
 * cases as nodes of a workflow in a real n8n.
 */

/** Calls the sandbox's control API. */
export type Control = (method: string, path: string) => Promise<unknown>;
/** Reads a record back through the API, as the node would. */
export type Reread = (collection: 'location', id: string) => Promise<IDataObject>;

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/** The fields of the every-field rows, as typed in the node and as sent. */
const SUPPLIER = {
	name: 'ACME Lifts',
	code: 'ACME',
	vat: 'PT509999999',
	address: '1 Lift Street',
	post_code: '1000-001',
	city: 'Lisbon',
	area: 'Lisboa',
	iban: 'PT50000201231234567890154',
	latitude: 38.7223,
	longitude: -9.1393,
	add_to_market: true,
};
const BUY_ORDER = {
	warehouse_id: 2,
	description: 'Spare parts for the lifts',
	internal_sale_id: 'INT-9',
	external_sale_id: 'ERP-77',
	related_to_type: 'SCHEDULED_WORK',
	related_to_id: 7,
};
const QUOTE_LINE = {
	description: 'Annual inspection',
	discount: 10,
	observations: 'Includes travel',
	quantity: 3,
	received_quote_request_line_id: 5,
	received_quote_request_line_uuid: '3f1c2a9e-0000-4000-8000-000000000005',
	unit: 'h',
	unit_price: 30,
	vat: 23,
};
const MATERIAL = {
	description: 'Zinc plated',
	purchase_consumption_type: 'MANUAL',
	sku: 'SKU-88',
	ean_upc: '5601234567890',
	observations: 'Box of 100',
	sale_price: 0.35,
	sale_vat: 23,
};
const LEGACY_MATERIAL = {
	units: 'unit',
	parent_id: 1,
	observation: 'Rubber',
	mean_price: 4.5,
	default_sell_price: 7,
	default_sell_vat: 23,
};

/** A record's attributes as the sandbox stores them. */
const stored = async (control: Control, collection: string, id: string) =>
	((await control('GET', `/state/${collection}/${id}`)) as { attributes: IDataObject }).attributes;

/** The smallest valid CYCLIC planned job, as Work: Create parameters: the required fields plus one intervention. */
export const CYCLIC_JOB: Record<string, unknown> = {
	type: 'CYCLIC',
	name: 'Lift inspection',
	work_type_id: 1,
	local_id: '3',
	client_id: 1,
	interventions: { items: [{ id: 5, elements: 'EL-1' }] },
};

/** What CYCLIC_JOB sends with Locations "3, 4", up to its interventions. */
export const CYCLIC_JOB_SENT: IDataObject = {
	_type: 'works',
	type: 'CYCLIC',
	name: 'Lift inspection',
	work_type_id: 1,
	local_id: [3, 4],
	client_id: 1,
};

/** The request of a Get Many for the first page of `limit` records, with its other query parameters. */
const firstPage = (path: string, limit: number, query: Record<string, string> = {}) => ({
	method: 'GET',
	path,
	query: firstPageQuery(limit, query),
});

/**
 * A Get Many of the first `limit` records of `path`, with the relations `expanded` (the query joins them
 * with commas): the operation, its parameters and the request they make.
 */
const getMany = (path: string, limit: number, expanded: string[] = []) => ({
	operation: 'getAll' as const,
	parameters: expanded.length ? { limit, expanded } : { limit },
	request: firstPage(path, limit, expanded.length ? { expanded: expanded.join(',') } : {}),
});

/** Checks that the output is one item holding these fields (and maybe others). */
const expectOnly = (output: IDataObject[], fields: IDataObject) =>
	expect(output).toEqual([expect.objectContaining(fields)]);

/** A resource and one of its operations: a case naming another pair does not compile. */
export type OperationPair = {
	[R in ResourceName]: { resource: R; operation: OperationName<R> };
}[ResourceName];

export type OperationCase = OperationPair & {
	parameters: IDataObject;
	request: { method: string; path: string; query?: Record<string, string>; body?: unknown };
	check: (output: IDataObject[]) => void | Promise<void>;
};

/** One case per endpoint of the spec: the request the sandbox logged, and the output items. */
export const operationCases = (control: Control, reread: Reread): OperationCase[] => [
	{
		resource: 'location',
		operation: 'getAll',
		parameters: { limit: 5, filters: { with_assets_count: true } },
		request: firstPage('/locations', 5, { with_assets_count: 'true' }),
		check: (output) => {
			expect(output).toHaveLength(5);
			expect(output[0]).toMatchObject({ id: '1', type: 'building' });
			expect(typeof output[0].assets_count).toBe('number');
		},
	},
	{
		resource: 'location',
		operation: 'get',
		parameters: { id: rl('3'), options: { with_assets_count: true } },
		request: { method: 'GET', path: '/locations/3', query: { with_assets_count: 'true' } },
		check: (output) => {
			expectOnly(output, { id: '3', type: 'location', code: 'R3' });
			expect(typeof output[0].assets_count).toBe('number');
		},
	},
	{
		resource: 'location',
		operation: 'updateMany',
		parameters: { id: rl('3'), updateFields: { name: 'Boiler room', orientation: 'East' } },
		request: {
			method: 'PATCH',
			path: '/locations',
			body: { locations: [{ id: 3, name: 'Boiler room', orientation: 'East' }] },
		},
		check: async (output) => {
			expectOnly(output, { id: '3', name: 'Boiler room', orientation: 'East' });
			expect(await reread('location', '3')).toMatchObject({
				name: 'Boiler room',
				orientation: 'East',
			});
		},
	},
	{
		resource: 'failure',
		...getMany('/failures', 3, ['assignees']),
		check: (output) => {
			expect(output.map((o) => o.code)).toEqual(['WO-1', 'WO-2', 'WO-3']);
			expect(output[0].assignees).toEqual([
				expect.objectContaining({ type: 'failure_assignee', operator_id: 2 }),
			]);
		},
	},
	{
		resource: 'failure',
		operation: 'getAllOpen',
		parameters: { returnAll: true, filters: { status: 'PAUSED', s_local_id: 10 } },
		request: firstPage('/failures/open', 2000, { status: 'PAUSED', s_local_id: '10' }),
		check: (output) => {
			expect(output.length).toBeGreaterThan(0);
			expect(output.every((o) => o.status === 'PAUSED' && o.local_id === 10)).toBe(true);
		},
	},
	{
		resource: 'work',
		operation: 'create',
		parameters: {
			type: 'CYCLIC',
			name: 'Lift inspection',
			work_type_id: 1,
			local_id: '3, 4',
			client_id: 1,
			recurrence: { values: { DTSTART: '2026-05-01T08:00:00', FREQ: 'MONTHLY', INTERVAL: 1 } },
			interventions: { items: [{ id: 5, elements: 'EL-1, EL-2' }] },
			additionalFields: { auto_close: true, description: 'Monthly check' },
		},
		request: {
			method: 'POST',
			path: '/works',
			body: {
				...CYCLIC_JOB_SENT,
				recurrence: { DTSTART: '2026-05-01T08:00:00', FREQ: 'MONTHLY', INTERVAL: 1 },
				interventions: [{ id: 5, elements: [{ id: 'EL-1' }, { id: 'EL-2' }] }],
				auto_close: true,
				description: 'Monthly check',
			},
		},
		check: (output) =>
			expectOnly(output, {
				type: 'work',
				attribute_type: 'CYCLIC',
				name: 'Lift inspection',
			}),
	},
	{
		resource: 'scheduledWork',
		...getMany('/works/scheduled', 2, ['work', 'participants']),
		check: (output) => {
			expect(output).toHaveLength(2);
			expect(output[0].work).toMatchObject({ type: 'work', id: '1' });
			expect(output[0].participants).toEqual([expect.objectContaining({ type: 'operator' })]);
		},
	},
	{
		resource: 'client',
		operation: 'syncContacts',
		parameters: { client: '2', contact_ids: '1, 2' },
		request: { method: 'POST', path: '/clients/2/contacts', body: { contact_ids: [1, 2] } },
		check: (output) =>
			expect(output[0]).toMatchObject({
				id: '2',
				type: 'client',
				contacts: [{ id: '1' }, { id: '2' }],
			}),
	},
	{
		resource: 'contact',
		operation: 'checkOrCreate',
		parameters: {
			email: 'new.contact@example.com',
			name: 'New Contact',
			direct_permissions: { failure: true, failure_type: 'assigned' },
		},
		request: {
			method: 'POST',
			path: '/contacts',
			body: {
				email: 'new.contact@example.com',
				name: 'New Contact',
				direct_permissions: { failure: true, failure_type: 'assigned' },
			},
		},
		check: (output) =>
			expect(output[0]).toMatchObject({
				type: 'contact',
				email: 'new.contact@example.com',
				full_name: 'New Contact',
			}),
	},
	{
		resource: 'supplier',
		...getMany('/suppliers', 2, ['contacts']),
		check: (output) => expect(output.map((o) => o.code)).toEqual(['SUP-1', 'SUP-2']),
	},
	{
		resource: 'supplier',
		operation: 'update',
		parameters: {
			supplier: { __rl: true, mode: 'list', value: '2', cachedResultName: 'Supplier 2 (SUP-2)' },
			updateFields: {
				...SUPPLIER,
				contacts: '3, 4',
			},
		},
		request: {
			method: 'PATCH',
			path: '/suppliers/2',
			body: {
				...SUPPLIER,
				contacts: [3, 4],
			},
		},
		check: async (output) => {
			expectOnly(output, {
				id: '2',
				type: 'supplier',
				name: 'ACME Lifts',
				code: 'ACME',
				postal_code: '1000-001',
				latitude: 38.7223,
				market_supplier_id: expect.any(String),
			});
			expect(await stored(control, 'suppliers', '2')).toMatchObject({
				contact_ids: [3, 4],
				city: 'Lisbon',
				iban: 'PT50000201231234567890154',
			});
		},
	},
	{
		resource: 'buyOrder',
		...getMany('/sales/buy-orders', 10),
		check: (output) => expect(output.map((o) => o.code)).toContain('PO-0001'),
	},
	{
		resource: 'buyOrder',
		operation: 'update',
		parameters: {
			buyOrderId: rl('5'),
			updateFields: {
				...BUY_ORDER,
				supplier_id: '3',
			},
		},
		request: {
			method: 'PATCH',
			path: '/sales/buy-orders/5',
			body: {
				...BUY_ORDER,
				supplier_id: 3,
			},
		},
		check: async (output) => {
			expectOnly(output, {
				id: '5',
				type: 'buy_order',
				code: 'PO-0005',
				state: 'SAVED_AS_DRAFT',
				supplier_id: 3,
				warehouse_id: 2,
				description: 'Spare parts for the lifts',
				external_sale_id: 'ERP-77',
				related_to_type: 'SCHEDULED_WORK',
				related_to_id: 7,
				// The meta of the update response, beside the order.
				custom_fields: null,
				cost_centers: [],
			});
			expect(await stored(control, 'buyOrders', '5')).toMatchObject({
				supplier_id: 3,
				internal_sale_id: 'INT-9',
				related_to_id: 7,
			});
		},
	},
	{
		resource: 'sellOrderLine',
		operation: 'create',
		parameters: {
			sellOrderId: '1',
			type: 'MATERIAL',
			quantity: '2.5',
			unit_price: 10,
			additionalFields: { material_id: 3, vat: 23 },
			expanded: ['material'],
		},
		request: {
			method: 'POST',
			path: '/sales/sell-orders/1/lines',
			query: { expanded: 'material' },
			body: { type: 'MATERIAL', quantity: '2.5', unit_price: 10, material_id: 3, vat: 23 },
		},
		check: (output) => {
			expect(output[0]).toMatchObject({
				type: 'sell_order_line',
				base_total: 25,
				total: 25,
				vat_total: 5.75,
			});
			expect(output[0].material).toMatchObject({ type: 'stock-material', id: '3', code: 'MAT-3' });
		},
	},
	{
		resource: 'quoteLine',
		operation: 'create',
		parameters: {
			quoteId: '4',
			type: 'SERVICE',
			additionalFields: QUOTE_LINE,
		},
		request: {
			method: 'POST',
			path: '/sales/quotes/4/lines',
			body: {
				type: 'SERVICE',
				...QUOTE_LINE,
			},
		},
		check: (output) => {
			expectOnly(output, {
				type: 'quote_line',
				attribute_type: 'SERVICE',
				description: 'Annual inspection',
				quantity: 3,
				base_total: 90,
				discount_total: 9,
				total: 81,
				received_quote_request_line_id: 5,
				quote_line_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
			});
			expect(output[0].vat_total).toBeCloseTo(18.63, 10);
		},
	},
	{
		resource: 'material',
		operation: 'create',
		parameters: {
			material_type_id: 2,
			name: 'Hex bolt M8',
			code: 'BOLT-M8',
			units: 'unit',
			additionalFields: MATERIAL,
		},
		request: {
			method: 'POST',
			path: '/stocks/materials',
			body: {
				material_type_id: 2,
				name: 'Hex bolt M8',
				code: 'BOLT-M8',
				units: 'unit',
				...MATERIAL,
			},
		},
		check: async (output) => {
			expectOnly(output, {
				type: 'stock-material',
				name: 'Hex bolt M8',
				code: 'BOLT-M8',
				material_type_id: '2',
				purchase_consumption_type: 'MANUAL',
				sale_price: 0.35,
			});
			expect(await stored(control, 'stockMaterials', String(output[0].id))).toMatchObject({
				code: 'BOLT-M8',
				sku: 'SKU-88',
				sale_vat: 23,
			});
		},
	},
	{
		resource: 'material',
		operation: 'update',
		parameters: {
			materialId: '1',
			material_type_id: 2,
			name: 'Valve DN50',
			code: 'MAT-1',
			units: 'unit',
			expanded: ['material_type'],
		},
		request: {
			method: 'PATCH',
			path: '/stocks/materials/1',
			query: { expanded: 'material_type' },
			body: { material_type_id: 2, name: 'Valve DN50', code: 'MAT-1', units: 'unit' },
		},
		check: (output) =>
			expect(output[0]).toMatchObject({
				id: '1',
				name: 'Valve DN50',
				material_type: { id: '2', type: 'stock-material-type' },
			}),
	},
	{
		resource: 'legacyMaterial',
		operation: 'create',
		parameters: {
			_type: 'MATERIAL',
			name: 'Gasket DN50',
			code: 'GSK-50',
			additionalFields: LEGACY_MATERIAL,
			material_warehouse: {
				items: [
					{ warehouse_id: 1, min_stock: '2', mean_price: '4.25', observation: 'Shelf B' },
					{ warehouse_id: 2, min_stock: '0.5', mean_price: '', observation: '' },
				],
			},
		},
		request: {
			method: 'POST',
			path: '/materials',
			body: {
				_type: 'MATERIAL',
				name: 'Gasket DN50',
				code: 'GSK-50',
				...LEGACY_MATERIAL,
				material_warehouse: [
					{ warehouse_id: 1, min_stock: 2, mean_price: 4.25, observation: 'Shelf B' },
					{ warehouse_id: 2, min_stock: 0.5 },
				],
			},
		},
		check: async (output) => {
			expectOnly(output, {
				type: 'material',
				name: 'Gasket DN50',
				code: 'GSK-50',
				is_real: true,
				units: 'unit',
				parent_id: 1,
				observations: 'Rubber',
				mean_price: { value: 4.5 },
				default_sell_price: 7,
			});
			expect(await stored(control, 'legacyMaterials', String(output[0].id))).toMatchObject({
				code: 'GSK-50',
				is_real: true,
			});
		},
	},
	{
		resource: 'materialType',
		operation: 'create',
		parameters: { name: 'Pumps', parent_id: '1', additionalFields: { code: 'MT-PUMPS' } },
		request: {
			method: 'POST',
			path: '/stocks/material-types',
			body: { name: 'Pumps', parent_id: '1', code: 'MT-PUMPS' },
		},
		check: (output) =>
			expect(output[0]).toMatchObject({
				type: 'stock-material-type',
				name: 'Pumps',
				parent_id: '1',
			}),
	},
	{
		resource: 'stockTransaction',
		operation: 'createBatch',
		parameters: {
			warehouseId: '1',
			action: 'WAREHOUSE_ADD',
			transactions: { items: [{ material_id: 2, quantity: 5, cost_price: 3 }] },
		},
		request: {
			method: 'POST',
			path: '/stocks/warehouses/1/stock-transactions',
			body: {
				action: 'WAREHOUSE_ADD',
				transactions: [{ material_id: 2, quantity: 5, cost_price: 3 }],
			},
		},
		check: async (output) => {
			expect(output[0]).toMatchObject({ type: 'stock-transaction-batch', action: 'WAREHOUSE_ADD' });
			expect(await control('GET', '/state/stock/1:2')).toMatchObject({ quantity: 105 });
		},
	},
	{
		resource: 'stockTransaction',
		operation: 'transfer',
		parameters: { warehouse_from_id: 1, warehouse_to_id: 2, material_id: 3, quantity: 10 },
		request: {
			method: 'POST',
			path: '/stocks/stock-transactions/transfer',
			body: { warehouse_from_id: 1, warehouse_to_id: 2, material_id: 3, quantity: 10 },
		},
		check: async (output) => {
			expect(output[0]).toMatchObject({
				type: 'stock-transactions-batch',
				action: 'TRANSFER_STOCK',
			});
			expect(await control('GET', '/state/stock/1:3')).toMatchObject({ quantity: 90 });
			expect(await control('GET', '/state/stock/2:3')).toMatchObject({ quantity: 110 });
		},
	},
	{
		resource: 'stockMovement',
		...getMany('/stock-movements', 4),
		check: (output) => expect(output.map((o) => o.type)).toEqual(Array(4).fill('stock-movement')),
	},
];
