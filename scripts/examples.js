/**
 * The example workflows: the templates in workflows/, which the package ships for "Import from URL",
 * and which `npm run dev` imports on every start. A template holds nothing of one instance: no IDs, no
 * webhook ID, credentials by name only. Dev gives each the ID it keeps it under, node IDs, its
 * triggers' webhook IDs and its own credentials, as the editor's import and the user's choice of a
 * credential would.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const WORKFLOWS = join(__dirname, '..', 'workflows');
const TRIGGER = 'n8n-nodes-maintenance-management.maintenanceManagementTrigger';

/** Each template's file in workflows/, by the ID dev imports it under, in the order dev lists them. */
const TEMPLATES = {
	devOpenWorkOrders: 'list-open-work-orders.json',
	devCreatePlannedJob: 'create-planned-job.json',
	devWebhookEvents: 'react-to-work-order-events.json',
	devApprovalFlow: 'route-work-orders-by-approval.json',
	devErpMaterials: 'sync-materials-from-erp.json',
	devOtherEndpoint: 'call-an-endpoint-the-node-does-not-cover.json',
};

/** The events example's default webhook ID (dev's is random for each dev folder). */
const WEBHOOK_ID = '0d5e8a52-7c1b-4f3e-9a64-2b8c1d7e6f50';
/** The webhook ID of the approval example's trigger. */
const APPROVAL_WEBHOOK_ID = '7a3e9c41-2d5b-4f8a-b6e0-91c4d2f7a385';

/** The credentials dev imports, which its examples use, by credential type. */
const DEV_CREDENTIALS = {
	maintenanceManagementApi: {
		id: 'devApiCredential1',
		name: 'Maintenance Management (local sandbox)',
	},
	maintenanceManagementWebhookApi: {
		id: 'devHookCredential',
		name: 'Webhook secret (local sandbox)',
	},
};

/** A template as it is in workflows/ (`file`, the file's name). */
const template = (file) => JSON.parse(readFileSync(join(WORKFLOWS, file), 'utf8'));

/** A node's ID made from its name, as stable as the name. */
const nodeId = (name) => name.toLowerCase().replace(/\W+/g, '-').replace(/^-|-$/g, '');

/**
 * The examples as dev imports them: each template with its ID, node IDs, dev's credentials and its
 * triggers' webhook IDs: the events example's is `webhookId`.
 * @param {string} [webhookId]
 */
function exampleWorkflows(webhookId = WEBHOOK_ID) {
	const webhookIds = { devWebhookEvents: webhookId, devApprovalFlow: APPROVAL_WEBHOOK_ID };
	return Object.entries(TEMPLATES).map(([id, file]) => {
		const workflow = template(file);
		return {
			id,
			...workflow,
			nodes: workflow.nodes.map((node) => ({
				id: nodeId(node.name),
				...node,
				...(node.type === TRIGGER && { webhookId: webhookIds[id] }),
				...(node.credentials && {
					credentials: Object.fromEntries(
						Object.keys(node.credentials).map((type) => [type, DEV_CREDENTIALS[type]]),
					),
				}),
			})),
		};
	});
}

module.exports = {
	exampleWorkflows,
	template,
	DEV_CREDENTIALS,
	TEMPLATES,
	TRIGGER,
	WEBHOOK_ID,
	APPROVAL_WEBHOOK_ID,
};
