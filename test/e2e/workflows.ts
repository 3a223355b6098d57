import type { IDataObject } from 'n8n-workflow';

import type { OperationCase } from '../cases/operations';
import { MATERIAL_FROM_ROW } from '../helpers/rows';
import { PACKAGE_NAME } from './n8n';

export const ACTION_NODE = `${PACKAGE_NAME}.maintenanceManagement`;
export const TRIGGER_NODE = `${PACKAGE_NAME}.maintenanceManagementTrigger`;
export const API_CREDENTIAL = { id: 'mmApiCredential01', name: 'Maintenance Management Sandbox' };
export const WEBHOOK_CREDENTIAL = {
	id: 'mmHookCredential1',
	name: 'Maintenance Management Webhook',
};
export const WEBHOOK_ID = '6f1c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5';
export const WEBHOOK_SECRET = 'whsec-e2e-4f8a1c9d2b7e6a3f';

/**
 * An API credential for the API at `baseUrl`, to import into n8n under the given id and name: its
 * sandbox environment, or its production one.
 */
export const apiCredential = (
	baseUrl: string,
	token: string,
	ref: { id: string; name: string } = API_CREDENTIAL,
	environment: 'sandbox' | 'production' = 'sandbox',
) => ({
	...ref,
	type: 'maintenanceManagementApi',
	data: {
		accessToken: token,
		environment,
		sandboxBaseUrl: environment === 'sandbox' ? baseUrl : '',
		productionBaseUrl: environment === 'production' ? baseUrl : '',
	},
});

export function credentials(baseUrl: string, token: string) {
	return [
		apiCredential(baseUrl, token),
		{
			...WEBHOOK_CREDENTIAL,
			type: 'maintenanceManagementWebhookApi',
			data: { secret: WEBHOOK_SECRET, username: '' },
		},
	];
}

/** What a workflow the tests import carries besides its id and nodes: inactive, no pinned data. */
export const STORED_AS_NEW = { settings: { executionOrder: 'v1' }, active: false, pinData: {} };

/**
 * What a workflow the tests import carries besides its name, nodes and connections: its id, a versionId
 * made from the id (n8n 2.0.0's import:workflow stores no workflow without one; later versions make
 * one), inactive, no pinned data.
 */
export const storedAs = (id: string) => ({
	id,
	versionId: `00000000-0000-4000-8000-${Buffer.from(id).toString('hex').slice(-12).padStart(12, '0')}`,
	...STORED_AS_NEW,
});

/** The manual trigger each test workflow starts from. */
export const START = {
	id: 'start',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};

/**
 * A node of the package in a test workflow, with an API credential: its id is `prefix` and its name
 * made a slug; `node` sets its place and anything else, say a type other than the action node's.
 */
export const packageNode = (
	prefix: string,
	name: string,
	parameters: IDataObject,
	{
		credential = API_CREDENTIAL,
		...node
	}: { position: number[]; credential?: { id: string; name: string } } & IDataObject,
) => ({
	id: `${prefix}-${name.replace(/\W+/g, '-').toLowerCase()}`,
	name,
	type: ACTION_NODE,
	typeVersion: 1,
	parameters,
	credentials: { maintenanceManagementApi: credential },
	...node,
});

let position = 0;
const actionNode = (name: string, parameters: IDataObject, extra: IDataObject = {}) =>
	packageNode('node', name, parameters, { position: [400, (position += 120)], ...extra });

export const caseNodeName = (c: OperationCase) => `${c.resource} ${c.operation}`;

/**
 * One workflow that runs every operation, each on its own branch from a manual trigger, plus the
 * branches for Return All, Continue On Fail, an API error and a filter that resolves to nothing. One `n8n execute` runs them all.
 */
export function actionsWorkflow(cases: OperationCase[]) {
	position = 0;
	const nodes: IDataObject[] = [START];
	const fromStart: string[] = [];
	for (const testCase of cases) {
		const name = caseNodeName(testCase);
		nodes.push(
			actionNode(name, {
				resource: testCase.resource,
				operation: testCase.operation,
				...testCase.parameters,
			}),
		);
		fromStart.push(name);
	}
	nodes.push(
		actionNode('Return All', { resource: 'failure', operation: 'getAll', returnAll: true }),
	);
	nodes.push(
		actionNode(
			'API Error',
			{ resource: 'location', operation: 'get', id: { __rl: true, mode: 'id', value: '999999' } },
			{ onError: 'continueRegularOutput' },
		),
	);
	nodes.push(
		actionNode(
			'Empty Filter',
			{
				resource: 'failure',
				operation: 'getAllOpen',
				filters: { s_local_id: '={{ $json.location_id }}' },
			},
			{ onError: 'continueRegularOutput' },
		),
	);
	fromStart.push('Return All', 'API Error', 'Empty Filter');
	nodes.push({
		id: 'items',
		name: 'Three Items',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [200, (position += 120)],
		parameters: {
			mode: 'raw',
			jsonOutput: '{"items":[{"code":"E2E-OK-1"},{"code":""},{"code":"E2E-OK-3"}]}',
			options: {},
		},
	});
	nodes.push({
		id: 'split',
		name: 'Split Items',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [300, position],
		parameters: { fieldToSplitOut: 'items', options: {} },
	});
	nodes.push(
		actionNode(
			'Continue On Fail',
			{
				resource: 'material',
				operation: 'create',
				material_type_id: 2,
				name: 'E2E material',
				code: '={{ $json.code }}',
				units: 'unit',
			},
			{ onError: 'continueRegularOutput' },
		),
	);
	fromStart.push('Three Items');
	const connections: IDataObject = {
		Start: { main: [fromStart.map((node) => ({ node, type: 'main', index: 0 }))] },
		'Three Items': { main: [[{ node: 'Split Items', type: 'main', index: 0 }]] },
		'Split Items': { main: [[{ node: 'Continue On Fail', type: 'main', index: 0 }]] },
	};
	return { ...storedAs('mmE2eActions0001'), name: 'Every operation', nodes, connections };
}

/**
 * How a workflow leaves a mark in the sandbox's request log: a Location → Get Many searching the names
 * (`s_name_like`, a query parameter the document lists, so the sandbox checking the contract takes it)
 * for a text that says what ran. No location matches it.
 */
export const markParameters = (mark: string): IDataObject => ({
	resource: 'location',
	operation: 'getAll',
	limit: 1,
	options: { queryParameters: { parameters: [{ name: 's_name_like', value: mark }] } },
});

/** The marks among the requests of the sandbox's log, in its order. */
export const marksIn = (requests: Array<{ path: string; query: Record<string, string> }>) =>
	requests
		.filter((request) => request.path === '/locations')
		.map((request) => request.query.s_name_like)
		.filter((mark): mark is string => Boolean(mark));

/**
 * The trigger at its newest version, for two events, protected by a secret in the query, with Include
 * Headers; each run marks the sandbox's log with the event and the method, so the test sees what started.
 */
export function triggerWorkflow() {
	return {
		...storedAs('mmE2eTrigger0001'),
		name: 'Webhook events',
		nodes: [
			{
				id: 'trigger',
				name: 'Events',
				type: TRIGGER_NODE,
				typeVersion: 2,
				position: [0, 0],
				webhookId: WEBHOOK_ID,
				parameters: {
					events: ['FAILURE_CREATED', 'BUY_ORDER_UPDATED'],
					authentication: 'query',
					parameterName: 'token',
					options: { includeHeaders: true },
				},
				credentials: { maintenanceManagementWebhookApi: WEBHOOK_CREDENTIAL },
			},
			{
				id: 'mark',
				name: 'Mark',
				type: ACTION_NODE,
				typeVersion: 1,
				position: [300, 0],
				parameters: markParameters('={{ $json.event }}:{{ $json.method }}'),
				credentials: { maintenanceManagementApi: API_CREDENTIAL },
			},
		],
		connections: { Events: { main: [[{ node: 'Mark', type: 'main', index: 0 }]] } },
	};
}

/** The node of a bulk workflow that writes the materials. */
export const BULK_NODE = 'Create Materials';

/**
 * A bulk write as an ERP sync sends it: a Code node makes `count` materials (codes `<prefix>-0001`…),
 * and Material → Create (node version 2) writes them, every Request Option at its default unless given.
 */
export function bulkWorkflow(
	id: string,
	count: number,
	prefix: string,
	requestOptions: IDataObject = {},
) {
	return {
		...storedAs(id),
		name: `Bulk: ${count} materials`,
		nodes: [
			START,
			{
				id: 'materials',
				name: 'Materials',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: {
					// A call of a Webhook node put in place of Start may name the prefix in its body.
					jsCode: `const prefix = $input.first().json.body?.prefix ?? '${prefix}';\nreturn Array.from({ length: ${count} }, (_, i) => ({ json: { code: prefix + '-' + String(i + 1).padStart(4, '0'), name: 'ERP part ' + (i + 1) } }));`,
				},
			},
			{
				id: 'create-materials',
				name: BULK_NODE,
				type: ACTION_NODE,
				typeVersion: 2,
				position: [400, 0],
				parameters: { ...MATERIAL_FROM_ROW, requestOptions },
				credentials: { maintenanceManagementApi: API_CREDENTIAL },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Materials', type: 'main', index: 0 }]] },
			Materials: { main: [[{ node: BULK_NODE, type: 'main', index: 0 }]] },
		},
	};
}

/**
 * Rows made by a Code node, written by one action node (version 2) with the given On Error setting, by
 * default "Continue (using error output)": written rows leave on its Success output, failed ones on its
 * Error output. `settings` are more of the node's settings, such as Retry On Fail's.
 */
export function rowsWorkflow(
	id: string,
	nodeName: string,
	rows: IDataObject[],
	parameters: IDataObject,
	onError = 'continueErrorOutput',
	settings: IDataObject = {},
) {
	return {
		...storedAs(id),
		name: `${rows.length} rows to ${nodeName}, On Error ${onError}`,
		nodes: [
			START,
			{
				id: 'rows',
				name: 'Rows',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` },
			},
			{
				id: 'write-rows',
				name: nodeName,
				type: ACTION_NODE,
				typeVersion: 2,
				position: [400, 0],
				parameters,
				credentials: { maintenanceManagementApi: API_CREDENTIAL },
				onError,
				...settings,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
			Rows: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
		},
	};
}
