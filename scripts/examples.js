/**
 * The example workflows that `npm run dev` imports on every start: a list of open work orders, a planned
 * job created, the work order events with an action after them, and work orders routed by approval
 * (Created, Approved or Declined, then an If node on the event). The events example's webhook ID is
 * the one given (dev's is random for each dev folder), so the caller knows its URL.
 */
const WEBHOOK_ID = '0d5e8a52-7c1b-4f3e-9a64-2b8c1d7e6f50';
/** The webhook ID of the approval example's trigger. */
const APPROVAL_WEBHOOK_ID = '7a3e9c41-2d5b-4f8a-b6e0-91c4d2f7a385';

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
	const manual = {
		id: 'start',
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const chain = (from, to) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
	return [
		{
			id: 'devOpenWorkOrders',
			name: 'Example: list the open work orders',
			nodes: [
				manual,
				node(
					'Open Work Orders',
					{ resource: 'failure', operation: 'getAllOpen', returnAll: true },
					[250, 0],
				),
			],
			connections: chain('Start', 'Open Work Orders'),
			settings: { executionOrder: 'v1' },
			// An empty pinData, not null: n8n 2.41's partial execution fails on a workflow stored with null.
			pinData: {},
		},
		{
			id: 'devCreatePlannedJob',
			name: 'Example: create a planned job',
			nodes: [
				manual,
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
			connections: chain('Start', 'Create Planned Job'),
			settings: { executionOrder: 'v1' },
			pinData: {},
		},
		{
			id: 'devWebhookEvents',
			name: 'Example: react to work order events',
			nodes: [
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
			connections: chain('Work Order Events', 'Open Work Orders Of Location'),
			settings: { executionOrder: 'v1' },
			pinData: {},
		},
		{
			id: 'devApprovalFlow',
			name: 'Example: route work orders by approval',
			nodes: [
				trigger('approval-events', 'Approval Events', APPROVAL_WEBHOOK_ID, [
					'FAILURE_CREATED',
					'FAILURE_APPROVED',
					'FAILURE_NOT_APPROVED',
				]),
				{
					id: 'approved',
					name: 'Approved?',
					type: 'n8n-nodes-base.if',
					typeVersion: 2.2,
					position: [250, 0],
					parameters: {
						conditions: {
							options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
							conditions: [
								{
									id: 'event-is-approved',
									leftValue: '={{ $json.event }}',
									rightValue: 'FAILURE_APPROVED',
									operator: { type: 'string', operation: 'equals' },
								},
							],
							combinator: 'and',
						},
						options: {},
					},
				},
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
			connections: {
				'Approval Events': { main: [[{ node: 'Approved?', type: 'main', index: 0 }]] },
				'Approved?': {
					main: [
						[{ node: 'Open Work Orders Of Its Location', type: 'main', index: 0 }],
						[{ node: 'Waiting Or Declined', type: 'main', index: 0 }],
					],
				},
			},
			settings: { executionOrder: 'v1' },
			pinData: {},
		},
	];
}

module.exports = { exampleWorkflows, WEBHOOK_ID, APPROVAL_WEBHOOK_ID };
