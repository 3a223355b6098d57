import type { IDataObject } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { keepsContract } from '../../helpers/contract';
import { firstPageQuery } from '../../helpers/paging';
import { fromInput, runNode, type Credentials } from '../helpers/harness';
import { apiError, ScriptedServer } from '../../helpers/scriptedServer';
import { locationUpdatedTwice, notConfirmed } from '../../../nodes/shared/errors/messages';

const TOKEN = 'loc_token_8d7e6f5a4b3c';
const server = new ScriptedServer({ contract: true });
keepsContract(() => server, ['request']);
let credentials: Credentials;
const node = new MaintenanceManagement();

beforeAll(async () => {
	await server.start();
	credentials = { accessToken: TOKEN, environment: 'sandbox', sandboxBaseUrl: `${server.url}/v3` };
});
afterAll(async () => await server.stop());

/** Answers PATCH /locations by echoing each element as a location resource. */
const echoLocations = () =>
	server.reset((request) => {
		const { locations } = request.body as { locations: Array<Record<string, unknown>> };
		return {
			status: 200,
			body: {
				data: locations.map(({ id, ...attributes }) => ({
					id: String(id),
					type: 'location',
					attributes,
				})),
				meta: {},
			},
		};
	});

const updateMany = (items: IDataObject[], continueOnFail = false) =>
	runNode({
		node,
		credentials,
		continueOnFail,
		items,
		parameters: {
			resource: 'location',
			operation: 'updateMany',
			id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
			updateFields: fromInput('name', 'orientation', 'area', 'code'),
		},
	});

describe('Location: Update Many', () => {
	it('groups 120 items into requests of at most 50 and pairs each output with its input', async () => {
		echoLocations();
		const items = Array.from({ length: 120 }, (_, i) => ({
			id: i + 1,
			fields: { name: `Room ${i + 1}` },
		}));
		const { output, error } = await updateMany(items);
		expect(error).toBeUndefined();
		expect(
			server.requests.map((r) => (r.body as { locations: unknown[] }).locations.length),
		).toEqual([50, 50, 20]);
		expect(server.requests.every((r) => r.method === 'PATCH' && r.path === '/v3/locations')).toBe(
			true,
		);
		expect(output).toHaveLength(120);
		output.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toMatchObject({
				id: String(index + 1),
				type: 'location',
				name: `Room ${index + 1}`,
			});
		});
	});

	it.each([
		[{ orientation: 'Up' }, 'orientation'],
		[{}, 'updateFields'],
		[{ code: '   ' }, 'code'],
	])('rejects %j before sending anything, naming the field', async (fields, field) => {
		echoLocations();
		const { error } = await updateMany([{ id: 4, fields }]);
		expect(error?.context).toMatchObject({ itemIndex: 0 });
		expect(error?.context?.fields).toEqual([field]);
		expect(server.requests).toHaveLength(0);
	});

	it('rejects a location ID that is not a number', async () => {
		echoLocations();
		const { error } = await updateMany([{ id: 'abc', fields: { name: 'X' } }]);
		expect(error?.context).toMatchObject({ itemIndex: 0 });
		expect(error?.context?.fields).toEqual(['id']);
		expect(server.requests).toHaveLength(0);
	});

	it('with Continue On Fail, a bad item yields an error item and the others are still sent', async () => {
		echoLocations();
		const { output, error } = await updateMany(
			[
				{ id: 1, fields: { name: 'A' } },
				{ id: 2, fields: { orientation: 'Sideways' } },
				{ id: 3, fields: { area: 12.5 } },
			],
			true,
		);
		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(1);
		expect((server.requests[0].body as { locations: unknown[] }).locations).toEqual([
			{ id: 1, name: 'A' },
			{ id: 3, area: 12.5 },
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[1].json).toMatchObject({ outcome: 'refusedBeforeSending' });
		expect(output[1].json.error).toContain('"orientation"');
		expect(output[2].json).toMatchObject({ id: '3', area: 12.5 });
	});

	it('with Continue On Fail, a failed request marks every item of its group and keeps the other groups', async () => {
		server.reset((request, index) => {
			if (index === 0) {
				return apiError(400, {
					message: 'Property validation error.',
					properties: { 'locations[0].code': ['Code already used.'] },
				});
			}
			const { locations } = request.body as { locations: Array<{ id: number }> };
			return {
				status: 200,
				body: {
					data: locations.map(({ id }) => ({ id: String(id), type: 'location', attributes: {} })),
				},
			};
		});
		const items = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, fields: { code: `C${i}` } }));
		const { output } = await updateMany(items, true);
		expect(output).toHaveLength(60);
		expect(
			output.slice(0, 50).every((item) => String(item.json.error).includes('Code already used.')),
		).toBe(true);
		expect(output.slice(50).every((item) => item.json.error === undefined)).toBe(true);
		expect(JSON.stringify(output)).not.toContain(TOKEN);
	});
});

describe('Location: Update Many, answers and input that do not pair up', () => {
	/** Answers with the echoed locations, each replaced by null where `nulls` says so. */
	const answerWithNulls = (nulls: number[]) =>
		server.reset((request) => {
			const { locations } = request.body as { locations: Array<{ id: number }> };
			return {
				status: 200,
				body: {
					data: locations.map(({ id }, index) =>
						nulls.includes(index) ? null : { id: String(id), type: 'location', attributes: {} },
					),
					meta: {},
				},
			};
		});

	it('a null element in the answer fails only the item it stands for', async () => {
		answerWithNulls([1]);
		const items = [1, 2, 3].map((id) => ({ id, fields: { name: `N${id}` } }));
		const { output, error } = await updateMany(items, true);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ id: '1', type: 'location' });
		const { message, description } = notConfirmed(1, 'PATCH');
		expect(output[1].json).toEqual({ error: message, description, outcome: 'unknown' });
		expect(output[2].json).toMatchObject({ id: '3', type: 'location' });
		expect(JSON.stringify(output)).not.toMatch(/Cannot read properties/);
	});

	it('without Continue On Fail, a null element stops the run naming its item', async () => {
		answerWithNulls([0]);
		const { error } = await updateMany([{ id: 1, fields: { name: 'A' } }]);
		expect(error).toMatchObject(notConfirmed(0, 'PATCH'));
		expect(error?.context).toMatchObject({ itemIndex: 0, outcome: 'unknown' });
	});

	it('refuses the same location twice, naming both items, before anything is sent', async () => {
		echoLocations();
		const { error } = await updateMany([
			{ id: 7, fields: { name: 'First' } },
			{ id: 8, fields: { name: 'Other' } },
			{ id: 7, fields: { code: 'Second' } },
		]);
		expect(error).toMatchObject(locationUpdatedTwice(2, '7', 0));
		expect(error?.context).toMatchObject({ itemIndex: 2, fields: ['id'] });
		expect(server.requests).toHaveLength(0);
	});

	it('with Continue On Fail, the repeated item is an error item and the first change is sent', async () => {
		echoLocations();
		const { output, error } = await updateMany(
			[
				{ id: 7, fields: { name: 'First' } },
				{ id: 7, fields: { name: 'Second' } },
			],
			true,
		);
		expect(error).toBeUndefined();
		expect((server.requests[0].body as { locations: unknown[] }).locations).toEqual([
			{ id: 7, name: 'First' },
		]);
		expect(output[0].json).toMatchObject({ id: '7', name: 'First' });
		expect(output[1].json.error).toBe(locationUpdatedTwice(1, '7', 0).message);
		expect(output[1].pairedItem).toEqual({ item: 1 });
	});
});

describe('Location: Get and Get Many', () => {
	it('Get returns whichever location type the API answers with, simplified', async () => {
		server.reset(() => ({
			status: 200,
			body: {
				data: { id: '12', type: 'location-folder', attributes: { name: 'Floor 1', parent_id: 1 } },
			},
		}));
		const { output } = await runNode({
			node,
			credentials,
			parameters: {
				resource: 'location',
				operation: 'get',
				id: { __rl: true, mode: 'list', value: '12' },
			},
		});
		expect(server.requests[0].path).toBe('/v3/locations/12');
		expect(output.map((item) => item.json)).toEqual([
			{ id: '12', type: 'location-folder', name: 'Floor 1', parent_id: 1 },
		]);
	});

	it('Get Many sends with_assets_count and extra query parameters', async () => {
		server.reset(() => ({ status: 200, body: { data: [], links: {} } }));
		await runNode({
			node,
			credentials,
			parameters: {
				resource: 'location',
				operation: 'getAll',
				filters: { with_assets_count: true },
				options: {
					queryParameters: {
						parameters: [{ name: 's_name_like', value: 'Hall' }],
					},
				},
			},
		});
		expect(server.requests[0].query).toEqual(
			firstPageQuery(50, { with_assets_count: 'true', s_name_like: 'Hall' }),
		);
	});
});
