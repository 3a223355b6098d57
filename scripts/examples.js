/**
 * The example workflows that `npm run dev` imports on every start: a list of open work orders, a planned
 * job created, the work order events with an action after them, work orders routed by approval
 * (Created, Approved or Declined, then an If node on the event), and materials synced from ERP rows,
 * the failed rows on the Error branch, where those without a name get one and are sent again. The
 * events example's webhook ID is the one given (dev's is random for each dev folder), so the caller
 * knows its URL.
 */
const WEBHOOK_ID = '0d5e8a52-7c1b-4f3e-9a64-2b8c1d7e6f50';
/** The webhook ID of the approval example's trigger. */
const APPROVAL_WEBHOOK_ID = '7a3e9c41-2d5b-4f8a-b6e0-91c4d2f7a385';

/**
 * The rows of the ERP example, as an ERP export gives them. Two are bad on purpose: an empty name, which
 * the node refuses before sending, and the code MAT-5, which the sandbox's demo data already has, so
 * the API refuses it.
 */
const ERP_ROWS = [
	{ code: 'ERP-1001', name: 'Hex bolt M8', units: 'unit', type_id: 2 },
	{ code: 'ERP-1002', name: 'Hex nut M8', units: 'unit', type_id: 2 },
	{ code: 'ERP-1003', name: '', units: 'unit', type_id: 2 },
	{ code: 'ERP-1004', name: 'Flat washer M8', units: 'unit', type_id: 2 },
	{ code: 'MAT-5', name: 'Hydraulic oil', units: 'l', type_id: 2 },
	{ code: 'ERP-1006', name: 'Cable tie 200 mm', units: 'unit', type_id: 2 },
	{ code: 'ERP-1007', name: 'Fuse 10 A', units: 'unit', type_id: 2 },
	{ code: 'ERP-1008', name: 'Air filter G4', units: 'unit', type_id: 2 },
];

/** A workflow as n8n's import:workflow reads it: its nodes and connections, run in v1 order. */
const workflow = (id, name, nodes, connections) => ({
	id,
	name,
	nodes,
	connections,
	settings: { executionOrder: 'v1' },
	// An empty pinData, not null: n8n 2.41's partial execution fails on a workflow stored with null.
	pinData: {},
});

/** The manual trigger a workflow starts from. */
const MANUAL_TRIGGER = {
	id: 'start',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** @param {string} [webhookId] the events example's webhook ID */
function exampleWorkflows(webhookId = WEBHOOK_ID) {
	const api = {
		maintenanceManagementApi: {
			id: 'devApiCredential1',
			name: 'Maintenance Management (local sandbox)',
		},
	};
	const node = (name, parameters, position) => ({
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type: 'n8n-nodes-maintenance-management.maintenanceManagement',
		typeVersion: 2,
		position,
		parameters,
		credentials: api,
	});
	/** The trigger for some work order events, protected by the dev webhook secret in the query. */
	const trigger = (id, name, webhookId, events) => ({
		id,
		name,
		type: 'n8n-nodes-maintenance-management.maintenanceManagementTrigger',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { events, authentication: 'query', parameterName: 'token' },
		credentials: {
			maintenanceManagementWebhookApi: {
				id: 'devHookCredential',
				name: 'Webhook secret (local sandbox)',
			},
		},
	});
	/** An If node on one condition: true to its first output, false to its second. */
	const ifNode = (id, name, position, condition) => ({
		id,
		name,
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
		position,
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
				conditions: [condition],
				combinator: 'and',
			},
			options: {},
		},
	});
	const chain = (from, to) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
	/** Material → Create with its columns taken from each ERP row: for the rows and for the fixed ones. */
	const materialFromRow = {
		resource: 'material',
		operation: 'create',
		material_type_id: '={{ $json.type_id }}',
		name: '={{ $json.name }}',
		code: '={{ $json.code }}',
		units: '={{ $json.units }}',
	};
	/** Two outputs of `from`: the first to `first`, the second to `second`. */
	const fork = (from, first, second) => ({
		[from]: {
			main: [[{ node: first, type: 'main', index: 0 }], [{ node: second, type: 'main', index: 0 }]],
		},
	});
	return [
		workflow(
			'devOpenWorkOrders',
			'Example: list the open work orders',
			[
				MANUAL_TRIGGER,
				node(
					'Open Work Orders',
					{ resource: 'failure', operation: 'getAllOpen', returnAll: true },
					[250, 0],
				),
			],
			chain('Start', 'Open Work Orders'),
		),
		workflow(
			'devCreatePlannedJob',
			'Example: create a planned job',
			[
				MANUAL_TRIGGER,
				node(
					'Create Planned Job',
					{
						resource: 'work',
						operation: 'create',
						type: 'CYCLIC',
						name: 'Monthly lift inspection',
						work_type_id: 1,
						local_id: '3, 4',
						client_id: 1,
						recurrence: {
							values: { DTSTART: '2027-01-04T08:00:00', FREQ: 'MONTHLY', INTERVAL: 1 },
						},
						interventions: { items: [{ id: 1, elements: 'LIFT-1' }] },
					},
					[250, 0],
				),
			],
			chain('Start', 'Create Planned Job'),
		),
		workflow(
			'devWebhookEvents',
			'Example: react to work order events',
			[
				trigger('events', 'Work Order Events', webhookId, [
					'FAILURE_CREATED',
					'FAILURE_APPROVED',
					'FAILURE_STATE_CHANGED',
				]),
				node(
					'Open Work Orders Of Location',
					{
						resource: 'failure',
						operation: 'getAllOpen',
						limit: 10,
						// The location of the work order the event is about.
						filters: { s_local_id: '={{ $json.payload.data.attributes.local_id }}' },
					},
					[250, 0],
				),
			],
			chain('Work Order Events', 'Open Work Orders Of Location'),
		),
		workflow(
			'devApprovalFlow',
			'Example: route work orders by approval',
			[
				trigger('approval-events', 'Approval Events', APPROVAL_WEBHOOK_ID, [
					'FAILURE_CREATED',
					'FAILURE_APPROVED',
					'FAILURE_NOT_APPROVED',
				]),
				ifNode('approved', 'Approved?', [250, 0], {
					id: 'event-is-approved',
					leftValue: '={{ $json.event }}',
					rightValue: 'FAILURE_APPROVED',
					operator: { type: 'string', operation: 'equals' },
				}),
				node(
					'Open Work Orders Of Its Location',
					{
						resource: 'failure',
						operation: 'getAllOpen',
						limit: 10,
						filters: { s_local_id: '={{ $json.payload.data.attributes.local_id }}' },
					},
					[500, -100],
				),
				{
					id: 'waiting-or-declined',
					name: 'Waiting Or Declined',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [500, 100],
					parameters: {},
				},
			],
			{
				'Approval Events': { main: [[{ node: 'Approved?', type: 'main', index: 0 }]] },
				...fork('Approved?', 'Open Work Orders Of Its Location', 'Waiting Or Declined'),
			},
		),
		workflow(
			'devErpMaterials',
			'Example: sync materials from ERP rows, failed rows to the Error branch',
			[
				MANUAL_TRIGGER,
				{
					id: 'erp-rows',
					name: 'ERP Rows',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [250, 0],
					parameters: {
						jsCode: `// Your ERP's rows: replace this node with your own source (a CSV read by Extract From File,\n// a database or spreadsheet node). Each row is one material.\nreturn [\n${ERP_ROWS.map((row) => `\t${JSON.stringify(row)},`).join('\n')}\n].map((row) => ({ json: row }));`,
					},
				},
				{
					...node('Create Material', materialFromRow, [500, 0]),
					// Settings → On Error: each failed row goes to the Error branch, the others go on.
					onError: 'continueErrorOutput',
				},
				{
					id: 'created',
					name: 'Created',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [800, -100],
					parameters: {},
				},
				{
					id: 'failed-rows',
					name: 'Failed Rows',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [800, 100],
					parameters: {
						mode: 'manual',
						includeOtherFields: true,
						assignments: {
							assignments: [
								{
									id: 'reason',
									name: 'reason',
									value: '={{ $json.error.message }}',
									type: 'string',
								},
								{
									id: 'outcome',
									name: 'outcome',
									value: '={{ $json.error.outcome }}',
									type: 'string',
								},
							],
						},
						options: {},
					},
				},
				ifNode('name-missing', 'Name Missing?', [1050, 100], {
					id: 'name-is-empty',
					leftValue: '={{ $json.name }}',
					rightValue: '',
					operator: { type: 'string', operation: 'empty', singleValue: true },
				}),
				{
					id: 'name-from-code',
					name: 'Name From Code',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [1300, 0],
					parameters: {
						mode: 'manual',
						includeOtherFields: true,
						assignments: {
							assignments: [
								{ id: 'name', name: 'name', value: '={{ $json.code }}', type: 'string' },
							],
						},
						options: {},
					},
				},
				node('Send Fixed Rows', materialFromRow, [1550, 0]),
				{
					id: 'check-by-hand',
					name: 'Check By Hand',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [1300, 200],
					parameters: {},
				},
				{
					id: 'erp-note',
					name: 'Sticky Note',
					type: 'n8n-nodes-base.stickyNote',
					typeVersion: 1,
					position: [180, -370],
					parameters: {
						width: 1000,
						height: 270,
						content: [
							'## Materials from ERP rows',
							'Replace **ERP Rows** with your own rows (a CSV read by Extract From File, a database, a sheet) and map their columns in **Create Material**.',
							'**Create Material** has Settings → On Error → *Continue (using error output)*: each row that fails goes to the **Error** branch with its columns kept, plus `reason` and `outcome` (`refusedBeforeSending`, `refusedByApi`, `notSent`, or `unknown`: may have been written, check before sending again). **Failed Rows** is where to send them to a sheet or an alert.',
							'A row without a name gets its code as its name (**Name From Code**) and **Send Fixed Rows** writes it. The others, such as a code already used, wait in **Check By Hand**: sending them again unchanged would fail again.',
						].join('\n\n'),
					},
				},
			],
			{
				...chain('Start', 'ERP Rows'),
				...chain('ERP Rows', 'Create Material'),
				...fork('Create Material', 'Created', 'Failed Rows'),
				...chain('Failed Rows', 'Name Missing?'),
				...fork('Name Missing?', 'Name From Code', 'Check By Hand'),
				...chain('Name From Code', 'Send Fixed Rows'),
			},
		),
	];
}

module.exports = { exampleWorkflows, MANUAL_TRIGGER, WEBHOOK_ID, APPROVAL_WEBHOOK_ID, ERP_ROWS };
