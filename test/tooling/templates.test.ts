import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { MaintenanceManagementTrigger } from '../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { APPROVAL_WEBHOOK_ID, exampleWorkflows, template, TEMPLATES } from '../../scripts/examples';
import {
	templateProblems,
	workflowShapeProblems,
	type KnownType,
} from '../../scripts/verify/templates';
import { templateHarms } from '../../scripts/verify/templateRules';

const ROOT = join(__dirname, '..', '..');
const { N8N_DIR } = createRequire(__filename)('../../scripts/runtime.js') as { N8N_DIR: string };
const FILES = readdirSync(join(ROOT, 'workflows')).sort();
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, 'workflows', file), 'utf8'));

const versionsOf = ({ version }: INodeTypeDescription): number[] =>
	Array.isArray(version) ? version : [version];
/** The version n8n gives a node added by hand: its default version, else its newest. */
const currentVersion = (description: INodeTypeDescription): number =>
	description.defaultVersion ?? Math.max(...versionsOf(description));

const PACKAGE_NODES: Record<string, INodeType> = {
	'n8n-nodes-maintenance-management.maintenanceManagement': new MaintenanceManagement(),
	'n8n-nodes-maintenance-management.maintenanceManagementTrigger':
		new MaintenanceManagementTrigger(),
};
const knownByPackage: KnownType = (type, version) =>
	type in PACKAGE_NODES && versionsOf(PACKAGE_NODES[type].description).includes(version);

/** n8n-nodes-base's node types in the pinned n8n, once `npm test`'s end-to-end step or dev installed it. */
const BASE_TYPES = join(N8N_DIR, 'node_modules', 'n8n-nodes-base', 'dist', 'types', 'nodes.json');
const itWithN8n = existsSync(BASE_TYPES) ? it : it.skip;
const baseTypes = (): Array<{ name: string; version: number | number[] }> =>
	JSON.parse(readFileSync(BASE_TYPES, 'utf8'));

describe('the templates in workflows/', () => {
	it('are the examples npm run dev imports, one file each, with its IDs and credentials added', () => {
		expect(FILES).toEqual(Object.values(TEMPLATES).sort());
		expect(FILES).toHaveLength(6);
		for (const { id, nodes, ...example } of exampleWorkflows('hook')) {
			const file = template(TEMPLATES[id]);
			expect(example).toEqual({ ...file, nodes: undefined });
			const types = (credentials?: object) => Object.keys(credentials ?? {});
			const hooks = nodes.flatMap(({ webhookId }) => (webhookId ? [webhookId] : []));
			expect(
				nodes.map(({ id: nodeId, credentials, ...node }) => [
					{ ...node, webhookId: undefined },
					typeof nodeId,
					types(credentials),
				]),
			).toEqual(file.nodes.map(({ credentials, ...node }) => [node, 'string', types(credentials)]));
			expect([id, hooks]).toEqual([
				id,
				{ devWebhookEvents: ['hook'], devApprovalFlow: [APPROVAL_WEBHOOK_ID] }[id] ?? [],
			]);
		}
	});

	it.each(FILES)('%s holds no secret, local address or ID of one instance', (file) => {
		expect(templateProblems(`workflows/${file}`, read(file))).toEqual([]);
	});

	it.each(FILES)('%s does nothing a template may not (scripts/verify/templateRules.ts)', (file) => {
		expect(templateHarms(`workflows/${file}`, read(file))).toEqual([]);
	});

	it.each(FILES)('%s names its credentials by name only, for the user to pick', (file) => {
		const credentials = (read(file) as ReturnType<typeof template>).nodes.flatMap((node) =>
			Object.values(node.credentials ?? {}),
		);
		for (const credential of credentials) expect(Object.keys(credential)).toEqual(['name']);
	});

	it.each(FILES)(
		'%s is a workflow of the package’s node types, at their current version',
		(file) => {
			const workflow = read(file);
			const known: KnownType = (type, version) =>
				knownByPackage(type, version) || type.startsWith('n8n-nodes-base.');
			expect(workflowShapeProblems(`workflows/${file}`, workflow, known)).toEqual([]);
			for (const node of (workflow as ReturnType<typeof template>).nodes.filter(
				(node) => node.type in PACKAGE_NODES,
			))
				expect(`${node.name} v${node.typeVersion}`).toBe(
					`${node.name} v${currentVersion(PACKAGE_NODES[node.type].description)}`,
				);
		},
	);

	itWithN8n.each(FILES)(
		'%s uses n8n-nodes-base types the pinned n8n has (skipped until the pinned n8n is installed)',
		(file) => {
			const base = baseTypes();
			const known: KnownType = (type, version) =>
				knownByPackage(type, version) ||
				base.some(
					(node) =>
						`n8n-nodes-base.${node.name}` === type && [node.version].flat().includes(version),
				);
			expect(workflowShapeProblems(`workflows/${file}`, read(file), known)).toEqual([]);
		},
	);

	it('use both nodes of the package between them', () => {
		const types = FILES.flatMap((file) =>
			(read(file) as ReturnType<typeof template>).nodes.map((node) => node.type),
		);
		expect(new Set(types.filter((type) => type in PACKAGE_NODES))).toEqual(
			new Set(Object.keys(PACKAGE_NODES)),
		);
	});
});

describe('a template with what no template may hold', () => {
	const file = 'workflows/bad.json';

	it('is refused for each instance ID, naming where it is', () => {
		expect(
			templateProblems(file, {
				id: 'wf1',
				versionId: 'v1',
				meta: { instanceId: 'abc' },
				nodes: [
					{
						name: 'Events',
						webhookId: 'a1b2',
						credentials: { maintenanceManagementWebhookApi: { id: '7', name: 'Hook' } },
					},
				],
			}),
		).toEqual([
			`${file} holds id, a workflow ID: remove it, n8n gives its own on import`,
			`${file} holds versionId, a version ID: remove it, n8n gives its own on import`,
			`${file} holds meta.instanceId, the ID of the instance it was exported from: remove it, n8n gives its own on import`,
			`${file}: node "Events" holds webhookId, bound to one instance: remove it, n8n gives the trigger one on import`,
			`${file}: node "Events" names the ID of its maintenanceManagementWebhookApi credential: keep its name only, the user picks one`,
		]);
	});

	it('is refused for a secret under a secret’s key or in any text', () => {
		expect(
			templateProblems(file, {
				nodes: [
					{
						name: 'Call',
						parameters: {
							accessToken: 'abc',
							headers: 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload',
							jsCode: "const key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc9Xy2Lm3Q';",
							token: '',
							parameterName: 'token',
						},
					},
				],
			}),
		).toEqual([
			`${file}: node "Call".parameters.accessToken holds a secret: leave it out, the credential holds it`,
			`${file}: node "Call".parameters.headers holds what looks like a secret (Bearer…): leave it out`,
			`${file}: node "Call".parameters.jsCode holds what looks like a secret (sk_liv…): leave it out`,
		]);
	});

	it('is refused for each local address, and not for a field named like one', () => {
		const texts = [
			'http://localhost:5678/webhook',
			'http://127.0.0.1:4010/sandbox/v3',
			'http://[::1]:80',
			'https://10.1.2.3/v3',
			'https://192.168.0.7',
			'https://172.20.0.2/v3',
			'https://cmms.local/v3',
			'https://api.corp.internal/v3',
		];
		const problems = templateProblems(file, {
			nodes: [{ name: 'Call', parameters: { urls: texts } }],
			note: '={{ $json.payload.data.attributes.local_id }} 172.32.0.1 https://api.example.com/v3',
		});
		expect(problems.map((problem) => problem.split(' holds ')[1].split(',')[0])).toEqual([
			'localhost',
			'127.0.0.1',
			'[::1]',
			'10.1.2.3',
			'192.168.0.7',
			'172.20.0.2',
			'cmms.local',
			'api.corp.internal',
		]);
		expect(problems[0]).toBe(
			`${file}: node "Call".parameters.urls[0] holds localhost, a local address that means nothing elsewhere: leave it out`,
		);
	});

	it('is refused when it is no workflow of known nodes, or connects a node it lacks', () => {
		const known: KnownType = (type) => type === 'n8n-nodes-base.noOp';
		expect(
			workflowShapeProblems(
				file,
				{
					name: '',
					nodes: [
						{
							name: 'A',
							type: 'n8n-nodes-base.noOp',
							typeVersion: 1,
							position: [0, 0],
							parameters: {},
						},
						{
							name: 'A',
							type: 'n8n-nodes-base.nope',
							typeVersion: 1,
							position: [0],
							parameters: {},
						},
						{ name: 'B', type: 'n8n-nodes-base.noOp', position: [0, 0] },
					],
					connections: { A: { main: [[{ node: 'C', type: 'main', index: 0 }]] }, D: {} },
				},
				known,
			),
		).toEqual([
			`${file} has no name`,
			`${file}: node "A" has a name another node has`,
			`${file}: node "A" is of type n8n-nodes-base.nope v1, which n8n does not know`,
			`${file}: node "A" has no position [x, y]`,
			`${file}: node "B" has no type and typeVersion`,
			`${file}: node "B" has no parameters object`,
			`${file} connects "A" to "C", which is no node of it`,
			`${file} connects from "D", which is no node of it`,
		]);
		expect(workflowShapeProblems(file, [], known)).toEqual([
			`${file} is no workflow: it holds no JSON object`,
		]);
	});
});

describe('the ERP example', () => {
	const erp = read(TEMPLATES.devErpMaterials) as ReturnType<typeof template>;
	const create = erp.nodes.find((node) => node.name === 'Create Material');

	it('sends the failed rows to the Error branch, where Failed Rows collects them', () => {
		expect(create).toMatchObject({
			onError: 'continueErrorOutput',
			parameters: { resource: 'material', operation: 'create' },
		});
		expect(erp.connections['Create Material']).toEqual({
			main: [
				[{ node: 'Created', type: 'main', index: 0 }],
				[{ node: 'Failed Rows', type: 'main', index: 0 }],
			],
		});
	});

	it('gives the rows without a name their code as a name and sends them through the same mapping again', () => {
		expect(erp.connections).toMatchObject({
			'Failed Rows': { main: [[{ node: 'Name Missing?', type: 'main', index: 0 }]] },
			'Name Missing?': {
				main: [
					[{ node: 'Name From Code', type: 'main', index: 0 }],
					[{ node: 'Check By Hand', type: 'main', index: 0 }],
				],
			},
			'Name From Code': { main: [[{ node: 'Send Fixed Rows', type: 'main', index: 0 }]] },
		});
		const resend = erp.nodes.find((node) => node.name === 'Send Fixed Rows');
		expect(resend?.parameters).toEqual(create?.parameters);
		expect(resend?.credentials).toEqual(create?.credentials);
	});

	it('says on a sticky note what to replace with your own rows', () => {
		const note = erp.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote');
		expect(note?.parameters.content).toMatch(/Replace \*\*ERP Rows\*\* with your own rows/);
	});
});
