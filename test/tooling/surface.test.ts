import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';

import type { ICredentialType, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { MaintenanceManagementApi } from '../../credentials/MaintenanceManagementApi.credentials';
import { MaintenanceManagementWebhookApi } from '../../credentials/MaintenanceManagementWebhookApi.credentials';
import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { MaintenanceManagementTrigger } from '../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import {
	packageSurface,
	recordedFiles,
	recordedSurfaces,
	recordingRefusal,
} from '../../scripts/recordSurface';
import { withOutputs } from '../../scripts/outputs';
import {
	compareSurfaces,
	describeBreak,
	surfaceOf,
	whatChanged,
	type Shape,
	type Surface,
} from '../../scripts/surface';

const ROOT = join(__dirname, '..', '..');
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
};

/**
 * The package's surface now, read from the sources' descriptions and their output items (npm run
 * test:fast builds nothing).
 */
let current: Surface;
beforeAll(async () => {
	const nodes = [new MaintenanceManagement(), new MaintenanceManagementTrigger()];
	current = await withOutputs(
		surfaceOf({
			package: MANIFEST.name,
			version: MANIFEST.version,
			nodes: nodes.map((node) => node.description),
			credentials: [new MaintenanceManagementApi(), new MaintenanceManagementWebhookApi()],
		}),
		nodes,
	);
}, 120_000);

describe('every recorded release (surface/<version>.json)', () => {
	const recorded = recordedSurfaces();

	it('holds a surface and its tarball per version, the surface read from that tarball as written', async () => {
		const files = readdirSync(join(ROOT, 'surface')).sort();
		expect(recorded.length).toBeGreaterThan(0);
		// Beside each record and tarball, the release may hold its deliberate changes (<version>.changes.json).
		expect(files.filter((file) => !file.endsWith('.changes.json'))).toEqual(
			recorded.flatMap(({ version }) => [`${version}.json`, `${version}.tgz`]).sort(),
		);
		// A record is written by npm run surface alone: one edited by hand, or by a rename run over the
		// repository, differs from its tarball's build.
		for (const surface of recorded) {
			const dir = mkdtempSync(join(tmpdir(), 'mm-surface-'));
			try {
				execFileSync('tar', ['-xzf', recordedFiles(surface.version).tarball, '-C', dir]);
				// n8n-workflow and zod, as n8n provides them to an installed package.
				symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
				const built = await packageSurface(join(dir, 'package'));
				if (!isDeepStrictEqual(built, surface))
					throw new Error(
						[
							`surface/${surface.version}.json is not what npm run surface wrote from the build in surface/${surface.version}.tgz. A record is written by that command alone: restore it (git checkout -- surface/). Changes from the build to the record, then back:`,
							...[...compareSurfaces(built, surface), ...compareSurfaces(surface, built)].map(
								(item) => `- ${whatChanged(item)}`,
							),
						].join('\n'),
					);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		}
	});

	it.each(recorded.map((surface) => [surface.version, surface] as const))(
		'%s: its saved workflows and credentials mean the same to the nodes now',
		(version, surface) => {
			const breaks = compareSurfaces(surface, current).map(describeBreak);
			if (breaks.length)
				throw new Error(
					`${breaks.length} change${breaks.length > 1 ? 's' : ''} since ${version} alter what workflows or credentials saved with it do (CONTRIBUTING.md, "Changing what users saved"):\n- ${breaks.join('\n- ')}`,
				);
		},
	);
});

/* The comparison, on small synthetic descriptions. */

const PACKAGE = 'n8n-nodes-example';

const node = (
	properties: INodeProperties[],
	extra: Partial<INodeTypeDescription> = {},
): INodeTypeDescription =>
	({
		name: 'example',
		version: [1, 2],
		credentials: [{ name: 'exampleApi', required: true }],
		properties,
		...extra,
	}) as INodeTypeDescription;

const credential = (properties: INodeProperties[], name = 'exampleApi') =>
	({ name, displayName: 'Example API', properties }) as ICredentialType;

const surface = (nodes: INodeTypeDescription[], credentials: ICredentialType[] = []): Surface =>
	surfaceOf({ package: PACKAGE, version: '0.0.0', nodes, credentials });

const resource: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	options: [
		{ name: 'Order', value: 'order' },
		{ name: 'Item', value: 'item' },
	],
	default: 'order',
};
const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	options: [
		{ name: 'Get', value: 'get', action: 'Get an order' },
		{ name: 'Create', value: 'create', action: 'Create an order' },
	],
	default: 'get',
	displayOptions: { show: { resource: ['order'] } },
};
const forOrders = (operations: string[]) => ({
	show: { resource: ['order'], operation: operations },
});
const code: INodeProperties = {
	displayName: 'Code',
	name: 'code',
	type: 'string',
	default: '',
	displayOptions: forOrders(['get', 'create']),
};
const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	default: {},
	displayOptions: forOrders(['get']),
	options: [
		{ displayName: 'Timeout', name: 'timeout', type: 'number', default: 30 },
		{
			displayName: 'Headers',
			name: 'headers',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			options: [
				{
					displayName: 'Header',
					name: 'header',
					values: [{ displayName: 'Name', name: 'name', type: 'string', default: '' }],
				},
			],
		},
	],
};
const locator: INodeProperties = {
	displayName: 'Order',
	name: 'order',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	modes: [
		{ displayName: 'From List', name: 'list', type: 'list' },
		{ displayName: 'By ID', name: 'id', type: 'string' },
	],
	displayOptions: forOrders(['get']),
};
const BASE = [resource, operation, code, options, locator];
const token: INodeProperties = {
	displayName: 'Access Token',
	name: 'accessToken',
	type: 'string',
	typeOptions: { password: true },
	required: true,
	default: '',
};
const recordedRelease = surface([node(BASE)], [credential([token])]);

/** The breaks from the recorded release to one with these nodes and credentials, as lines. */
const breaksTo = (nodes: INodeTypeDescription[], credentials = [credential([token])]) =>
	compareSurfaces(recordedRelease, surface(nodes, credentials)).map(describeBreak);

/** BASE with one property replaced by `by` (or left out, for none). */
const replacing = (name: string, ...by: INodeProperties[]) =>
	BASE.flatMap((property) => (property.name === name ? by : [property]));
const withOptionsFields = (fields: INodeProperties[]) =>
	replacing('options', { ...options, options: fields });

const FIX_NODE = (version: number) =>
	`Fix: keep what was saved as it was, or make the change in a new type version 3 (add it to the node's version list and defaultVersion) and keep type version ${version}'s description with @version conditions.`;
const NODE = `node ${PACKAGE}.example`;

describe('compareSurfaces', () => {
	it('finds nothing between a surface and itself', () => {
		expect(compareSurfaces(recordedRelease, recordedRelease)).toEqual([]);
	});

	describe('fails on each change that alters what a saved workflow or credential does', () => {
		it('a parameter renamed, naming the node, each type version, its path and where it was shown', () => {
			expect(breaksTo([node(replacing('code', { ...code, name: 'orderCode' }))])).toEqual(
				[1, 2].map(
					(version) =>
						`${NODE}, type version ${version}, parameter "code": removed or renamed. ${FIX_NODE(version)}`,
				),
			);
		});

		it("a collection's field renamed, by its path inside the collection", () => {
			const fields = [{ ...options.options![0], name: 'timeoutSeconds' }, options.options![1]];
			expect(breaksTo([node(withOptionsFields(fields as INodeProperties[]))])).toEqual(
				[1, 2].map(
					(version) =>
						`${NODE}, type version ${version}, parameter "options.timeout" (shown for operation=get, resource=order): removed or renamed. ${FIX_NODE(version)}`,
				),
			);
		});

		it("a fixed collection's group or its field renamed, by its path through the group", () => {
			const headers = options.options![1] as INodeProperties;
			const [group] = headers.options as Array<{
				name: string;
				displayName: string;
				values: INodeProperties[];
			}>;
			const renamedGroup = { ...headers, options: [{ ...group, name: 'entry' }] };
			const renamedField = {
				...headers,
				options: [{ ...group, values: [{ ...group.values[0], name: 'key' }] }],
			};
			expect(
				breaksTo([node(withOptionsFields([options.options![0] as INodeProperties, renamedGroup]))]),
			).toEqual([
				expect.stringContaining(
					'type version 1, parameter "options.headers.header" (shown for operation=get, resource=order): removed or renamed.',
				),
				expect.stringContaining('type version 2, parameter "options.headers.header"'),
			]);
			expect(
				breaksTo([node(withOptionsFields([options.options![0] as INodeProperties, renamedField]))]),
			).toEqual([
				expect.stringContaining('type version 1, parameter "options.headers.header.name"'),
				expect.stringContaining('type version 2, parameter "options.headers.header.name"'),
			]);
		});

		it('a credential property renamed, saying a credential has no type versions', () => {
			expect(breaksTo([node(BASE)], [credential([{ ...token, name: 'apiToken' }])])).toEqual([
				'credential exampleApi, property "accessToken": removed or renamed. Fix: keep what was saved as it was: a credential type has no type versions, and every saved credential holds its properties by name; add an optional property beside it instead.',
				'credential exampleApi, property "apiToken": added as required where saved workflows lack it. Fix: keep what was saved as it was: a credential type has no type versions, and every saved credential holds its properties by name; add an optional property beside it instead.',
			]);
		});

		it("an option's value renamed or removed, naming the value", () => {
			const renamed = {
				...operation,
				options: [
					{ name: 'Get', value: 'read', action: 'Get an order' },
					{ name: 'Create', value: 'create', action: 'Create an order' },
				],
			};
			expect(breaksTo([node(replacing('operation', renamed))])).toEqual([
				expect.stringContaining(
					'type version 1, parameter "operation" (shown for resource=order): option value "get" removed or renamed.',
				),
				expect.stringContaining('type version 2, parameter "operation"'),
			]);
		});

		it('a type changed', () => {
			expect(breaksTo([node(replacing('code', { ...code, type: 'number', default: 0 }))])).toEqual(
				expect.arrayContaining([
					expect.stringContaining(
						'type version 1, parameter "code" (shown for operation=get, resource=order | operation=create, resource=order): type changed from string to number.',
					),
				]),
			);
		});

		it('a fixed collection changed from a list of values to one', () => {
			const headers = { ...(options.options![1] as INodeProperties), typeOptions: {} };
			expect(
				breaksTo([node(withOptionsFields([options.options![0] as INodeProperties, headers]))]),
			).toEqual([
				expect.stringContaining(
					'parameter "options.headers" (shown for operation=get, resource=order): now holds one value, where it held a list (multipleValues).',
				),
				expect.stringContaining('type version 2, parameter "options.headers"'),
			]);
		});

		it('a field made required, and a new parameter required where saved workflows run', () => {
			expect(breaksTo([node(replacing('code', { ...code, required: true }))])).toEqual([
				expect.stringContaining('type version 1, parameter "code" (shown for'),
				expect.stringContaining('type version 2, parameter "code"'),
			]);
			expect(breaksTo([node(replacing('code', { ...code, required: true }))])[0]).toContain(
				': made required.',
			);
			const reference = { ...code, name: 'reference', required: true };
			expect(breaksTo([node([...BASE, reference])])).toEqual([
				expect.stringContaining(
					'type version 1, parameter "reference" (shown for operation=get, resource=order | operation=create, resource=order): added as required where saved workflows lack it.',
				),
				expect.stringContaining('type version 2, parameter "reference"'),
			]);
		});

		it('a default changed, showing both values', () => {
			const fields = [{ ...options.options![0], default: 60 }, options.options![1]];
			expect(breaksTo([node(withOptionsFields(fields as INodeProperties[]))])).toEqual([
				expect.stringContaining(
					'type version 1, parameter "options.timeout" (shown for operation=get, resource=order): default changed from 30 to 60.',
				),
				expect.stringContaining('type version 2, parameter "options.timeout"'),
			]);
		});

		it('displayOptions narrowed, naming each situation where it is no longer shown', () => {
			const narrowings: Array<[string, INodeProperties['displayOptions'], string]> = [
				['a value dropped', forOrders(['get']), 'operation=create, resource=order'],
				[
					'a condition added',
					{ show: { ...forOrders(['get', 'create']).show, returnAll: [false] } },
					'operation=get, resource=order | operation=create, resource=order',
				],
				[
					'a hide condition added',
					{ ...forOrders(['get', 'create']), hide: { returnAll: [true] } },
					'operation=get, resource=order | operation=create, resource=order',
				],
				[
					'hidden where it was shown',
					{ ...forOrders(['get', 'create']), hide: { operation: ['create'] } },
					'operation=create, resource=order',
				],
			];
			for (const [why, displayOptions, where] of narrowings)
				expect({
					why,
					breaks: breaksTo([node(replacing('code', { ...code, displayOptions }))]),
				}).toEqual({
					why,
					breaks: [1, 2].map(
						(version) =>
							`${NODE}, type version ${version}, parameter "code" (shown for ${where}): no longer shown there (its displayOptions narrowed). ${FIX_NODE(version)}`,
					),
				});
		});

		it("a credential type's use shown in fewer situations", () => {
			const shownFor = (resources: string[]) =>
				node(BASE, {
					credentials: [
						{
							name: 'exampleApi',
							required: true,
							displayOptions: { show: { resource: resources } },
						},
					],
				});
			expect(
				compareSurfaces(surface([shownFor(['order', 'item'])]), surface([shownFor(['order'])])).map(
					describeBreak,
				),
			).toEqual([
				`${NODE}, type version 1, parameter "credentials.exampleApi" (shown for resource=item): no longer shown there (its displayOptions narrowed). ${FIX_NODE(1)}`,
				`${NODE}, type version 2, parameter "credentials.exampleApi" (shown for resource=item): no longer shown there (its displayOptions narrowed). ${FIX_NODE(2)}`,
			]);
		});

		it('a change made in a recorded type version through @version, naming that version only', () => {
			const fromVersion2 = {
				...code,
				displayOptions: { show: { ...code.displayOptions!.show, '@version': [2] } },
			};
			expect(breaksTo([node(replacing('code', fromVersion2))])).toEqual([
				`${NODE}, type version 1, parameter "code": removed or renamed. ${FIX_NODE(1)}`,
			]);
		});

		it('a resource locator mode removed', () => {
			const idOnly = { ...locator, default: { mode: 'id', value: '' }, modes: [locator.modes![1]] };
			expect(breaksTo([node(replacing('order', idOnly))])).toEqual([
				expect.stringContaining(
					'type version 1, parameter "order" (shown for operation=get, resource=order): default changed from {"mode":"list","value":""} to {"mode":"id","value":""}.',
				),
				expect.stringContaining(
					'type version 1, parameter "order" (shown for operation=get, resource=order): resource locator mode "list" removed or renamed.',
				),
				expect.stringContaining('type version 2, parameter "order"'),
				expect.stringContaining('type version 2, parameter "order"'),
			]);
		});

		it('a type version, node type, credential type, credential use or webhook removed', () => {
			expect(breaksTo([node(BASE, { version: 2 })])).toEqual([
				`${NODE}, type version 1: type version removed. Fix: keep 1 in the node's version list, with its description: workflows saved at it name it.`,
			]);
			expect(breaksTo([node(BASE, { name: 'sample' })])).toEqual([
				`${NODE}: node type removed or renamed. Fix: keep the node and its type name: every saved workflow names it.`,
			]);
			expect(breaksTo([node(BASE)], [credential([token], 'sampleApi')])).toEqual([
				'credential exampleApi: credential type removed or renamed. Fix: keep the credential type and its name: every saved credential and node names it.',
			]);
			expect(breaksTo([node(BASE, { credentials: [{ name: 'sampleApi' }] })])).toEqual([
				expect.stringContaining(
					'type version 1, parameter "credentials.exampleApi": removed or renamed.',
				),
				expect.stringContaining('type version 2, parameter "credentials.exampleApi"'),
			]);
			const hooked = (path: string) =>
				node(BASE, {
					webhooks: [{ name: 'default', httpMethod: 'POST', path, responseMode: 'onReceived' }],
				});
			expect(
				compareSurfaces(surface([hooked('webhook')]), surface([hooked('hook')])).map(describeBreak),
			).toEqual([
				expect.stringContaining(
					'type version 1, parameter "webhooks.POST webhook": webhook removed or moved: the URL the service calls changes.',
				),
				expect.stringContaining('type version 2, parameter "webhooks.POST webhook"'),
			]);
		});

		it('names every break at once, one line each', () => {
			const breaks = breaksTo(
				[node(replacing('code', { ...code, name: 'orderCode' }), { version: [2] })],
				[credential([{ ...token, name: 'apiToken', required: undefined }])],
			);
			expect(breaks).toEqual([
				expect.stringContaining('type version 1: type version removed'),
				expect.stringContaining('type version 2, parameter "code": removed or renamed'),
				expect.stringContaining(
					'credential exampleApi, property "accessToken": removed or renamed',
				),
			]);
		});
	});

	describe('passes additions, and what a saved workflow does not hold', () => {
		it.each<[string, INodeTypeDescription[], ICredentialType[]?]>([
			['a new optional parameter', [node([...BASE, { ...code, name: 'note' }])]],
			[
				'a new field in a collection',
				[
					node(
						withOptionsFields([
							...(options.options as INodeProperties[]),
							{ ...code, name: 'note', displayOptions: undefined },
						]),
					),
				],
			],
			[
				'a new option value',
				[
					node(
						replacing('resource', {
							...resource,
							options: [...resource.options!, { name: 'Invoice', value: 'invoice' }],
						}),
					),
				],
			],
			[
				'a new operation with its own required parameter',
				[
					node([
						...replacing('operation', {
							...operation,
							options: [
								...operation.options!,
								{ name: 'Delete', value: 'delete', action: 'Delete an order' },
							],
						}),
						{ ...code, name: 'confirm', required: true, displayOptions: forOrders(['delete']) },
					]),
				],
			],
			[
				'a new type version, its changes behind @version',
				[
					node(
						[
							...replacing('code', {
								...code,
								displayOptions: { show: { ...code.displayOptions!.show, '@version': [1, 2] } },
							}),
							{
								...code,
								name: 'orderCode',
								required: true,
								displayOptions: {
									show: { ...code.displayOptions!.show, '@version': [{ _cnd: { gte: 3 } }] },
								},
							},
						],
						{ version: [1, 2, 3], defaultVersion: 3 },
					),
				],
			],
			[
				'new display names, descriptions, option names and placeholders',
				[
					node(
						BASE.map((property) => ({
							...property,
							displayName: `${property.displayName} (new)`,
							description: 'Reworded',
							placeholder: 'e.g. something',
							...(property.type === 'options'
								? {
										options: (property.options as Array<{ name: string; value: string }>).map(
											(o) => ({ ...o, name: `${o.name} (new)` }),
										),
									}
								: {}),
						})) as INodeProperties[],
					),
				],
			],
			[
				'a field no longer required',
				[node(BASE)],
				[credential([{ ...token, required: undefined }])],
			],
			[
				'displayOptions broadened',
				[
					node(
						replacing('code', {
							...code,
							displayOptions: { show: { resource: ['order', 'item'] } },
						}),
					),
				],
			],
			[
				'a new credential property',
				[node(BASE)],
				[credential([token, { ...code, name: 'region', displayOptions: undefined }])],
			],
		])('%s', (...[, nodes, credentials]) => {
			expect(breaksTo(nodes, credentials)).toEqual([]);
		});
	});
});

describe('surfaceOf', () => {
	it('resolves @version conditions for each type version, and leaves out what n8n does not save', () => {
		const notice = {
			displayName: 'Note',
			name: 'note',
			type: 'notice',
			default: '',
		} as INodeProperties;
		const output: INodeProperties = {
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [{ name: 'Raw', value: 'raw' }],
			default: 'raw',
			displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }], resource: ['order'] } },
		};
		const simplify: INodeProperties = {
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			displayOptions: { hide: { '@version': [{ _cnd: { gte: 2 } }] } },
		};
		const { versions } = surface([node([notice, output, simplify])]).nodes[`${PACKAGE}.example`];
		expect(versions['1'].parameters).toEqual([
			{ name: 'simplify', type: 'boolean', default: true },
		]);
		expect(versions['2'].parameters).toEqual([
			{
				name: 'output',
				type: 'options',
				default: 'raw',
				values: ['raw'],
				displayOptions: { show: { resource: ['order'] } },
			},
		]);
	});

	it("records the package's nodes by their full type name, and the credentials by theirs", () => {
		expect(Object.keys(current.nodes)).toEqual([
			`${MANIFEST.name}.maintenanceManagement`,
			`${MANIFEST.name}.maintenanceManagementTrigger`,
		]);
		expect(Object.keys(current.credentials)).toEqual([
			'maintenanceManagementApi',
			'maintenanceManagementWebhookApi',
		]);
		expect(current.credentials.maintenanceManagementApi.properties.map((p) => p.name)).toEqual([
			'accessToken',
			'environment',
			'productionBaseUrl',
			'sandboxBaseUrl',
		]);
	});
});

describe('the output items saved workflows read', () => {
	const ACTION = `${MANIFEST.name}.maintenanceManagement`;
	const TRIGGER = `${MANIFEST.name}.maintenanceManagementTrigger`;

	it("records every operation's items in each Output choice and On Error mode, and the trigger's item, from running the nodes", () => {
		const v1 = current.nodes[ACTION].versions['1'].outputs ?? {};
		const v2 = current.nodes[ACTION].versions['2'].outputs ?? {};
		expect(v2['material.create simplified']).toMatchObject({
			id: 'string',
			code: 'string',
			sale_price: 'number',
		});
		expect(v2['material.create raw']).toMatchObject({
			id: 'string',
			type: 'string',
			'attributes.code': 'string',
		});
		expect(v2['material.create selected']).toMatchObject({ id: 'string', code: 'string' });
		expect(v1['failure.getAll simplify=false']).toMatchObject({
			'attributes.code': 'string',
			'attributes.priority': 'number',
		});
		expect(v2['material.create error continueErrorOutput']).toEqual({
			error: 'object',
			'error.message': 'string',
			'error.outcome': 'string',
			'error.description': 'string',
		});
		expect(v2['material.create error continueRegularOutput']).toMatchObject({
			error: 'string',
			outcome: 'string',
		});
		expect(v2['material.create error stopWorkflow']).toMatchObject({
			message: 'string',
			'context.itemIndex': 'number',
		});
		// Every operation of each version, in each of its choices and modes.
		for (const [version, choices] of [
			['1', ['simplify=true', 'simplify=false']],
			['2', ['simplified', 'raw', 'selected']],
		] as const) {
			const cases = Object.keys(current.nodes[ACTION].versions[version].outputs ?? {});
			const operations = new Set(cases.map((name) => name.split(' ')[0]));
			expect(operations.size).toBe(22);
			for (const operation of operations)
				for (const mode of ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'])
					expect(cases).toContain(`${operation} error ${mode}`);
			expect(
				cases.filter((name) => choices.some((choice) => name.endsWith(` ${choice}`))).length,
			).toBeGreaterThanOrEqual(20);
		}
		for (const version of ['1', '2'])
			expect(current.nodes[TRIGGER].versions[version].outputs?.['delivery PATCH']).toMatchObject({
				event: 'string',
				method: 'string',
				receivedAt: 'string',
				payload: 'object',
				'payload.data.id': 'string',
				'query.source': 'string',
			});
	});

	/** The current surface with one case's item shape changed by `change`. */
	const changed = (
		node: string,
		version: string,
		output: string,
		change: (shape: Shape) => Shape,
	): Surface => {
		const copy = JSON.parse(JSON.stringify(current)) as Surface;
		const outputs = copy.nodes[node].versions[version].outputs!;
		outputs[output] = change({ ...outputs[output] });
		return copy;
	};
	const breaksFrom = (recorded: Surface) => compareSurfaces(recorded, current).map(describeBreak);
	const without = (shape: Shape, key: string) => {
		delete shape[key];
		return shape;
	};

	it('names a Simplified key removed or renamed: node, type version, output, key path and the fix', () => {
		// As recorded, the item held `codename`; the nodes now output `code` in its place.
		const recorded = changed(ACTION, '2', 'material.create simplified', (shape) => ({
			...without(shape, 'code'),
			codename: 'string',
		}));
		expect(breaksFrom(recorded)).toEqual([
			`node ${ACTION}, type version 2, output "material.create simplified", key "codename": removed or renamed. Fix: keep the key where it was, with its type (adding keys is fine), or make the change in a new type version 3 (add it to the node's version list and defaultVersion) whose type version 2 keeps its output as it was.`,
		]);
	});

	it("names a trigger item's key moved into its payload, and one moved out of it", () => {
		const recorded = changed(TRIGGER, '2', 'delivery POST', (shape) => ({
			...without(shape, 'payload.data.id'),
			'payload.data.record_id': 'string',
		}));
		expect(breaksFrom(recorded)).toEqual([
			expect.stringContaining(
				'output "delivery POST", key "payload.data.record_id": removed or renamed.',
			),
		]);
		// Recorded at the top level, now only inside the payload: a key moved between the item and its payload.
		const moved = changed(TRIGGER, '1', 'delivery PATCH', (shape) => ({
			...without(shape, 'payload.data.attributes.code'),
			code: 'string',
		}));
		expect(compareSurfaces(moved, current).map(whatChanged)).toEqual([
			`node ${TRIGGER}, type version 1, output "delivery PATCH", key "code": moved to "payload.data.attributes.code".`,
		]);
	});

	it("names a key whose type changed, and an error item's key in one On Error mode", () => {
		const retyped = changed(ACTION, '1', 'material.create simplify=true', (shape) => ({
			...shape,
			sale_price: 'string',
		}));
		expect(compareSurfaces(retyped, current).map(whatChanged)).toEqual([
			`node ${ACTION}, type version 1, output "material.create simplify=true", key "sale_price": type changed from string to number.`,
		]);
		const errorKey = changed(ACTION, '2', 'work.create error continueErrorOutput', (shape) => ({
			...shape,
			'error.reason': 'string',
		}));
		expect(compareSurfaces(errorKey, current).map(whatChanged)).toEqual([
			`node ${ACTION}, type version 2, output "work.create error continueErrorOutput", key "error.reason": removed or renamed.`,
		]);
	});

	it('passes added keys and a type widened, and names an output case the nodes no longer give', () => {
		const fewer = changed(ACTION, '2', 'supplier.update raw', (shape) =>
			without(shape, 'attributes.city'),
		);
		expect(compareSurfaces(fewer, current)).toEqual([]);
		const narrower = changed(ACTION, '2', 'supplier.update raw', (shape) => ({
			...shape,
			'attributes.city': 'string',
		}));
		expect(compareSurfaces(narrower, current)).toEqual([]);
		const extra = JSON.parse(JSON.stringify(current)) as Surface;
		extra.nodes[ACTION].versions['2'].outputs!['supplier.delete raw'] = { id: 'string' };
		expect(compareSurfaces(extra, current).map(whatChanged)).toEqual([
			`node ${ACTION}, type version 2, output "supplier.delete raw": no longer output (the operation, Output choice or On Error case is gone).`,
		]);
	});
});

describe('recordingRefusal', () => {
	const state = { version: '0.2.0', recorded: false, tagged: false };

	it('records a version neither recorded nor tagged', () => {
		expect(recordingRefusal(state)).toBeUndefined();
	});

	it('refuses a recorded version, tagged or not, saying what to record instead', () => {
		const refusal =
			'0.2.0 is recorded already (surface/0.2.0.json and .tgz), and a record is never rewritten: the surface test holds the nodes to it. Record the next version instead (npm version patch, or npm run release -- patch).';
		expect(recordingRefusal({ ...state, recorded: true })).toBe(refusal);
		expect(recordingRefusal({ ...state, recorded: true, tagged: true })).toBe(refusal);
	});

	it('refuses a tagged release that has no record', () => {
		expect(recordingRefusal({ ...state, tagged: true })).toBe(
			'0.2.0 is released (tag v0.2.0) without a record: a release is recorded by its release commit, from its own build. Record the next version instead (npm run release -- patch).',
		);
	});
});
