import type { IDataObject } from 'n8n-workflow';

import { CYCLIC_JOB as cyclic } from '../../cases/operations';
import { sentField } from '../../helpers/sent';
import { expr } from '../helpers/harness';
import { SandboxFixture } from '../helpers/sandbox';

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
			expect(`${error?.message}\n${error?.description}`).toMatch(/item 0|No request was sent/);
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
		expect(await sentField(fixture, 'code')).toEqual(['OK-1', 'OK-3']);
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
		expect(error?.message).toMatch(/item 1/);
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
			/^Invalid input in item 0: "warehouse_from_id" \(From Warehouse ID\).*\(and 1 more problem\(s\)\)$/,
		);
		expect(error?.description?.split('<br>')).toEqual([
			expect.stringMatching(/^"warehouse_from_id" \(From Warehouse ID\) must be a whole number/),
			expect.stringMatching(/^"warehouse_to_id" \(To Warehouse ID\) is required/),
			'Fix the field(s) above and run again. No request was sent for this item.',
		]);
		expect(await fixture.requests()).toHaveLength(0);
	});

	it('names each failing field in the error, and the item', async () => {
		const { error } = await fixture.run(twoProblems, { items: [{}, {}] });
		expect(error?.context).toMatchObject({
			itemIndex: 0,
			fields: ['warehouse_from_id', 'warehouse_to_id'],
		});
	});

	it("gives an error item plain text lines, not the panel's HTML breaks", async () => {
		const { output } = await fixture.run(twoProblems, { items: [{}], continueOnFail: true });
		const description = String(output[0].json.description);
		expect(description).not.toContain('<br>');
		expect(description.split('\n')).toHaveLength(3);
	});
});
