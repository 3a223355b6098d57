import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { namesOf } from '../../../nodes/MaintenanceManagement/executor/request';
import { pathSlots } from '../../../nodes/MaintenanceManagement/executor/request';
import { resources } from '../../../nodes/MaintenanceManagement/actions/resources';
import { emptyValue } from '../../../nodes/shared/errors/messages';
import { operationCases } from '../../cases/operations';
import { firstQuery } from '../../helpers/sent';
import { SandboxFixture } from '../helpers/sandbox';

/**
 * A filter, a query parameter or a path ID that resolves to nothing fails, naming the field and what
 * its expression gave, and nothing is sent: a filter left out would widen the query to every record.
 */

const fixture = new SandboxFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());
beforeEach(async () => await fixture.reset());

const CASES = operationCases(
	(method, path) => fixture.control(method, path),
	() => {
		throw new Error('not read back here');
	},
);

/** The valid parameters of an operation's case, which each test then empties one field of. */
const caseOf = (resource: string, operation: string): IDataObject => {
	const found = CASES.find((c) => c.resource === resource && c.operation === operation);
	if (!found) throw new Error(`no case for ${resource} ${operation}`);
	return found.parameters;
};

const NOTHING = '={{ $json.nothing }}';
const GAVE_NOTHING = 'its expression {{ $json.nothing }} gave nothing (undefined)';

const OPERATIONS = Object.values(resources).flatMap(({ value: resource, operations }) =>
	Object.entries(operations).map(([operation, module]) => ({ resource, operation, module })),
);

/** Every filter of every operation's filter collections, from the registry. */
const FILTERS = OPERATIONS.flatMap(({ resource, operation, module }) =>
	(module.endpoint.queryCollections ?? []).flatMap((collection) => {
		const property = module.description.find((p) => p.name === collection);
		return ((property?.options ?? []) as INodeProperties[]).map((filter) => ({
			label: `${resource} ${operation}: ${filter.displayName}`,
			resource,
			operation,
			collection,
			filter,
		}));
	}),
);

/** Every path ID of every operation, from the registry. */
const PATH_IDS = OPERATIONS.flatMap(({ resource, operation, module }) =>
	pathSlots(module.endpoint).map(([, parameter]) => ({
		label: `${resource} ${operation}: ${namesOf(module).get(parameter)}`,
		resource,
		operation,
		parameter,
		displayName: namesOf(module).get(parameter),
	})),
);

const run = async (
	parameters: IDataObject,
	items: IDataObject[] = [{}],
	continueOnFail = false,
) => {
	await fixture.clear();
	return await fixture.run(parameters, { items, continueOnFail });
};

/** Runs a filter's operation with its case's parameters and the filter set to `value`. */
const runFiltered = (
	{ resource, operation, collection, filter }: (typeof FILTERS)[number],
	value: unknown,
) =>
	run({
		...caseOf(resource, operation),
		resource,
		operation,
		[collection]: { [filter.name]: value },
	});

describe('a filter that resolves to nothing', () => {
	it('is checked for every filter of every list, the location filters of both work order lists among them', () => {
		expect(FILTERS.map((f) => f.label)).toEqual(
			expect.arrayContaining([
				'failure getAll: Location ID',
				'failure getAllOpen: Location ID',
				'location getAll: With Assets Count',
			]),
		);
	});

	it.each(FILTERS.map((f) => [f.label, f] as const))(
		'%s: fails naming the filter, and nothing is sent',
		async (_label, listed) => {
			const { collection, filter } = listed;
			const { error, output, requests } = await runFiltered(listed, NOTHING);
			expect(error?.context).toMatchObject({
				itemIndex: 0,
				fields: [`${collection}.${filter.name}`],
			});
			expect(error?.message).toBe(
				emptyValue(`"${filter.displayName}" (${filter.name})`, GAVE_NOTHING, '', 0).message,
			);
			expect(output).toEqual([]);
			expect(requests).toHaveLength(0);
			expect(await fixture.requests()).toEqual([]);
		},
	);

	it.each([
		['null', '={{ null }}', 'null'],
		['empty text', "={{ '' }}", 'empty text'],
		['spaces', "={{ '   ' }}", 'only spaces'],
		['an empty list', '={{ [] }}', 'an empty list'],
	])('names what the expression gave: %s', async (_name, expression, gave) => {
		const { error, requests } = await run({
			resource: 'failure',
			operation: 'getAllOpen',
			filters: { s_local_id: expression },
		});
		expect(error?.message).toBe(
			`"Location ID" (s_local_id) is empty: its expression ${expression.slice(1)} gave ${gave}`,
		);
		expect(requests).toHaveLength(0);
	});

	/** The ID filters, each as the editor adds it: with its own default. */
	const ID_FILTERS = FILTERS.filter(({ filter }) => /(^|_)id$/.test(filter.name));

	it('covers the ID filters of both work order lists', () => {
		expect(ID_FILTERS.map(({ operation, filter }) => `${operation} ${filter.name}`).sort()).toEqual(
			[
				'getAll s_local_id',
				'getAll s_problem_id',
				'getAllOpen failure_id',
				'getAllOpen problem_id',
				'getAllOpen s_local_id',
			],
		);
	});

	it.each(ID_FILTERS.map((f) => [f.label, f] as const))(
		'%s starts empty, shows the form of an ID, and left so says it has no value',
		async (_label, listed) => {
			const { filter } = listed;
			expect(filter.default).toBe('');
			expect(filter.placeholder).toMatch(/^e\.g\. \d+$/);
			const { error, requests } = await runFiltered(listed, filter.default);
			expect(error?.message).toBe(
				`"${filter.displayName}" (${filter.name}) is empty: it has no value`,
			);
			expect(requests).toHaveLength(0);
		},
	);

	it('says a typed filter left blank has no value', async () => {
		const { error, requests } = await run({
			resource: 'failure',
			operation: 'getAllOpen',
			filters: { approved_date: '' },
		});
		expect(error?.message).toBe('"Approved Date" (approved_date) is empty: it has no value');
		expect(requests).toHaveLength(0);
	});

	it("with Continue On Fail, the item whose event has no location fails alone; the others read only their location's work orders", async () => {
		const { output, error } = await run(
			{
				resource: 'failure',
				operation: 'getAllOpen',
				returnAll: true,
				filters: { s_local_id: '={{ $json.payload.data.attributes.local_id }}' },
			},
			[
				{ payload: { data: { attributes: { local_id: 4 } } } },
				{ payload: { data: { id: 0, attributes: {} } } },
			],
			true,
		);
		expect(error).toBeUndefined();
		const failed = output.filter((item) => item.json.error);
		expect(failed).toEqual([
			{
				json: {
					error:
						'"Location ID" (s_local_id) is empty: its expression {{ $json.payload.data.attributes.local_id }} gave nothing (undefined)',
					description: expect.stringContaining('No request was sent for item 1.'),
					outcome: 'refusedBeforeSending',
				},
				pairedItem: { item: 1 },
			},
		]);
		const read = output.filter((item) => !item.json.error);
		expect(read.length).toBeGreaterThan(0);
		expect(read.every((item) => item.json.local_id === 4)).toBe(true);
		expect(read.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		expect((await fixture.requests()).map((r) => r.query.s_local_id)).toEqual(['4']);
	});
});

describe('a filter an AI model fills through $fromAI()', () => {
	/** As the editor's ✨ button sets it; outside an agent, n8n reads the value from the item's `query`. */
	const FROM_AI = "={{ $fromAI('Location_ID', '', 'string') }}";

	it('is left out when the model leaves it empty: the model chose not to filter', async () => {
		const { error, output } = await run(
			{ resource: 'failure', operation: 'getAllOpen', filters: { s_local_id: FROM_AI } },
			[{ query: { Location_ID: '' } }],
		);
		expect(error).toBeUndefined();
		expect(output.length).toBeGreaterThan(0);
		const [sent] = await fixture.requests();
		expect(sent.query).not.toHaveProperty('s_local_id');
	});

	it('filters by the value the model gives', async () => {
		const { error } = await run(
			{ resource: 'failure', operation: 'getAllOpen', filters: { s_local_id: FROM_AI } },
			[{ query: { Location_ID: '4' } }],
		);
		expect(error).toBeUndefined();
		expect((await fixture.requests()).map((r) => r.query.s_local_id)).toEqual(['4']);
	});

	it('in Query Parameters, is left out when the model leaves the value empty', async () => {
		const { error } = await run(
			{
				resource: 'failure',
				operation: 'getAll',
				options: {
					queryParameters: {
						parameters: [{ name: 's_problem_id', value: "={{ $fromAI('problem') }}" }],
					},
				},
			},
			[{ query: { problem: '' } }],
		);
		expect(error).toBeUndefined();
		expect(await firstQuery(fixture)).not.toHaveProperty('s_problem_id');
	});
});

describe('a query parameter that resolves to nothing', () => {
	const withParameters = (...parameters: IDataObject[]): IDataObject => ({
		resource: 'failure',
		operation: 'getAll',
		options: { queryParameters: { parameters } },
	});

	it('fails naming the parameter and what its value gave, and nothing is sent', async () => {
		const { error, requests } = await run(
			withParameters({ name: 's_problem_id', value: '={{ $json.problem }}' }),
		);
		expect(error?.context).toMatchObject({
			itemIndex: 0,
			fields: ['options.queryParameters.parameters[0].value'],
		});
		expect(error?.message).toContain('"s_problem_id"');
		expect(requests).toHaveLength(0);
	});

	it('fails when its name is blank, and nothing is sent', async () => {
		const { error, requests } = await run(withParameters({ name: '', value: '3' }));
		expect(error?.context).toMatchObject({
			itemIndex: 0,
			fields: ['options.queryParameters.parameters[0].name'],
		});
		expect(requests).toHaveLength(0);
	});

	it('sends the parameters that have a name and a value', async () => {
		const { error } = await run(
			withParameters(
				{ name: 's_problem_id', value: '={{ $json.problem }}' },
				{ name: ' sort ', value: 'start_date' },
			),
			[{ problem: 2 }],
		);
		expect(error).toBeUndefined();
		expect(await firstQuery(fixture)).toMatchObject({
			s_problem_id: '2',
			sort: 'start_date',
		});
	});
});

describe('a path ID that resolves to nothing', () => {
	it('is checked for every path ID of every operation', () => {
		expect(PATH_IDS.map((p) => p.label)).toContain('location get: Location');
	});

	it.each(PATH_IDS.map((p) => [p.label, p] as const))(
		'%s: says it is empty and what to do, and nothing is sent',
		async (_label, { resource, operation, parameter, displayName }) => {
			const parameters = caseOf(resource, operation);
			const given = parameters[parameter] as IDataObject | string;
			const { error, requests } = await run({
				...parameters,
				resource,
				operation,
				[parameter]: typeof given === 'object' ? { ...given, value: NOTHING } : NOTHING,
			});
			expect(error?.context).toMatchObject({ itemIndex: 0, fields: [parameter] });
			expect(error?.message).toBe(emptyValue(`"${displayName}"`, GAVE_NOTHING, '', 0).message);
			expect(requests).toHaveLength(0);
			expect(await fixture.requests()).toEqual([]);
		},
	);

	it('with Continue On Fail, only the item without an ID fails', async () => {
		const { output, error } = await run(
			{
				resource: 'location',
				operation: 'get',
				id: { __rl: true, mode: 'id', value: '={{ $json.location }}' },
			},
			[{ location: 3 }, { location: null }],
			true,
		);
		expect(error).toBeUndefined();
		expect(output).toEqual([
			{ json: expect.objectContaining({ id: '3' }), pairedItem: { item: 0 } },
			{
				json: expect.objectContaining({
					error: '"Location" is empty: its expression {{ $json.location }} gave null',
				}),
				pairedItem: { item: 1 },
			},
		]);
		expect(await fixture.requests()).toHaveLength(1);
	});
});
