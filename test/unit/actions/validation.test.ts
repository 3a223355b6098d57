import type { IDataObject } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { CYCLIC_JOB as cyclic } from '../../cases/operations';
import { expr, runNode } from '../helpers/harness';
import { SandboxFixture } from '../helpers/sandbox';

const node = new MaintenanceManagement();
const fixture = new SandboxFixture();
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

/** Each rule the issues ask the node to enforce before sending: [label, resource, operation, parameters, expected message]. */
const RULES: Array<[string, string, string, IDataObject, RegExp]> = [
	[
		'any_responsible false without operators',
		'work',
		'create',
		{ ...cyclic, additionalFields: { any_responsible: false } },
		/"operator_id".*Operator IDs or Technical Skill IDs/,
	],
	[
		'auto_close on a SPECIAL job',
		'work',
		'create',
		{ ...cyclic, type: 'SPECIAL', interventions: {}, additionalFields: { auto_close: true } },
		/"auto_close".*only to CYCLIC and PLAN/,
	],
	[
		'auto_pilot on a SPECIAL job',
		'work',
		'create',
		{ ...cyclic, type: 'SPECIAL', interventions: {}, additionalFields: { auto_pilot: true } },
		/"auto_pilot".*only to CYCLIC and PLAN/,
	],
	[
		'interventions on a SPECIAL job',
		'work',
		'create',
		{ ...cyclic, type: 'SPECIAL' },
		/"interventions".*only to CYCLIC and PLAN/,
	],
	[
		'a PLAN job without interventions',
		'work',
		'create',
		{ ...cyclic, type: 'PLAN', interventions: {} },
		/"interventions".*required for a PLAN job/,
	],
	[
		'procedures on a CYCLIC job',
		'work',
		'create',
		{ ...cyclic, procedures: { items: [{ task: 'Check', quantity: 1, unit: 'u' }] } },
		/"procedures".*only to SPECIAL/,
	],
	[
		'CYCLIC HOURLY without a calendar',
		'work',
		'create',
		{ ...cyclic, recurrence: { values: { FREQ: 'HOURLY', INTERVAL: 2 } } },
		/"calendar_id".*HOURLY/,
	],
	[
		'CYCLIC HOURLY without an interval',
		'work',
		'create',
		{
			...cyclic,
			recurrence: { values: { FREQ: 'HOURLY', INTERVAL: '' } },
			additionalFields: { calendar_id: 1 },
		},
		/"recurrence.INTERVAL".*HOURLY/,
	],
	[
		'a negative interval',
		'work',
		'create',
		{ ...cyclic, recurrence: { values: { FREQ: 'DAILY', INTERVAL: -1 } } },
		/"recurrence.INTERVAL".*0 or more/,
	],
	[
		'an auto_schedule time that is not HH:mm',
		'work',
		'create',
		{
			...cyclic,
			auto_schedule: { items: [{ start_time: '8am', end_time: '17:00', operators: '1' }] },
		},
		/"auto_schedule\[0\].start_time".*HH:mm/,
	],
	[
		'an auto_schedule entry without operators',
		'work',
		'create',
		{
			...cyclic,
			auto_schedule: { items: [{ start_time: '08:00', end_time: '17:00', operators: '' }] },
		},
		/"auto_schedule\[0\].operators"/,
	],
	[
		'specify_pause_reason without reasons',
		'work',
		'create',
		{ ...cyclic, sla_rules: { items: [{ specify_pause_reason: true, pause_reasons: '' }] } },
		/"sla_rules\[0\].pause_reasons".*at least one pause reason/,
	],
	[
		'location IDs that are not numbers',
		'work',
		'create',
		{ ...cyclic, local_id: '3, lobby' },
		/"local_id\[1\]".*whole-number IDs/,
	],
	[
		'invalid SLA rules JSON',
		'work',
		'create',
		{ ...cyclic, additionalFields: { sla_rules_json: '[{' } },
		/"sla_rules_json" is not valid JSON/,
	],
	[
		'SLA rules both as fields and as JSON',
		'work',
		'create',
		{
			...cyclic,
			sla_rules: { items: [{ target_hours: 4 }] },
			additionalFields: { sla_rules_json: '[]' },
		},
		/either with its fields or as JSON/,
	],
	[
		'a location orientation outside the four',
		'location',
		'updateMany',
		{ id: rl('3'), updateFields: { orientation: 'Up' } },
		/"orientation".*North, South, West, East/,
	],
	[
		'a SERVICE sell order line without description',
		'sellOrderLine',
		'create',
		{ sellOrderId: '1', type: 'SERVICE', quantity: '1', unit_price: 5 },
		/"description".*required when type is SERVICE/,
	],
	[
		'a MATERIAL sell order line without material',
		'sellOrderLine',
		'create',
		{ sellOrderId: '1', type: 'MATERIAL', quantity: '1', unit_price: 5 },
		/"material_id".*required when type is MATERIAL/,
	],
	[
		'an OTHER_COST quote line without other cost',
		'quoteLine',
		'create',
		{ quoteId: '1', type: 'OTHER_COST' },
		/"other_cost_id".*required when type is OTHER_COST/,
	],
	[
		'a sell order line quantity that is not numeric',
		'sellOrderLine',
		'create',
		{
			sellOrderId: '1',
			type: 'SERVICE',
			quantity: 'two',
			unit_price: 5,
			additionalFields: { description: 'x' },
		},
		/"quantity".*number, such as 2 or 1.5/,
	],
	[
		'a quote line quantity that is not whole',
		'quoteLine',
		'create',
		{ quoteId: '1', type: 'SERVICE', additionalFields: { description: 'x', quantity: 1.5 } },
		/"quantity".*whole number/,
	],
	[
		'related_to_type without related_to_id',
		'buyOrder',
		'update',
		{ buyOrderId: rl('2'), updateFields: { related_to_type: 'FAILURE' } },
		/"related_to_id".*together/,
	],
	[
		'related_to_id without related_to_type',
		'buyOrder',
		'update',
		{ buyOrderId: rl('2'), updateFields: { related_to_id: 3 } },
		/"related_to_type".*together/,
	],
	[
		'a legacy MATERIAL without units and parent',
		'legacyMaterial',
		'create',
		{ _type: 'MATERIAL', name: 'G', code: 'LM-X' },
		/"units".*required for a MATERIAL/,
	],
	[
		'a mean price on a legacy FOLDER',
		'legacyMaterial',
		'create',
		{ _type: 'FOLDER', name: 'F', code: 'LM-F', additionalFields: { mean_price: 3 } },
		/"mean_price".*only to a MATERIAL/,
	],
	[
		'a min_stock of 0',
		'legacyMaterial',
		'create',
		{
			_type: 'FOLDER',
			name: 'F',
			code: 'LM-F',
			material_warehouse: { items: [{ warehouse_id: 1, min_stock: 0 }] },
		},
		/"material_warehouse\[0\].min_stock".*greater than 0/,
	],
	[
		'a stock transaction without a material',
		'stockTransaction',
		'createBatch',
		{
			warehouseId: '1',
			action: 'WAREHOUSE_ADD',
			transactions: { items: [{ material_id: expr(''), quantity: 1, cost_price: 1 }] },
		},
		/"transactions\[0\].material_id"/,
	],
	[
		'a batch with no transactions',
		'stockTransaction',
		'createBatch',
		{ warehouseId: '1', action: 'WAREHOUSE_ADD' },
		/"transactions".*at least one transaction/,
	],
	[
		'a transfer to the same warehouse',
		'stockTransaction',
		'transfer',
		{ warehouse_from_id: 2, warehouse_to_id: 2, material_id: 3, quantity: 1 },
		/"warehouse_to_id".*must differ/,
	],
	[
		'an empty material code',
		'material',
		'create',
		{ material_type_id: 2, name: 'V', code: '  ', units: 'u' },
		/"code".*must not be empty/,
	],
	[
		'an empty material type name',
		'materialType',
		'create',
		{ name: expr(''), parent_id: '1' },
		/"name"/,
	],
	[
		'a supplier update with nothing to change',
		'supplier',
		'update',
		{ supplier: rl('2') },
		/nothing to change/,
	],
	['a contact without email or name', 'contact', 'checkOrCreate', {}, /"email".*Email or Name/],
	[
		'a contact email that is not an email',
		'contact',
		'checkOrCreate',
		{ email: 'nope' },
		/"email".*email address/,
	],
	[
		'a client without contact IDs',
		'client',
		'syncContacts',
		{ client: '2', contact_ids: expr('') },
		/"contact_ids".*required/,
	],
	[
		'a sell order line without its sell order',
		'sellOrderLine',
		'create',
		{
			sellOrderId: ' ',
			type: 'SERVICE',
			quantity: '1',
			unit_price: 1,
			additionalFields: { description: 'x' },
		},
		/"Sell Order ID" is empty/,
	],
];

describe('validation before sending', () => {
	it.each(RULES)(
		'rejects %s, naming the field, and sends nothing',
		async (_label, resource, operation, parameters, message) => {
			await fixture.clear();
			const { error, requests } = await fixture.run({ resource, operation, ...parameters });
			expect(error?.message).toMatch(message);
			expect(`${error?.message}\n${error?.description}`).toMatch(/item 1|No request was sent/);
			expect(requests).toHaveLength(0);
			expect(await fixture.requests()).toHaveLength(0);
		},
	);
});

describe('items', () => {
	it('with Continue On Fail, one bad item yields an error item and the good ones are sent', async () => {
		await fixture.clear();
		const { output, error } = await fixture.run(
			{
				resource: 'material',
				operation: 'create',
				material_type_id: 2,
				name: 'Filter',
				code: '={{ $json.code }}',
				units: 'unit',
			},
			{ continueOnFail: true, items: [{ code: 'OK-1' }, { code: '' }, { code: 'OK-3' }] },
		);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ code: 'OK-1' });
		expect(output[1].json.error).toMatch(/"code"/);
		expect(output[2].json).toMatchObject({ code: 'OK-3' });
		expect((await fixture.requests()).map((r) => (r.body as IDataObject).code)).toEqual([
			'OK-1',
			'OK-3',
		]);
	});

	it('without Continue On Fail, the first bad item stops the run with its index', async () => {
		const { error } = await fixture.run(
			{
				resource: 'sellOrderLine',
				operation: 'create',
				sellOrderId: '1',
				type: 'SERVICE',
				unit_price: 1,
				quantity: '={{ $json.q }}',
				additionalFields: { description: 'x' },
			},
			{ items: [{ q: '1' }, { q: 'x' }] },
		);
		expect(error?.message).toMatch(/item 2/);
	});
});

describe('validation errors are easy to read', () => {
	const twoProblems = {
		resource: 'stockTransaction',
		operation: 'transfer',
		warehouse_from_id: 'abc',
		warehouse_to_id: expr(''),
		material_id: '7',
		quantity: 1,
	};

	it('counts items from 1, as the editor does, and puts each problem on its own line of the error panel', async () => {
		await fixture.clear();
		const { error } = await fixture.run(twoProblems, { items: [{}] });
		expect(error?.message).toMatch(
			/^Invalid input in item 1: "warehouse_from_id" \(From Warehouse ID\).*\(and 1 more problem\(s\)\)$/,
		);
		expect(error?.description?.split('<br>')).toEqual([
			expect.stringMatching(/^"warehouse_from_id" \(From Warehouse ID\) must be a whole number/),
			expect.stringMatching(/^"warehouse_to_id" \(To Warehouse ID\) is required/),
			'Fix the field(s) above and run again. No request was sent for this item.',
		]);
		expect(await fixture.requests()).toHaveLength(0);
	});

	it("gives an error item plain text lines, not the panel's HTML breaks", async () => {
		const { output } = await fixture.run(twoProblems, { items: [{}], continueOnFail: true });
		const description = String(output[0].json.description);
		expect(description).not.toContain('<br>');
		expect(description.split('\n')).toHaveLength(3);
	});
});

describe('API errors come through with the spec message', () => {
	it('404 for an unknown location', async () => {
		const { error } = await fixture.run({
			resource: 'location',
			operation: 'get',
			id: rl('99999'),
		});
		expect(error?.message).toBe(
			'Location 99999 was not found (404). Check the ID, or list locations to find it.',
		);
		expect(error?.httpCode).toBe('404');
	});

	it('400 with the failing property, for a duplicate material code', async () => {
		const { error } = await fixture.run({
			resource: 'material',
			operation: 'create',
			material_type_id: 2,
			name: 'Dup',
			code: 'MAT-5',
			units: 'u',
		});
		expect(error?.message).toMatch(
			/^Property validation error\. code: This code is already used\./,
		);
	});

	it('400 when a supplier is removed from a buy order that is not a draft', async () => {
		const { error } = await fixture.run({
			resource: 'buyOrder',
			operation: 'update',
			buyOrderId: rl('2'),
			updateFields: { supplier_id: 'null' },
		});
		expect((await fixture.requests()).pop()?.body).toEqual({ supplier_id: null });
		expect(error?.message).toMatch(
			/supplier_id: The supplier can be removed only while the order is SAVED_AS_DRAFT/,
		);
	});

	it('403 Action unauthorized for a read-only token on an order endpoint', async () => {
		const { error } = await fixture.run(
			{ resource: 'buyOrder', operation: 'getAll' },
			{ readOnly: true },
		);
		expect(error?.message).toBe(
			"The token's user is not allowed to GET /sales/buy-orders (403). Use a token of a user with that permission.",
		);
		expect(error?.description).toMatch(/permission/);
	});

	it('401 for a token of the other environment, naming the environment, without the token', async () => {
		const production = fixture.sandbox.environments.production;
		const { error } = await runNode({
			node,
			credentials: { ...fixture.credentials, accessToken: production.token },
			parameters: { resource: 'failure', operation: 'getAll' },
		});
		expect(error?.message).toBe(
			'The access token was rejected (401). Check the token in the credential, and that it was issued in the sandbox environment.',
		);
		expect(error?.description).toMatch(/sandbox environment/);
		expect(
			JSON.stringify({ message: error?.message, description: error?.description }),
		).not.toContain(production.token);
	});
});

describe('pagination against the sandbox', () => {
	beforeAll(async () => await fixture.reset({ seed: { failures: 4500 } }));
	afterAll(async () => await fixture.reset());

	it('Return All reads every page at limit 2000', async () => {
		await fixture.clear();
		const { output } = await fixture.run({
			resource: 'failure',
			operation: 'getAll',
			returnAll: true,
		});
		expect(output).toHaveLength(4500);
		expect(new Set(output.map((item) => item.json.id)).size).toBe(4500);
		expect((await fixture.requests()).map((r) => `${r.query.page}/${r.query.limit}`)).toEqual([
			'1/2000',
			'2/2000',
			'3/2000',
		]);
	});

	it('a Limit above 2000 uses equal pages and stops when it has enough', async () => {
		await fixture.clear();
		const { output } = await fixture.run({ resource: 'failure', operation: 'getAll', limit: 3000 });
		expect(output).toHaveLength(3000);
		expect((await fixture.requests()).map((r) => `${r.query.page}/${r.query.limit}`)).toEqual([
			'1/1500',
			'2/1500',
		]);
	});
});

describe('combined stock batch', () => {
	const batch = (combine: boolean, items: IDataObject[], continueOnFail = false) =>
		runNode({
			node,
			credentials: fixture.credentials,
			continueOnFail,
			items,
			parameters: {
				resource: 'stockTransaction',
				operation: 'createBatch',
				warehouseId: '={{ String($json.warehouse ?? 1) }}',
				action: 'WAREHOUSE_ADD',
				transactions: {
					items: [
						{
							material_id: '={{ $json.material }}',
							quantity: '={{ $json.quantity }}',
							cost_price: 2,
						},
					],
				},
				batchOptions: { combineItems: combine },
			},
		});

	it('sends one request for all items and pairs each output with its item', async () => {
		await fixture.clear();
		const before = (await fixture.control('GET', '/state/stock/1:7')) as { quantity: number };
		const { output, error } = await batch(true, [
			{ material: 7, quantity: 1 },
			{ material: 8, quantity: 2 },
			{ material: 7, quantity: 3 },
		]);
		expect(error).toBeUndefined();
		const logged = await fixture.requests();
		expect(logged).toHaveLength(1);
		expect((logged[0].body as IDataObject).transactions).toHaveLength(3);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect((output[1].json.transactions as IDataObject[]).map((t) => t.material_id)).toEqual([8]);
		expect(output[0].json.id).toBe(output[2].json.id);
		expect(await fixture.control('GET', '/state/stock/1:7')).toMatchObject({
			quantity: before.quantity + 4,
		});
	});

	it('without combining, each item sends its own batch', async () => {
		await fixture.clear();
		const { output } = await batch(false, [
			{ material: 7, quantity: 1 },
			{ material: 8, quantity: 1 },
		]);
		expect(await fixture.requests()).toHaveLength(2);
		expect(output[0].json.id).not.toBe(output[1].json.id);
	});

	it('keeps the good items when one differs in warehouse or is invalid, with Continue On Fail', async () => {
		await fixture.clear();
		const { output } = await batch(
			true,
			[
				{ material: 7, quantity: 1 },
				{ material: 7, quantity: 1, warehouse: 2 },
				{ material: 7, quantity: 0 },
				{ material: 8, quantity: 1 },
			],
			true,
		);
		expect(await fixture.requests()).toHaveLength(1);
		expect(output[1].json.error).toMatch(/cannot join the combined batch/);
		expect(output[2].json.error).toMatch(/quantity/);
		expect(output[3].json.transactions).toEqual([expect.objectContaining({ material_id: 8 })]);
	});
});

describe('list search', () => {
	it('searches suppliers by name, page by page', async () => {
		await fixture.reset({ seed: { suppliers: 150 } });
		const search = node.methods.listSearch.searchSuppliers;
		const { loadOptionsContext } = await import('../helpers/harness');
		const context = loadOptionsContext(node, fixture.credentials);
		const first = await search.call(context);
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('2');
		const second = await search.call(context, undefined, first.paginationToken as string);
		expect(second.results).toHaveLength(50);
		expect(second.paginationToken).toBeUndefined();
		const filtered = await search.call(context, 'Supplier 12');
		expect(filtered.results.map((r) => r.name)).toEqual(
			expect.arrayContaining(['Supplier 12 (SUP-12)', 'Supplier 120 (SUP-120)']),
		);
		await fixture.reset();
	});
});
