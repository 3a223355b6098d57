import type { EventName } from '../nodes/MaintenanceManagementTrigger/events';
import type { Resource, Store } from './data';
import type { Answer } from './answers';
import { ApiError, asObject, collectionAnswer, notFound, Problems, readPaging } from './answers';
import { applyFilters } from './filters';

export interface Context {
	store: Store;
	params: Record<string, string>;
	query: URLSearchParams;
	body: unknown;
	url: URL;
	emit: (event: EventName, resource: Resource) => void;
	/** The page-size cap of this collection, when one is set (see SandboxOptions.pageCaps). */
	pageCap?: number;
	/** What spec/openapi.yaml finds wrong with the body, as the `properties` of a 400 answer. */
	bodyProblems: () => Record<string, string[]>;
}

type Handler = (context: Context) => Answer;

const ok = (body: unknown, status = 200): Answer => ({ status, body });
const expandedOf = (query: URLSearchParams): string[] =>
	(query.get('expanded') ?? '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
const find = (items: Map<string, Resource>, id: string): Resource => {
	const found = items.get(id);
	if (!found) throw notFound();
	return found;
};
const ref = (resource: Resource) => ({ type: resource.type, id: resource.id });
const bodyOf = (context: Context): Record<string, unknown> => {
	if (!context.body || typeof context.body !== 'object' || Array.isArray(context.body)) {
		throw new ApiError(400, 'Property validation error.', {
			body: ['The body must be a JSON object.'],
		});
	}
	return context.body as Record<string, unknown>;
};
/**
 * The body, and the problems spec/openapi.yaml finds in it (fields, types, enums, the if/then rules):
 * a handler adds what depends on the stored state, then throws them all as one 400.
 */
const checked = (context: Context): { body: Record<string, unknown>; problems: Problems } => {
	const body = bodyOf(context);
	const problems = new Problems();
	for (const [field, messages] of Object.entries(context.bodyProblems()))
		for (const message of messages) problems.add(field, message);
	return { body, problems };
};
/** A public view of a record: internal link fields (ids lists kept for relations) are not attributes. */
const INTERNAL = new Set([
	'contact_ids',
	'operator_ids',
	'participant_ids',
	'assets',
	'local_id_list',
]);
const view = (resource: Resource, extra?: Record<string, unknown>): Resource => {
	const attributes: Record<string, unknown> = {};
	for (const key in resource.attributes)
		if (!INTERNAL.has(key)) attributes[key] = resource.attributes[key];
	return { id: resource.id, type: resource.type, attributes: Object.assign(attributes, extra) };
};

/** Adds relationships for the expanded relations and collects the included resources. */
function expand(
	resources: Resource[],
	expanded: string[],
	relations: Record<string, (resource: Resource) => Resource[] | Resource | null>,
): { data: Resource[]; included: Resource[] } {
	const included = new Map<string, Resource>();
	const wanted = expanded.filter((name) => name in relations);
	if (!wanted.length) return { data: resources.map((r) => view(r)), included: [] };
	const data = resources.map((resource) => {
		const out = view(resource);
		out.relationships = {};
		for (const name of wanted) {
			const related = relations[name](resource);
			const list = Array.isArray(related) ? related : related ? [related] : [];
			for (const r of list) included.set(`${r.type}:${r.id}`, view(r));
			out.relationships[name] = {
				data: Array.isArray(related) ? related.map(ref) : related ? ref(related) : null,
			};
		}
		return out;
	});
	return { data, included: [...included.values()] };
}

const list =
	(
		pick: (store: Store) => Resource[],
		options: {
			plain?: readonly string[];
			where?: (r: Resource) => boolean;
			relations?: (store: Store) => Record<string, (r: Resource) => Resource[] | Resource | null>;
			extra?: (
				store: Store,
				query: URLSearchParams,
			) => ((r: Resource) => Record<string, unknown>) | undefined;
		} = {},
	): Handler =>
	({ store, query, url, pageCap }) => {
		const paging = readPaging(query, pageCap);
		let items = pick(store);
		if (options.where) items = items.filter(options.where);
		items = applyFilters(items, query, options.plain);
		const answer = collectionAnswer(items, paging, url);
		const page = answer.data as Resource[];
		const extra = options.extra?.(store, query);
		const { data, included } = expand(page, expandedOf(query), options.relations?.(store) ?? {});
		answer.data = extra
			? data.map((r, i) => ({ ...r, attributes: { ...r.attributes, ...extra(page[i]) } }))
			: data;
		answer.included = included;
		return ok(answer);
	};

// ---------- locations ----------

const assetsCount = (store: Store): ((r: Resource) => Record<string, unknown>) => {
	const children = new Map<string, Resource[]>();
	for (const l of store.locations.items) {
		const parent = String(l.attributes.parent_id ?? '');
		if (parent) (children.get(parent) ?? children.set(parent, []).get(parent)!).push(l);
	}
	const count = (r: Resource): number =>
		Number(r.attributes.assets ?? 0) +
		(children.get(r.id) ?? []).reduce((sum, c) => sum + count(c), 0);
	return (r) => ({ assets_count: count(r) });
};
const withAssets = (store: Store, query: URLSearchParams) =>
	query.get('with_assets_count') === 'true' ? assetsCount(store) : undefined;

const updateLocations: Handler = (context) => {
	const { store } = context;
	const { body, problems } = checked(context);
	const entries: unknown[] = Array.isArray(body.locations) ? body.locations : [];
	entries.forEach((entry, index) => {
		const element = asObject(entry);
		const found = Number.isInteger(element.id)
			? store.locations.byId.get(String(element.id))
			: undefined;
		if (Number.isInteger(element.id) && !found) {
			problems.add(`locations[${index}].id`, 'No location has this id.');
		}
		// The spec's answer holds Location and location-folder resources only: no building is updated.
		if (found?.type === 'building') {
			problems.add(
				`locations[${index}].id`,
				'This is a building: only locations and location folders are updated here.',
			);
		}
		if (typeof element.code === 'string' && Number.isInteger(element.id)) {
			const target = store.locations.byId.get(String(element.id));
			const level = target?.attributes.parent_id ?? null;
			const clash = store.locations.items.find(
				(l) =>
					l.id !== String(element.id) &&
					(l.attributes.parent_id ?? null) === level &&
					l.attributes.code === element.code,
			);
			if (clash)
				problems.add(`locations[${index}].code`, 'This code is already used at this level.');
		}
	});
	problems.throwIfAny();
	const updated = entries.map((entry) => {
		const { id, ...changes } = asObject(entry);
		const location = store.locations.byId.get(String(id))!;
		Object.assign(location.attributes, changes, {
			date_updated: new Date().toISOString().replace('T', ' ').slice(0, 19),
		});
		for (const work of store.works.items) {
			if ((work.attributes.local_id as number[]).includes(Number(id)))
				context.emit('WORK_LOCATIONS_UPDATED', work);
		}
		return view(location);
	});
	return ok({ data: updated, included: [], meta: {} });
};

// ---------- works ----------

const createWork: Handler = (context) => {
	const { store } = context;
	const { body, problems } = checked(context);
	const type = body.type;
	const recurrence = asObject(body.recurrence);
	if (Number.isInteger(body.client_id) && !store.clients.byId.has(String(body.client_id)))
		problems.add('client_id', 'No client has this id.');
	(Array.isArray(body.local_id) ? body.local_id : []).forEach((id, index) => {
		if (Number.isInteger(id) && !store.locations.byId.has(String(id)))
			problems.add(`local_id[${index}]`, 'No location has this id.');
	});
	problems.throwIfAny();
	const id = store.works.peekId();
	const work = store.works.add({
		work_id: id,
		calendar_id: body.calendar_id ?? null,
		description: body.description ?? null,
		type,
		any_responsible: body.any_responsible ?? true,
		auto_close: body.auto_close ?? false,
		auto_pilot: body.auto_pilot ?? false,
		client_id: body.client_id,
		cost_center_id: body.cost_center_id ?? null,
		entity_id: 1,
		failure_id: body.failure_id ?? null,
		gatekeeper_id: body.gatekeeper_id ?? null,
		is_protected: body.is_protected ?? false,
		name: body.name,
		network_work_id: 0,
		periodicity: recurrence.FREQ
			? `Every ${recurrence.INTERVAL ?? 1} ${String(recurrence.FREQ).toLowerCase()}`
			: null,
		recurrence: body.recurrence ?? null,
		supplier_id: body.supplier_id ?? null,
		work_type_id: body.work_type_id,
		local_id: body.local_id,
	});
	return ok(
		{
			data: [view(work)],
			meta: { pagination: { total: 1, count: 1, per_page: 1, current_page: 1, total_pages: 1 } },
			links: {},
		},
		201,
	);
};

// ---------- clients, contacts, suppliers ----------

const syncContacts: Handler = (context) => {
	const { store, params } = context;
	const client = find(store.clients.byId, params.client);
	const { body, problems } = checked(context);
	(Array.isArray(body.contact_ids) ? body.contact_ids : []).forEach((id, index) => {
		if (Number.isInteger(id) && !store.contacts.byId.has(String(id)))
			problems.add(`contact_ids[${index}]`, 'No contact has this id.');
	});
	problems.throwIfAny();
	client.attributes.contact_ids = [...(body.contact_ids as number[])];
	const contacts = (body.contact_ids as number[]).map((id) => store.contacts.byId.get(String(id))!);
	return ok({
		data: { ...view(client), relationships: { contacts: { data: contacts.map(ref) } } },
		included: contacts.map((c) => view(c)),
	});
};

const checkContact: Handler = (context) => {
	const { store } = context;
	const { body, problems } = checked(context);
	problems.throwIfAny();
	// Assumption: an existing contact is found by email (case-insensitive).
	const email = typeof body.email === 'string' ? body.email.toLowerCase() : undefined;
	const existing = email
		? store.contacts.items.find((c) => String(c.attributes.email).toLowerCase() === email)
		: undefined;
	if (existing) return ok({ data: view(existing), meta: { custom_fields: null } });
	const id = store.contacts.peekId();
	const contact = store.contacts.add({
		contact_id: id,
		entity_id: 1,
		cellphone: body.cellphone ?? '',
		language: body.language ?? 'en',
		email: body.email ?? null,
		full_name: body.name ?? '',
		phone: body.phone ?? '',
		is_direct_user: body.direct_permissions !== undefined,
		has_access: body.direct_permissions !== undefined,
	});
	return ok({ data: view(contact), meta: { custom_fields: null } }, 201);
};

const supplierRelations = (store: Store) => ({
	contacts: (r: Resource) =>
		((r.attributes.contact_ids as number[]) ?? [])
			.map((id) => store.contacts.byId.get(String(id)))
			.filter(Boolean) as Resource[],
	files: () => [],
	handshake: () => null,
	categories: () => [],
	services: () => [],
	invite: () => null,
});

const updateSupplier: Handler = (context) => {
	const { store, params } = context;
	const supplier = find(store.suppliers.byId, params.supplier);
	const { body, problems } = checked(context);
	if (
		typeof body.code === 'string' &&
		store.suppliers.items.some((s) => s.id !== supplier.id && s.attributes.code === body.code)
	) {
		problems.add('code', 'This code is already used in the entity.');
	}
	(Array.isArray(body.contacts) ? body.contacts : []).forEach((id, index) => {
		if (Number.isInteger(id) && !store.contacts.byId.has(String(id)))
			problems.add(`contacts[${index}]`, 'No contact has this id.');
	});
	problems.throwIfAny();
	const { contacts, post_code, add_to_market, ...rest } = body;
	Object.assign(supplier.attributes, rest);
	if (post_code !== undefined) supplier.attributes.postal_code = post_code;
	if (contacts !== undefined) supplier.attributes.contact_ids = contacts ?? [];
	if (add_to_market === true && !supplier.attributes.market_supplier_id)
		supplier.attributes.market_supplier_id = `00000000-0000-4000-8000-${supplier.id.padStart(12, '0')}`;
	return ok({ data: view(supplier) });
};

// ---------- sales ----------

const updateBuyOrder: Handler = (context) => {
	const { store, params } = context;
	const order = find(store.buyOrders.byId, params['buy-order-id']);
	const { body, problems } = checked(context);
	if (body.supplier_id === null && order.attributes.state !== 'SAVED_AS_DRAFT')
		problems.add(
			'supplier_id',
			'The supplier can be removed only while the order is SAVED_AS_DRAFT.',
		);
	if (Number.isInteger(body.supplier_id) && !store.suppliers.byId.has(String(body.supplier_id)))
		problems.add('supplier_id', 'No supplier has this id.');
	problems.throwIfAny();
	Object.assign(order.attributes, body, {
		date_updated: new Date().toISOString().replace('T', ' ').slice(0, 19),
	});
	context.emit('BUY_ORDER_UPDATED', order);
	return ok({ data: view(order), meta: { custom_fields: null, cost_centers: [] } });
};

const totals = (quantity: number, unitPrice: number, discount: number, vat: number) => {
	const base = quantity * unitPrice;
	const discountTotal = base * (discount / 100);
	const total = base - discountTotal;
	return { base_total: base, discount_total: discountTotal, total, vat_total: total * (vat / 100) };
};

const createSellOrderLine: Handler = (context) => {
	const { store, params, query } = context;
	if (!store.sellOrders.has(Number(params.sellOrderId))) throw notFound();
	const { body, problems } = checked(context);
	if (
		Number.isInteger(body.material_id) &&
		!store.stockMaterials.byId.has(String(body.material_id))
	)
		problems.add('material_id', 'No material has this id.');
	if (
		Number.isInteger(body.other_cost_id) &&
		!store.otherCosts.byId.has(String(body.other_cost_id))
	)
		problems.add('other_cost_id', 'No other cost has this id.');
	problems.throwIfAny();
	const discount = Number(body.discount ?? 0);
	const vat = Number(body.vat ?? 0);
	const line = store.sellOrderLines.add({
		cost_center_id: 1,
		description: body.description ?? null,
		type: body.type,
		material_id: body.material_id ?? null,
		other_cost_id: body.other_cost_id ?? null,
		observations: body.observations ?? null,
		quantity: body.quantity,
		unit: body.unit ?? null,
		unit_price: body.unit_price,
		discount,
		vat,
		...totals(Number(body.quantity), Number(body.unit_price), discount, vat),
		sell_order_id: Number(params.sellOrderId),
	});
	const { data, included } = expand([line], expandedOf(query), {
		cost_center: (r) => store.costCenters.byId.get(String(r.attributes.cost_center_id)) ?? null,
		material: (r) =>
			r.attributes.material_id
				? (store.stockMaterials.byId.get(String(r.attributes.material_id)) ?? null)
				: null,
		other_cost: (r) =>
			r.attributes.other_cost_id
				? (store.otherCosts.byId.get(String(r.attributes.other_cost_id)) ?? null)
				: null,
	});
	return ok({ data: data[0], included }, 201);
};

const createQuoteLine: Handler = (context) => {
	const { store, params } = context;
	if (!store.quotes.has(Number(params.id))) throw notFound();
	const { body, problems } = checked(context);
	problems.throwIfAny();
	const discount = Number(body.discount ?? 0);
	const vat = Number(body.vat ?? 0);
	const id = store.quoteLines.peekId();
	const line = store.quoteLines.add({
		material_id: body.material_id ?? null,
		description: body.description ?? null,
		type: body.type,
		discount,
		vat,
		quantity: body.quantity ?? 1,
		unit_price: body.unit_price ?? 0,
		...totals(Number(body.quantity ?? 1), Number(body.unit_price ?? 0), discount, vat),
		observations: body.observations ?? null,
		other_cost_id: body.other_cost_id ?? null,
		quote_line_uuid: `00000000-0000-4000-9000-${String(id).padStart(12, '0')}`,
		received_quote_request_line_id: body.received_quote_request_line_id ?? null,
		received_quote_request_line_uuid: body.received_quote_request_line_uuid ?? null,
		unit: body.unit ?? null,
	});
	return ok({ data: view(line) }, 201);
};

// ---------- stock ----------

const uniqueCode = (
	items: Resource[],
	code: unknown,
	exceptId: string | undefined,
	problems: Problems,
	field = 'code',
) => {
	if (
		typeof code === 'string' &&
		items.some((r) => r.id !== exceptId && r.attributes.code === code)
	)
		problems.add(field, 'This code is already used.');
};

const saveMaterial = (context: Context, existing?: Resource): Answer => {
	const { store, query } = context;
	const { body, problems } = checked(context);
	if (
		Number.isInteger(body.material_type_id) &&
		!store.materialTypes.byId.has(String(body.material_type_id))
	)
		problems.add('material_type_id', 'No material type has this id.');
	uniqueCode(store.stockMaterials.items, body.code, existing?.id, problems);
	problems.throwIfAny();
	const now = new Date().toISOString();
	const attributes = { ...body, material_type_id: String(body.material_type_id) };
	let material = existing;
	if (material) Object.assign(material.attributes, attributes, { updated_at: now });
	else {
		const id = String(store.stockMaterials.peekId());
		material = store.stockMaterials.add({
			material_id: id,
			purchase_consumption_type: 'INHERIT',
			observations: null,
			description: '',
			sku: null,
			ean_upc: null,
			sale_price: 0,
			sale_vat: 0,
			created_at: now,
			updated_at: now,
			warehouses_minimum_stocks: [],
			...attributes,
		});
	}
	const { data, included } = expand([material], expandedOf(query), {
		material_type: (r) =>
			store.materialTypes.byId.get(String(r.attributes.material_type_id)) ?? null,
		warehouse: () => [],
		supplier_custom_price: () => [],
	});
	return ok({ data: data[0], included }, existing ? 200 : 201);
};

const createLegacyMaterial: Handler = (context) => {
	const { store } = context;
	const { body, problems } = checked(context);
	uniqueCode(store.legacyMaterials.items, body.code, undefined, problems);
	problems.throwIfAny();
	const id = store.legacyMaterials.peekId();
	const material = store.legacyMaterials.add({
		material_id: id,
		parent_id: body.parent_id ?? 0,
		name: body.name,
		code: body.code,
		full_code: body.code,
		observations: body.observation ?? null,
		is_real: body._type === 'MATERIAL',
		units: body.units ?? '',
		mean_price: { value: body.mean_price ?? 0 },
		has_children: false,
		default_sell_price: body.default_sell_price ?? 0,
		default_sell_vat: body.default_sell_vat ?? 0,
		is_from_network: false,
		purchase_consumption_type: 'INHERIT',
	});
	return ok({ data: view(material) }, 201);
};

const createMaterialType: Handler = (context) => {
	const { store } = context;
	const { body, problems } = checked(context);
	if (typeof body.parent_id === 'string' && !store.materialTypes.byId.has(body.parent_id))
		problems.add('parent_id', 'No material type folder has this id.');
	uniqueCode(store.materialTypes.items, body.code, undefined, problems);
	problems.throwIfAny();
	const id = String(store.materialTypes.peekId());
	const now = new Date().toISOString();
	const type = store.materialTypes.add({
		material_type_id: id,
		parent_id: body.parent_id,
		name: body.name,
		code: body.code ?? `MT-${id}`,
		created_at: now,
		updated_at: now,
		deleted_at: null,
	});
	return ok({ data: view(type), included: [] }, 201);
};

const stockKey = (warehouse: number, material: number) => `${warehouse}:${material}`;

/**
 * The transactions of a stock batch in `warehouse`, checked: each material known, and with
 * WAREHOUSE_SUBTRACT enough stock of each for the total it takes. Throws one 400 with every problem.
 */
const checkedBatch = (context: Context, warehouse: number) => {
	const { store } = context;
	const { body, problems } = checked(context);
	const transactions = (Array.isArray(body.transactions) ? body.transactions : []).map(asObject);
	const change = new Map<number, number>();
	transactions.forEach((t, index) => {
		if (Number.isInteger(t.material_id) && !store.stockMaterials.byId.has(String(t.material_id)))
			problems.add(`transactions[${index}].material_id`, 'No material has this id.');
		if (Number.isInteger(t.material_id) && Number.isInteger(t.quantity))
			change.set(
				t.material_id as number,
				(change.get(t.material_id as number) ?? 0) + (t.quantity as number),
			);
	});
	const sign = body.action === 'WAREHOUSE_SUBTRACT' ? -1 : 1;
	for (const [material, quantity] of change) {
		if (sign < 0 && (store.stock.get(stockKey(warehouse, material)) ?? 0) < quantity)
			problems.add(
				'transactions',
				`Not enough stock of material ${material} in warehouse ${warehouse}.`,
			);
	}
	problems.throwIfAny();
	return { body, transactions, sign };
};

const stockBatch: Handler = (context) => {
	const { store, params } = context;
	const warehouse = Number(params.warehouseId);
	if (!store.warehouses.has(warehouse)) throw notFound();
	const { body, transactions, sign } = checkedBatch(context, warehouse);
	const now = new Date().toISOString();
	const batchId = `5b7c0000-0000-4000-8000-${String(store.batches.peekId()).padStart(12, '0')}`;
	const batch = store.batches.add({
		stock_transaction_batch_id: batchId,
		operator_id: 1,
		action: body.action,
		observations: body.observations ?? null,
		source_id: warehouse,
		source_type: 'MANUAL',
		date_created: now,
		date_updated: now,
	});
	const created = transactions.map((t) => {
		const key = stockKey(warehouse, t.material_id as number);
		store.stock.set(key, (store.stock.get(key) ?? 0) + sign * (t.quantity as number));
		return store.transactions.add({
			warehouse_id: warehouse,
			material_id: t.material_id,
			quantity: t.quantity,
			cost_price: t.cost_price,
			operator_id: 1,
			action: sign > 0 ? 'ADD' : 'SUBTRACT',
			observations: t.observations ?? null,
			created_at: now,
			stock_transaction_batch_id: Number(batch.id),
		});
	});
	const data = {
		...view(batch),
		id: batchId,
		relationships: { transactions: { data: created.map(ref) } },
	};
	return ok(
		{
			data: [data],
			included: created.map((t) => view(t)),
			meta: { pagination: { total: 1, count: 1, per_page: 1, current_page: 1, total_pages: 1 } },
			links: {},
		},
		201,
	);
};

const transfer: Handler = (context) => {
	const { store } = context;
	const { body, problems } = checked(context);
	const from = body.warehouse_from_id as number;
	const to = body.warehouse_to_id as number;
	if (Number.isInteger(from) && from === to)
		problems.add('warehouse_to_id', 'The destination warehouse must differ from the origin.');
	for (const [field, id] of [
		['warehouse_from_id', from],
		['warehouse_to_id', to],
	] as const) {
		if (Number.isInteger(id) && !store.warehouses.has(id))
			problems.add(field, 'No warehouse has this id.');
	}
	if (
		Number.isInteger(body.material_id) &&
		!store.stockMaterials.byId.has(String(body.material_id))
	)
		problems.add('material_id', 'No material has this id.');
	if (
		!problems.has('quantity') &&
		Number.isInteger(from) &&
		(store.stock.get(stockKey(from, body.material_id as number)) ?? 0) < (body.quantity as number)
	) {
		problems.add('quantity', 'Not enough stock in the origin warehouse.');
	}
	problems.throwIfAny();
	const material = body.material_id as number;
	const quantity = body.quantity as number;
	store.stock.set(
		stockKey(from, material),
		(store.stock.get(stockKey(from, material)) ?? 0) - quantity,
	);
	store.stock.set(
		stockKey(to, material),
		(store.stock.get(stockKey(to, material)) ?? 0) + quantity,
	);
	const batchId = `7e4f0000-0000-4000-8000-${String(store.batches.peekId()).padStart(12, '0')}`;
	const batch = store.batches.add(
		{
			stock_transaction_batch_id: batchId,
			operator_id: 1,
			action: 'TRANSFER_STOCK',
			observations: body.observations ?? null,
			source_id: from,
			// The transfer result's own values, as the spec spells them (not the batch's MANUAL).
			source_type: 'MANUEL',
		},
		'stock-transactions-batch',
	);
	return ok({ data: { ...view(batch), id: batchId } }, 201);
};

// ---------- the route table: one route per operation of the spec ----------

const failureRelations = (store: Store) => ({
	assignees: (r: Resource) =>
		((r.attributes.operator_ids as number[]) ?? []).map((id) => ({
			id: `${r.id}-${id}`,
			type: 'failure_assignee',
			attributes: { operator_id: id, failure_id: Number(r.id) },
		})),
	eventsPlanned: () => [],
	location: (r: Resource) => store.locations.byId.get(String(r.attributes.local_id)) ?? null,
});
const scheduledRelations = (store: Store) => {
	const empty = () => [];
	const none = () => null;
	return {
		auditStats: none,
		buyOrders: empty,
		client: (r: Resource) => store.clients.byId.get(String(r.attributes.client_id)) ?? null,
		completedBy: none,
		pausedBy: none,
		startedBy: none,
		realStartDateEditedBy: none,
		completeDateEditedBy: none,
		elementRegistries: empty,
		entity: none,
		events: empty,
		eventsPlanned: empty,
		files: empty,
		gatekeeperAnswerRegistries: empty,
		networkStatus: empty,
		otherCosts: empty,
		participants: (r: Resource) =>
			((r.attributes.participant_ids as number[]) ?? [])
				.map((id) => store.operators.byId.get(String(id))!)
				.filter(Boolean),
		reminderRules: empty,
		reminders: empty,
		requests: empty,
		scheduledWorkSlas: empty,
		stock: empty,
		stockTasks: empty,
		survey: none,
		surveyFeedbacks: empty,
		work: (r: Resource) => store.works.byId.get(String(r.attributes.work_id)) ?? null,
		failureScheduleMapping: none,
		pause_reason: none,
		assignees: empty,
	};
};
const OPEN = new Set(['WAITING_APPROVAL', 'WAITING_RESOLUTION', 'IN_RESOLUTION', 'PAUSED']);

export interface Route {
	method: string;
	pattern: string;
	write: boolean;
	order: boolean;
	handler: Handler;
}

const route = (method: string, pattern: string, handler: Handler): Route => ({
	method,
	pattern,
	write: method !== 'GET',
	order: pattern.startsWith('/sales/'),
	handler,
});

/** A GET route that lists a collection (see list). */
const listRoute = (pattern: string, ...args: Parameters<typeof list>): Route =>
	route('GET', pattern, list(...args));

export const ROUTES: Route[] = [
	listRoute('/locations', (s) => s.locations.items, { extra: withAssets }),
	route('GET', '/locations/{id}', ({ store, params, query }) => {
		const location = find(store.locations.byId, params.id);
		const extra = withAssets(store, query);
		return ok({ data: view(location, extra?.(location)) });
	}),
	route('PATCH', '/locations', updateLocations),
	listRoute('/failures', (s) => s.failures.items, { relations: failureRelations }),
	listRoute('/failures/open', (s) => s.failures.items, {
		where: (r) => OPEN.has(r.attributes.status as string),
		plain: [
			'approved_date',
			'completed_date',
			'failure_id',
			'last_status_change_date',
			'local_id',
			'problem_id',
			'start_date',
			'status',
		],
		relations: failureRelations,
	}),
	route('POST', '/works', createWork),
	listRoute('/works/scheduled', (s) => s.scheduledWorks.items, { relations: scheduledRelations }),
	route('POST', '/clients/{client}/contacts', syncContacts),
	route('POST', '/contacts', checkContact),
	listRoute('/suppliers', (s) => s.suppliers.items, { relations: supplierRelations }),
	route('PATCH', '/suppliers/{supplier}', updateSupplier),
	listRoute('/sales/buy-orders', (s) => s.buyOrders.items),
	route('PATCH', '/sales/buy-orders/{buy-order-id}', updateBuyOrder),
	route('POST', '/sales/sell-orders/{sellOrderId}/lines', createSellOrderLine),
	route('POST', '/sales/quotes/{id}/lines', createQuoteLine),
	route('POST', '/materials', createLegacyMaterial),
	route('POST', '/stocks/materials', (context) => saveMaterial(context)),
	route('PATCH', '/stocks/materials/{materialId}', (context) =>
		saveMaterial(context, find(context.store.stockMaterials.byId, context.params.materialId)),
	),
	route('POST', '/stocks/material-types', createMaterialType),
	route('POST', '/stocks/warehouses/{warehouseId}/stock-transactions', stockBatch),
	route('POST', '/stocks/stock-transactions/transfer', transfer),
	listRoute('/stock-movements', (s) => s.stockMovements.items),
];

/** The collection endpoints, by path without the leading slash: the keys of page-size caps. */
export const COLLECTIONS = ROUTES.filter((r) => r.method === 'GET' && !r.pattern.includes('{')).map(
	(r) => r.pattern.slice(1),
);

const compiled = ROUTES.map((r) => ({
	...r,
	regex: new RegExp(
		`^${r.pattern.replace(/\{([^}]+)\}/g, '(?<$1>[^/]+)').replace(/\(\?<([^>]+)>/g, (_m, name: string) => `(?<${name.replace(/-/g, '_')}>`)}$`,
	),
	names: [...r.pattern.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
}));

/** Finds the route of a method and path; `methodMismatch` when the path exists under another method. */
export function matchRoute(
	method: string,
	path: string,
): { route: Route; params: Record<string, string> } | 'methodMismatch' | undefined {
	let pathFound = false;
	for (const candidate of compiled) {
		const match = candidate.regex.exec(path);
		if (!match) continue;
		pathFound = true;
		if (candidate.method !== method) continue;
		const params: Record<string, string> = {};
		for (const name of candidate.names)
			params[name] = decodeURIComponent(match.groups![name.replace(/-/g, '_')]);
		return { route: candidate, params };
	}
	return pathFound ? 'methodMismatch' : undefined;
}
