import type { IDataObject } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { CYCLIC_JOB } from '../cases/operations';
import { expr } from './helpers/harness';
import { SandboxFixture, type RunAgainst } from './helpers/sandbox';
import { noSelectedFields } from '../../nodes/shared/errors/messages';

/**
 * Version 2 of the action node: the Output choice (Simplified by default, Raw, Selected Fields), run
 * through n8n-core against the sandbox. Version 1's Simplify is held by the other suites, which run
 * the node at version 1.
 */
const fixture = new SandboxFixture();
const node = new MaintenanceManagement();

beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());
beforeEach(async () => await fixture.reset());

const v2 = (parameters: Record<string, unknown>, options: RunAgainst = {}) =>
	fixture.run(parameters, { ...options, typeVersion: 2 });
/** Failure: Get Many of 2 at version 2, with Output: Selected Fields naming `fields`; `list` changes that. */
const selectedFields = (fields: string, list: Record<string, unknown> = {}) =>
	v2({ resource: 'failure', operation: 'getAll', limit: 2, output: 'selected', fields, ...list });
const json = (output: Array<{ json: IDataObject }>) => output.map((item) => item.json);
const size = (value: unknown) => JSON.stringify(value).length;

/** Every value of a record, nested ones included. */
const values = (value: unknown): unknown[] =>
	value && typeof value === 'object'
		? Object.values(value).flatMap((inner) => [inner, ...values(inner)])
		: [];

describe('Output, version 2', () => {
	it('is the default version of the node, and shows Simplify only to version 1', () => {
		expect(node.description.version).toEqual([1, 2]);
		expect(node.description.defaultVersion).toBe(2);
		const simplify = node.description.properties.filter((p) => p.name === 'simplify');
		const output = node.description.properties.filter((p) => p.name === 'output');
		expect(simplify.length).toBeGreaterThan(10);
		expect(output).toHaveLength(simplify.length);
		for (const property of simplify)
			expect(property.displayOptions?.show?.['@version']).toEqual([1]);
		for (const property of output) {
			expect(property.default).toBe('simplified');
			expect(property.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 2 } }]);
		}
	});

	it('Simplified: an open work order has its key fields first, no empty or internal fields, and at most 400 characters', async () => {
		const { output, error } = await v2({ resource: 'failure', operation: 'getAllOpen' });
		expect(error).toBeUndefined();
		const records = json(output);
		expect(records.length).toBeGreaterThan(10);
		for (const record of records) {
			expect(Object.keys(record).slice(0, 4)).toEqual(['id', 'code', 'status', 'description']);
			expect(values(record)).not.toContain(null);
			for (const name of [
				'uuid',
				'fts_vector',
				'time_statistics',
				'failure_id',
				'entity_id',
				'type',
			])
				expect(record).not.toHaveProperty(name);
			expect(Object.keys(record).filter((name) => name.endsWith('_by_id'))).toEqual([]);
			expect(size(record)).toBeLessThanOrEqual(400);
		}
		expect(records[0]).toMatchObject({
			priority: expect.any(Number),
			local_id: expect.any(Number),
			reported_by: expect.any(String),
			start_date: expect.any(String),
		});
	});

	it("Simplified: a work order's priority says what it means beside the API's number, 1 lowest to 4 highest", async () => {
		const { output } = await v2({ resource: 'failure', operation: 'getAllOpen', returnAll: true });
		const records = json(output);
		const labels = new Map(records.map((record) => [record.priority, record.priority_label]));
		expect(Object.fromEntries(labels)).toEqual({
			1: '1 of 4, lowest',
			2: '2 of 4',
			3: '3 of 4',
			4: '4 of 4, highest',
		});
		// Right after the number, and selectable by name.
		const keys = Object.keys(records[0]);
		expect(keys.indexOf('priority_label')).toBe(keys.indexOf('priority') + 1);
		const selected = await selectedFields('priority, priority_label', {
			operation: 'getAllOpen',
			limit: 1,
		});
		expect(Object.keys(json(selected.output)[0])).toEqual(['id', 'priority', 'priority_label']);
	});

	it('Simplified: the default Get Many Open call (limit 50) stays under 20,000 characters', async () => {
		await fixture.reset({ seed: { failures: 200 } });
		const simplified = json((await v2({ resource: 'failure', operation: 'getAllOpen' })).output);
		const raw = json(
			(await v2({ resource: 'failure', operation: 'getAllOpen', output: 'raw' })).output,
		);
		expect(simplified).toHaveLength(50);
		expect(raw).toHaveLength(50);
		expect(size(simplified)).toBeLessThanOrEqual(20_000);
		expect(size(raw)).toBeGreaterThan(3 * size(simplified));
	});

	it('Simplified: a planned job keeps its own type as type, and a location says which kind it is in record_type', async () => {
		const created = await v2({
			resource: 'work',
			operation: 'create',
			...CYCLIC_JOB,
			name: 'Roof check',
			recurrence: { values: { DTSTART: '2026-05-01T08:00:00', FREQ: 'MONTHLY', INTERVAL: 1 } },
		});
		expect(created.error).toBeUndefined();
		expect(json(created.output)).toEqual([
			expect.objectContaining({ name: 'Roof check', type: 'CYCLIC', local_id: [3] }),
		]);
		expect(json(created.output)[0]).not.toHaveProperty('attribute_type');
		expect(json(created.output)[0]).not.toHaveProperty('record_type');

		const { output } = await v2({ resource: 'location', operation: 'getAll', limit: 3 });
		expect(json(output).map((record) => record.record_type)).toEqual([
			'building',
			'location-folder',
			'location',
		]);
		expect(json(output)[2]).toMatchObject({ id: '3', name: 'Room 3', code: 'R3' });
		expect(json(output)[2]).not.toHaveProperty('local_uuid');
	});

	it('Simplified: expanded relations are nested in the same compact form', async () => {
		const { output } = await v2({
			resource: 'scheduledWork',
			operation: 'getAll',
			limit: 1,
			expanded: ['work'],
		});
		const [order] = json(output);
		expect(order).toMatchObject({ id: '1', state: expect.any(String), work_id: 1 });
		expect(order.work).toMatchObject({ id: '1', name: 'Planned job 1' });
		expect(order.work).not.toHaveProperty('entity_id');
		expect(values(order)).not.toContain(null);
	});

	it('Raw: each record as the API sends it, as version 1 with Simplify off gives it', async () => {
		const parameters = { resource: 'failure', operation: 'getAll', limit: 2 };
		const raw = json((await v2({ ...parameters, output: 'raw' })).output);
		const v1 = json((await fixture.run({ ...parameters, simplify: false })).output);
		expect(raw).toEqual(v1);
		expect(raw[0]).toMatchObject({ type: 'failure', attributes: { uuid: expect.any(String) } });
	});

	it('Selected Fields: the ID and the named fields, from comma-separated text or an array', async () => {
		for (const fields of [
			'status, priority,description',
			expr(['status', 'priority', 'description']),
		]) {
			const { output, error } = await selectedFields(fields);
			expect(error).toBeUndefined();
			expect(json(output)).toEqual([
				{
					id: '1',
					status: expect.any(String),
					priority: expect.any(Number),
					description: 'Reported problem 1',
				},
				{
					id: '2',
					status: expect.any(String),
					priority: expect.any(Number),
					description: 'Reported problem 2',
				},
			]);
		}
	});

	it('Selected Fields: keeps a named field that is null, and leaves out a name the record does not have', async () => {
		const { output } = await selectedFields('observations, no_such_field, record_type', {
			limit: 1,
		});
		expect(json(output)).toEqual([{ id: '1', observations: null, record_type: 'failure' }]);
	});

	it('Selected Fields says, in a hint of the output panel, which named fields no record has', async () => {
		const some = await selectedFields('status, no_such_field');
		expect(some.hints).toEqual([
			{
				message:
					'No record has "no_such_field", named in Fields: check the spelling against the API\'s field names, as Output: Raw shows them under attributes.',
				type: 'warning',
				location: 'outputPane',
			},
		]);
		// Fields named for another resource, as after switching the resource: the items hold IDs alone.
		const none = await selectedFields('priority, priority_label', { resource: 'location' });
		expect(json(none.output)).toEqual([{ id: '1' }, { id: '2' }]);
		expect(none.hints.map((hint) => hint.message)).toEqual([
			'None of the fields named in Fields ("priority", "priority_label") is in these records, so each item holds only its ID. Use the API\'s field names, as Output: Raw shows them under attributes.',
		]);
	});

	it('Selected Fields names unknown fields in its hint as quoted plain text, never as markup', async () => {
		// n8n's editor renders a hint as HTML: a name mapped from item data must not become a link.
		const link = '<a href="https://attacker.example/x">Open the fix</a>';
		const { hints } = await selectedFields(`status, ${link}, <img src=x onerror=alert(1)>`);
		expect(hints.map((hint) => hint.message)).toEqual([
			'No record has "&lt;a href=\\"https://attacker.example/x\\"&gt;Open the fix&lt;/a&gt;", "&lt;img src=x onerror=alert(1)&gt;", named in Fields: check the spelling against the API\'s field names, as Output: Raw shows them under attributes.',
		]);
		expect(hints[0].message).not.toMatch(/[<>]/);
	});

	it('Selected Fields gives no hint when every named field is found, nor does Simplified', async () => {
		const selected = await selectedFields('status, observations');
		const simplified = await v2({ resource: 'failure', operation: 'getAll', limit: 2 });
		expect([selected.hints, simplified.hints]).toEqual([[], []]);
	});

	it('Simplified: a record without a key list leads with the fields a person knows it by', async () => {
		const { output, error } = await v2({
			resource: 'material',
			operation: 'create',
			material_type_id: '1',
			name: 'Hex bolt M8',
			code: 'HB-M8',
			units: 'unit',
			additionalFields: { description: 'Zinc plated', sale_price: 0.35 },
		});
		expect(error).toBeUndefined();
		expect(Object.keys(json(output)[0]).slice(0, 4)).toEqual(['id', 'code', 'name', 'description']);
	});

	it('Selected Fields with no field names fails before anything is sent, saying what to do', async () => {
		await fixture.clear();
		const { error } = await v2({
			resource: 'failure',
			operation: 'getAll',
			output: 'selected',
			fields: ' , ',
		});
		expect(error?.message).toBe(noSelectedFields().message);
		expect(error?.context).toMatchObject({ itemIndex: 0, fields: ['fields'] });
		expect(await fixture.requests()).toEqual([]);
	});

	it('Selected Fields with no field names on a grouped update fails before the update is sent', async () => {
		await fixture.clear();
		const { error } = await v2({
			resource: 'location',
			operation: 'updateMany',
			id: { __rl: true, mode: 'id', value: '3' },
			updateFields: { name: 'Boiler room' },
			output: 'selected',
			fields: '',
		});
		expect(error?.context).toMatchObject({ itemIndex: 0, fields: ['fields'] });
		expect(await fixture.requests()).toEqual([]);
	});
});

/**
 * Values as a model fills them through $fromAI(): an ID as text or as a number, a list as
 * comma-separated text or as an array. Given here as expressions, resolved by n8n-core.
 */
describe('Values a model fills', () => {
	const job = (local_id: unknown, client_id: unknown, work_type_id: unknown) =>
		v2({
			resource: 'work',
			operation: 'create',
			type: 'CYCLIC',
			name: 'Roof check',
			work_type_id: expr(work_type_id),
			local_id: expr(local_id),
			client_id: expr(client_id),
			recurrence: { values: { DTSTART: '2026-05-01T08:00:00', FREQ: 'MONTHLY', INTERVAL: 1 } },
			interventions: { items: [{ id: 5, elements: 'EL-1' }] },
		});

	it.each([
		['text', '3', '/locations/3'],
		['a number', 3, '/locations/3'],
	])('an ID in the path as %s', async (_label, value, path) => {
		await fixture.clear();
		const { output, error } = await v2({
			resource: 'location',
			operation: 'get',
			id: { __rl: true, mode: 'id', value: expr(value) },
		});
		expect(error).toBeUndefined();
		expect(json(output)).toEqual([expect.objectContaining({ id: '3' })]);
		expect((await fixture.requests()).map((r) => r.path)).toEqual([path]);
	});

	it.each([
		['comma-separated text and IDs as text', '3, 4', '1', '1'],
		['an array of numbers and IDs as numbers', [3, 4], 1, 1],
		['an array of texts', ['3', '4'], '1', 1],
	])('a list and IDs in the body as %s', async (_label, localIds, clientId, workTypeId) => {
		await fixture.clear();
		const { error } = await job(localIds, clientId, workTypeId);
		expect(error).toBeUndefined();
		const [sent] = await fixture.requests();
		expect(sent.body).toMatchObject({ local_id: [3, 4], client_id: 1, work_type_id: 1 });
	});

	it('a list with something that is not an ID fails naming the field, and nothing is sent', async () => {
		await fixture.clear();
		const { error } = await job('3, four', 1, 1);
		expect(error?.message).toMatch(/local_id/);
		expect(await fixture.requests()).toEqual([]);
	});
});
