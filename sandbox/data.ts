/**
 * Deterministic demo data for the sandbox. A seeded generator makes every run alike, and the sizes are
 * options, so benchmarks can ask for 100,000 work orders and get them in well under a second.
 */

import { enumValues } from './contract';

export type Attributes = Record<string, unknown>;

export interface Resource {
	id: string;
	type: string;
	attributes: Attributes;
	relationships?: Record<
		string,
		{ data: { type: string; id: string } | Array<{ type: string; id: string }> | null }
	>;
	meta?: Record<string, unknown>;
}

export const SEED_KEYS = [
	'locations',
	'failures',
	'works',
	'scheduledWorks',
	'buyOrders',
	'suppliers',
	'clients',
	'contacts',
	'materials',
	'legacyMaterials',
	'materialTypes',
	'warehouses',
	'stockMovements',
	'sellOrders',
	'quotes',
] as const;

export type SeedSizes = Record<(typeof SEED_KEYS)[number], number>;

export const DEFAULT_SEED: SeedSizes = {
	locations: 36,
	failures: 48,
	works: 24,
	scheduledWorks: 40,
	buyOrders: 30,
	suppliers: 24,
	clients: 12,
	contacts: 30,
	materials: 30,
	legacyMaterials: 20,
	materialTypes: 8,
	warehouses: 4,
	stockMovements: 40,
	sellOrders: 10,
	quotes: 10,
};

/** mulberry32: a small, fast, seeded pseudo-random generator. */
export function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** An ordered collection with lookup by id. */
export class Collection {
	readonly items: Resource[] = [];

	readonly byId = new Map<string, Resource>();

	private nextId = 1;

	constructor(readonly type: string) {}

	add(attributes: Attributes, type = this.type, id = String(this.nextId)): Resource {
		this.nextId = Math.max(this.nextId, Number(id) + 1 || this.nextId + 1);
		const resource: Resource = { id, type, attributes };
		this.items.push(resource);
		this.byId.set(id, resource);
		return resource;
	}

	peekId(): number {
		return this.nextId;
	}
}

const FAILURE_STATUSES = [
	'WAITING_APPROVAL',
	'WAITING_RESOLUTION',
	'IN_RESOLUTION',
	'PAUSED',
	'COMPLETED',
	'ARCHIVED',
];
const SCHEDULED_STATES = [
	'SCHEDULED',
	'RUNNING',
	'PAUSED',
	'COMPLETED',
	'CANCELED',
	'ARCHIVED',
	'COMPLETED_CANCELED',
];
const BUY_ORDER_STATES = [
	'SAVED_AS_DRAFT',
	'CREATED',
	'RECEIVED_PARTIALLY',
	'RECEIVED',
	'CONFIRMED',
];
const CITIES = ['Lisbon', 'Porto', 'Madrid', 'Lyon', 'Turin', 'Ghent'];
/** Which collection a generated UUID belongs to: its first group, so UUIDs never repeat across collections. */
const UUID_KINDS = { client: 0xc1, operator: 0x0e, location: 0x10, failure: 0xf0, supplier: 0x50 };
/** A deterministic UUID in version 4 form (version nibble 4, variant 8): kind, then the record's number. */
const uuid = (n: number, kind: keyof typeof UUID_KINDS): string =>
	`${UUID_KINDS[kind].toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
/**
 * A memo of `text(n)`: the demo data asks for the same few thousand dates over and over, and Node takes
 * microseconds to write each one (seeding 4,500 work orders wrote some 30,000).
 */
const remembered = (text: (n: number) => string): ((n: number) => string) => {
	const known = new Map<number, string>();
	return (n) => {
		let found = known.get(n);
		if (found === undefined) known.set(n, (found = text(n)));
		return found;
	};
};
const START = Date.UTC(2026, 0, 1);
/** The ISO date-time `n` steps of 7 hours after the start of 2026. */
const day = remembered((n) => new Date(START + n * 3_600_000 * 7).toISOString());
/** `day(n)` as SQL writes it: `2026-01-01 07:00:00`. */
const sqlDate = remembered((n) => day(n).replace('T', ' ').slice(0, 19));

export interface Store {
	locations: Collection;
	failures: Collection;
	works: Collection;
	scheduledWorks: Collection;
	buyOrders: Collection;
	suppliers: Collection;
	clients: Collection;
	contacts: Collection;
	stockMaterials: Collection;
	legacyMaterials: Collection;
	materialTypes: Collection;
	stockMovements: Collection;
	sellOrderLines: Collection;
	quoteLines: Collection;
	batches: Collection;
	transactions: Collection;
	operators: Collection;
	costCenters: Collection;
	otherCosts: Collection;
	files: Collection;
	warehouses: Set<number>;
	sellOrders: Set<number>;
	quotes: Set<number>;
	/** Stock per `warehouse:material`. */
	stock: Map<string, number>;
}

/** The entity every seeded record belongs to. */
const ENTITY_ID = 1;

/** What each seeding step shares: the store it fills, the sizes, and the seeded generator. */
interface Seeding {
	store: Store;
	sizes: SeedSizes;
	pick: <T>(list: readonly T[]) => T;
	int: (min: number, max: number) => number;
}

/** An empty store: every collection, set and map with nothing in it. */
const emptyStore = (): Store => ({
	locations: new Collection('location'),
	failures: new Collection('failure'),
	works: new Collection('work'),
	scheduledWorks: new Collection('scheduled_work'),
	buyOrders: new Collection('buy_order'),
	suppliers: new Collection('supplier'),
	clients: new Collection('client'),
	contacts: new Collection('contact'),
	stockMaterials: new Collection('stock-material'),
	legacyMaterials: new Collection('material'),
	materialTypes: new Collection('stock-material-type'),
	stockMovements: new Collection('stock-movement'),
	sellOrderLines: new Collection('sell_order_line'),
	quoteLines: new Collection('quote_line'),
	batches: new Collection('stock-transaction-batch'),
	transactions: new Collection('stock-transaction'),
	operators: new Collection('operator'),
	costCenters: new Collection('cost_center'),
	otherCosts: new Collection('other-cost'),
	files: new Collection('file'),
	warehouses: new Set(),
	sellOrders: new Set(),
	quotes: new Set(),
	stock: new Map(),
});

function seedClients({ store, sizes, pick }: Seeding): void {
	for (let i = 1; i <= Math.max(1, sizes.clients); i++) {
		store.clients.add({
			client_id: i,
			client_uuid: uuid(i, 'client'),
			name: `Client ${i}`,
			code: `CLI-${i}`,
			nif: `PT5000${String(i).padStart(5, '0')}`,
			postal_code: `10${String(i).padStart(2, '0')}-001`,
			city: pick(CITIES),
			address: `${i} Market Street`,
			country: 'PT',
			observations: null,
			created_at: day(i),
			updated_at: day(i + 1),
			has_handshake: false,
			my_company: i === 1,
			contact_ids: [],
		});
	}
}

function seedOperators({ store, pick }: Seeding): void {
	// Attribute values the spec enumerates come from spec/openapi.yaml.
	const accounts = enumValues('Operator', 'attributes', 'account');
	const statuses = enumValues('Operator', 'attributes', 'status');
	for (let i = 1; i <= 10; i++) {
		store.operators.add({
			operator_id: i,
			operator_uuid: uuid(i, 'operator'),
			full_name: `Operator ${i}`,
			email: `operator${i}@example.com`,
			phone: null,
			cellphone: null,
			account: pick(accounts),
			language: 'en',
			cost_per_hour: 20 + i,
			warehouse_id: 1,
			entity_id: ENTITY_ID,
			timezone: 'Europe/Lisbon',
			is_from_network: false,
			created_at: day(i),
			phone_country_code: 'PT',
			is_first_web_login: false,
			status: pick(statuses),
		});
	}
}

function seedCosts({ store }: Seeding): void {
	for (let i = 1; i <= 3; i++) {
		store.costCenters.add({
			name: `Cost center ${i}`,
			code: `CC-${i}`,
			responsible_name: null,
			responsible_email: null,
			responsible_phone: null,
			responsible_cellphone: null,
			observation: null,
		});
		store.otherCosts.add({
			other_cost_id: i,
			entity_id: ENTITY_ID,
			input_type: 'distance',
			name: `Travel ${i}`,
			failure: true,
			schedule_work: true,
			operator: null,
			element: null,
			icon: 'car',
			cost_per_unit: 0.4,
			default_sell_price: 0.6,
			default_sell_vat: 23,
			unit: 'km',
		});
	}
}

/** The names and codes of floor or room `i` in `building`, which follow those of its parent. */
function below(store: Store, i: number, parentId: number, building: number, label: string) {
	const parent = store.locations.byId.get(String(parentId))!.attributes;
	return {
		name: `${label} ${i}`,
		full_name: `${parent.full_name}-${label} ${i}`,
		code: `${label[0]}${i}`,
		full_code: `${parent.full_code}.${label[0]}${i}`,
		parent_id: parentId,
		root_parent_id: building,
	};
}

/** Locations: a building every 6, then a floor (a folder) and rooms below it. */
function seedLocations({ store, sizes, pick, int }: Seeding): void {
	const orientations = enumValues('Orientation');
	let building = 0;
	let floor = 0;
	for (let i = 1; i <= sizes.locations; i++) {
		const common = {
			entity_id: ENTITY_ID,
			original_full_code: null,
			observation: null,
			date_updated: sqlDate(i),
			is_from_network: false,
		};
		if (i % 6 === 1) {
			building = i;
			store.locations.add(
				{
					...common,
					name: `Building ${i}`,
					full_name: `Building ${i}`,
					code: `B${i}`,
					full_code: `B${i}`,
					local_id: i,
					has_children: true,
					client_id: ((i - 1) % Math.max(1, sizes.clients)) + 1,
					local_uuid: uuid(i, 'location'),
					matched: false,
				},
				'building',
			);
		} else if (i % 6 === 2) {
			floor = i;
			store.locations.add(
				{ ...common, ...below(store, i, building, building, 'Floor') },
				'location-folder',
			);
		} else {
			store.locations.add(
				{
					...common,
					...below(store, i, floor, building, 'Room'),
					area: int(10, 200),
					glass_area: int(0, 30),
					volume: int(30, 600),
					orientation: pick(orientations),
					local_uuid: uuid(i, 'location'),
					associations: ['DIRECT'],
					assets: int(0, 12),
				},
				'location',
			);
		}
	}
}

/** A map of each of `keys` to null. */
const nulls = (keys: readonly string[]): Attributes =>
	Object.fromEntries(keys.map((key) => [key, null]));

const TIME_STATISTICS = [
	'approved_date',
	'last_completed_date',
	'last_paused_date',
	'started_date',
	'time_to_approve',
	'time_to_complete',
	'time_to_complete_after_started',
	'time_to_start',
	'time_to_start_after_approved',
	'real_duration',
];

/** Who moved a work order to each step, by id and by name: none in the demo data. */
const FAILURE_ACTORS = ['approved', 'completed', 'started', 'paused'];

/**
 * The null maps each work order holds, made once: copying one costs a fraction of building it anew.
 * Each work order gets its own copies: changing one record's map never changes another's.
 */
const NO_TIME_STATISTICS = nulls(TIME_STATISTICS);
const NO_ACTORS = nulls([
	...FAILURE_ACTORS.map((actor) => `${actor}_by_id`),
	...FAILURE_ACTORS.map((actor) => `${actor}_by`),
]);

/** Work order `i` at location `localId`; its status, and the dates and flags that follow from it. */
function failureAttributes(i: number, localId: number): Attributes {
	const status = FAILURE_STATUSES[i % FAILURE_STATUSES.length];
	const completed = status === 'COMPLETED' || status === 'ARCHIVED';
	const start = sqlDate(i % 5000);
	return {
		failure_id: i,
		uuid: uuid(i, 'failure'),
		problem_id: (i % 9) + 1,
		status,
		start_date: start,
		completed_date: completed ? sqlDate((i % 5000) + 3) : null,
		approved_date: status === 'WAITING_APPROVAL' ? null : sqlDate((i % 5000) + 1),
		paused_date: status === 'PAUSED' ? sqlDate((i % 5000) + 2) : null,
		description: `Reported problem ${i}`,
		last_status_description: status,
		observations: null,
		code: `WO-${i}`,
		fts_vector: `wo-${i} problem ${i}`,
		priority: (i % 4) + 1,
		client_id: 1,
		entity_id: ENTITY_ID,
		metering_registry_id: null,
		local_id: localId,
		pause_reason_id: status === 'PAUSED' ? 1 : null,
		// Every third work order came from an ERP, which keeps its own reference.
		external_id: i % 3 === 0 ? `ERP-${7000 + i}` : null,
		report_name: `Reporter ${i % 17}`,
		solved: completed,
		confirmed: status === 'ARCHIVED',
		started: status !== 'WAITING_APPROVAL' && status !== 'WAITING_RESOLUTION',
		paused: status === 'PAUSED',
		completed,
		archived: status === 'ARCHIVED',
		approved: status !== 'WAITING_APPROVAL',
		next_schedule: null,
		message_count: i % 5,
		time_statistics: { ...NO_TIME_STATISTICS },
		supplier_id: null,
		signature_status: 'NOT_SIGNED',
		last_status_change_date: start,
		...NO_ACTORS,
		reported_by: `Reporter ${i % 17}`,
		manpower_duration: null,
		cost_center_id: null,
		network_failure_id: 0,
		created_at: start,
		updated_at: start,
		operator_ids: [(i % 10) + 1],
	};
}

/** Work orders: the big collection, spread over the locations. */
function seedFailures({ store, sizes }: Seeding): void {
	const locationIds = store.locations.items.map((l) => Number(l.id));
	for (let i = 1; i <= sizes.failures; i++) {
		const localId = locationIds.length ? locationIds[i % locationIds.length] : 1;
		store.failures.add(failureAttributes(i, localId));
	}
}

function seedWorks({ store, sizes, pick }: Seeding): void {
	const workTypes = enumValues('Work', 'attributes', 'type');
	const locationIds = store.locations.items.map((l) => Number(l.id));
	for (let i = 1; i <= sizes.works; i++) {
		const type = pick(workTypes);
		store.works.add({
			work_id: i,
			calendar_id: 1,
			description: `Planned job ${i}`,
			type,
			any_responsible: true,
			auto_close: false,
			auto_pilot: false,
			client_id: 1,
			cost_center_id: null,
			entity_id: ENTITY_ID,
			failure_id: null,
			gatekeeper_id: null,
			is_protected: false,
			name: `Planned job ${i}`,
			network_work_id: 0,
			periodicity: type === 'CYCLIC' ? 'Every month' : null,
			recurrence: { DTSTART: day(i) },
			supplier_id: null,
			work_type_id: 1,
			local_id: [locationIds[i % Math.max(1, locationIds.length)] ?? 1],
		});
	}
}

function seedScheduledWorks({ store, sizes }: Seeding): void {
	for (let i = 1; i <= sizes.scheduledWorks; i++) {
		const state = SCHEDULED_STATES[i % SCHEDULED_STATES.length];
		store.scheduledWorks.add({
			schedule_work_id: i,
			entity_id: ENTITY_ID,
			work_id: ((i - 1) % Math.max(1, sizes.works)) + 1,
			failure_id: null,
			state,
			complete_date: null,
			completed_date: null,
			completed_by_id: null,
			completed_percentage: state === 'COMPLETED' ? 100 : 0,
			confirmed: false,
			running: state === 'RUNNING',
			cost_center_name: null,
			last_status_change_date: sqlDate(i),
			last_status_change_operator: null,
			last_status_description: null,
			manpower_duration: null,
			manpower_cost: null,
			observation: null,
			real_start_date: null,
			start_date: sqlDate(i),
			started_by_id: null,
			signature_status: 'NOT_SIGNED',
			time_running: null,
			visit: i,
			next_sla_date: null,
			next_sla_percentage: null,
			next_scheduled_work_sla_id: null,
			next_scheduled_work_sla_date: null,
			next_scheduled_work_sla_status_order: 3,
			rescheduled_by_user: false,
			network_id: null,
			updated_at: day(i),
			display_start_date: sqlDate(i),
			display_complete_date: null,
			estimated_duration_absolute_deviation: null,
			estimated_duration_relative_deviation: null,
			pause_reason_id: null,
			client_id: 1,
			participant_ids: [(i % 10) + 1],
		});
	}
}

function seedSuppliers({ store, sizes, pick }: Seeding): void {
	for (let i = 1; i <= sizes.suppliers; i++) {
		store.suppliers.add({
			supplier_id: i,
			name: `Supplier ${i}`,
			code: `SUP-${i}`,
			vat: null,
			address: `${i} Industry Road`,
			postal_code: null,
			city: pick(CITIES),
			area: null,
			country: 'PT',
			iban: null,
			market_supplier_id: null,
			supplier_uuid: uuid(i, 'supplier'),
			date_created: day(i),
			has_handshake: false,
			profile_steps_count: 3,
			latitude: null,
			longitude: null,
			contact_ids: [],
		});
	}
}

function seedContacts({ store, sizes }: Seeding): void {
	for (let i = 1; i <= sizes.contacts; i++) {
		store.contacts.add({
			contact_id: i,
			entity_id: ENTITY_ID,
			cellphone: `+3519100000${i}`,
			language: 'en',
			email: `contact${i}@example.com`,
			full_name: `Contact ${i}`,
			phone: '',
			is_direct_user: false,
			has_access: false,
		});
	}
}

/** The warehouses and the material types. */
function seedWarehouses({ store, sizes }: Seeding): void {
	for (let i = 1; i <= Math.max(1, sizes.warehouses); i++) store.warehouses.add(i);
	for (let i = 1; i <= sizes.materialTypes; i++) {
		store.materialTypes.add({
			material_type_id: String(i),
			parent_id: i === 1 ? '0' : '1',
			name: i === 1 ? 'All materials' : `Type ${i}`,
			code: `MT-${i}`,
			created_at: day(i),
			updated_at: day(i),
			deleted_at: null,
		});
	}
}

/** The stock materials, with 100 of each in every warehouse. */
function seedStockMaterials({ store, sizes }: Seeding): void {
	for (let i = 1; i <= sizes.materials; i++) {
		store.stockMaterials.add({
			material_id: String(i),
			material_type_id: String((i % Math.max(1, sizes.materialTypes)) + 1),
			name: `Material ${i}`,
			code: `MAT-${i}`,
			purchase_consumption_type: 'INHERIT',
			units: 'unit',
			observations: null,
			description: `Material ${i}`,
			sku: null,
			ean_upc: null,
			sale_price: 10 + i,
			sale_vat: 23,
			created_at: day(i),
			updated_at: day(i),
			warehouses_minimum_stocks: [
				{ warehouse_id: 1, warehouse_name: 'Warehouse 1', minimum_quantity: 2 },
			],
		});
		for (const warehouse of store.warehouses) store.stock.set(`${warehouse}:${i}`, 100);
	}
}

/** Legacy materials: a folder every 5, then the materials in it. */
function seedLegacyMaterials({ store, sizes }: Seeding): void {
	for (let i = 1; i <= sizes.legacyMaterials; i++) {
		const folderItem = i % 5 === 1;
		store.legacyMaterials.add({
			material_id: i,
			parent_id: folderItem ? 0 : i - ((i - 1) % 5),
			name: folderItem ? `Folder ${i}` : `Legacy material ${i}`,
			code: `LM-${i}`,
			full_code: `LM-${i}`,
			observations: null,
			is_real: !folderItem,
			units: folderItem ? '' : 'unit',
			mean_price: { value: folderItem ? 0 : 5 + i },
			has_children: folderItem,
			default_sell_price: 0,
			default_sell_vat: 23,
			is_from_network: false,
			purchase_consumption_type: 'INHERIT',
		});
	}
}

function seedBuyOrders({ store, sizes }: Seeding): void {
	for (let i = 1; i <= sizes.buyOrders; i++) {
		const state = BUY_ORDER_STATES[i % BUY_ORDER_STATES.length];
		const type = i % 2 ? 'MATERIAL' : 'SERVICE';
		store.buyOrders.add({
			entity_id: ENTITY_ID,
			type,
			base_total: '100.00',
			code: `PO-${String(i).padStart(4, '0')}`,
			completed_at: null,
			completed_by: null,
			created_by: 1,
			date_created: sqlDate(i),
			date_updated: sqlDate(i),
			delivery_address: null,
			discount_total: '0.00',
			external_buy_id: null,
			internal_buy_id: null,
			observation: null,
			order_id: i,
			processed_at: null,
			processed_by: null,
			related_to_id: null,
			related_to_type: null,
			state,
			supplier_id: ((i - 1) % Math.max(1, sizes.suppliers)) + 1,
			total_price: 123,
			vat_total: '23.00',
			warehouse_id: type === 'MATERIAL' ? 1 : null,
			description: null,
			internal_sale_id: null,
			external_sale_id: null,
		});
	}
}

/** The stock movements, and the sell orders and quotes that lines can be added to. */
function seedMovementsAndOrders({ store, sizes, pick }: Seeding): void {
	const actions = enumValues('StockMovement', 'attributes', 'action');
	for (let i = 1; i <= sizes.stockMovements; i++) {
		store.stockMovements.add({
			stock_movement_id: i,
			warehouse_id: ((i - 1) % store.warehouses.size) + 1,
			observation: null,
			date: day(i),
			action: pick(actions),
			failure_id: null,
			schedule_work_id: null,
			order_id: null,
			request_id: null,
			element_registry_id: null,
		});
	}
	for (let i = 1; i <= sizes.sellOrders; i++) store.sellOrders.add(i);
	for (let i = 1; i <= sizes.quotes; i++) store.quotes.add(i);
}

/**
 * The seeding steps in the order they run: each draws from the one generator, so the order keeps the
 * demo data the same from run to run.
 */
const SEEDING_STEPS: Array<(seeding: Seeding) => void> = [
	seedClients,
	seedOperators,
	seedCosts,
	seedLocations,
	seedFailures,
	seedWorks,
	seedScheduledWorks,
	seedSuppliers,
	seedContacts,
	seedWarehouses,
	seedStockMaterials,
	seedLegacyMaterials,
	seedBuyOrders,
	seedMovementsAndOrders,
];

/** Builds a fresh store with the given sizes. */
export function seedStore(sizes: SeedSizes, seed = 20261122): Store {
	const rand = random(seed);
	const seeding: Seeding = {
		store: emptyStore(),
		sizes,
		pick: (list) => list[Math.floor(rand() * list.length)],
		int: (min, max) => min + Math.floor(rand() * (max - min + 1)),
	};
	for (const step of SEEDING_STEPS) step(seeding);
	return seeding.store;
}
