import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { byText } from '../shared/options';
import { receiveDelivery } from './delivery';
import { ALL_EVENTS, EVENTS } from './events';

/**
 * Where a URL is registered: the service's webhook settings. The texts speak to a user of the package,
 * who installed it by name: the local sandbox of a clone is the contributors' (README, Contributing).
 */
const WHERE_TO_REGISTER =
	"in the service's webhook settings, for POST or PATCH, with the credential's secret: add ?token=SECRET to the URL for query protection (the default), or have it sent in the header for header protection.";

const eventOptions = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		description: 'Any event, including deliveries whose event cannot be detected',
	},
	// The node creator lists each event as a trigger action. Without `action` it names it "On " and the
	// name with its punctuation dropped ("On work order approved approval given"); with it, the words in
	// parentheses stay apart, and its search, which reads this name, still finds them.
	...EVENTS.map((event) => ({
		name: event.name,
		value: event.value,
		action: `On ${event.name.toLowerCase()}`,
		description: `${event.description} (${event.value})`,
	})),
].sort(byText('name'));

/**
 * The canvas subtitle names the chosen events in words ("Work Order Created or Waiting for Approval,
 * Work Order Approved +1 more"), as the trigger's output names them.
 */
const subtitle = `={{ ((names, events) => events.includes("${ALL_EVENTS}") ? "All events" : events.slice(0, 2).map((event) => names[event] || event).join(", ") + (events.length > 2 ? " +" + (events.length - 2) + " more" : ""))(${JSON.stringify(
	Object.fromEntries(EVENTS.map((event) => [event.value, event.label])),
)}, $parameter["events"] || []) }}`;

export class MaintenanceManagementTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Maintenance Management Trigger',
		name: 'maintenanceManagementTrigger',
		icon: { light: 'file:maintenanceManagement.svg', dark: 'file:maintenanceManagement.dark.svg' },
		group: ['trigger'],
		// Versions 1 and 2 behave the same. For a version-1 webhook node, n8n evaluates an expression
		// before every delivery (the binary-data option of its first Webhook node), which costs an
		// expression isolate per call; from version 2 on it does not, so new nodes get version 2.
		version: [1, 2],
		subtitle,
		// n8n's node creator shows this node and the action node as one entry, under this description:
		// it names both what starts a workflow and what the entry's actions do.
		description:
			'Start a workflow on Maintenance Management events, such as a work order reported, approved or declined; act on work orders, planned jobs and stock',
		defaults: { name: 'Maintenance Management Trigger' },
		// Read by n8n's AI workflow builders alone, as the action node's.
		builderHint: {
			searchHint:
				"Runs only once the workflow is published and its Production URL (…/webhook/ID/webhook, not the Test URL) is registered in the service's webhook settings with the secret.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-maintenance-management.maintenanceManagement',
					relationHint:
						'Reads the records an event names, such as the open work orders of its location',
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Redacted by n8n in stored executions, beyond the headers the node already leaves out.
		sensitiveOutputFields: [
			'headers.authorization',
			'headers.proxy-authorization',
			'headers.cookie',
			'headers.x-webhook-secret',
			'query.token',
		],
		triggerPanel: {
			header: 'Listen for a Maintenance Management event',
			executionsHelp: {
				inactive: `<b>While building your workflow</b>, click 'Execute step', then register the <b>Test URL</b> (under Webhook URLs in the parameters) ${WHERE_TO_REGISTER} Then make an event happen, such as reporting a work order: it shows up here.<br /><br /><b>Once it works</b>, publish the workflow and register its <b>Production URL</b> the same way. Every matching event then starts the workflow; those runs show under Executions, not here.`,
				active: `<b>The workflow is published</b>: every matching event sent to its <b>Production URL</b> starts it, and those runs show under Executions, not here. To see an event here, click 'Execute step' and register the <b>Test URL</b> ${WHERE_TO_REGISTER}`,
			},
			activationHint: {
				inactive:
					"Click 'Execute step', then register the Test URL in the service's webhook settings with the secret. Publish the workflow to receive events at its Production URL for good.",
				active:
					'The workflow is published: events sent to its Production URL start it. They show under Executions, not here.',
			},
		},
		credentials: [
			{
				name: 'maintenanceManagementWebhookApi',
				required: true,
				testedBy: 'checkWebhookSecret',
				displayOptions: { show: { authentication: ['query', 'header', 'basicAuth'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
			{
				name: 'default',
				httpMethod: 'PATCH',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					"Register this URL in the service's webhook settings, for POST or PATCH, with the secret as Protection says.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: eventOptions,
				default: [ALL_EVENTS],
				description:
					'The events that start the workflow. Others are answered 200 and ignored, so the service does not retry them. A delivery whose event cannot be detected starts the workflow only with All Events.',
				builderHint: {
					propertyHint:
						"Event names such as FAILURE_CREATED or FAILURE_APPROVED; '*' (All Events) also starts on a delivery whose event cannot be detected. Each item names its event in event.",
				},
			},
			{
				displayName: 'Protection',
				name: 'authentication',
				type: 'options',
				options: [
					{
						name: 'Basic Auth',
						value: 'basicAuth',
						description: 'User name and secret as Basic auth',
					},
					{
						name: 'None',
						value: 'none',
						description: 'Anyone who knows the URL can start the workflow',
					},
					{
						name: 'Secret in Header',
						value: 'header',
						description: 'The secret in a request header',
					},
					{
						name: 'Secret in Query Parameter',
						value: 'query',
						description: 'The secret in the URL, such as ?token=…',
					},
				],
				default: 'query',
				description:
					'How incoming calls prove they come from the service. The secret lives in a credential, never in the workflow. A wrong or missing secret is answered 401 and starts nothing.',
				builderHint: {
					propertyHint:
						'Keep query (the default), header or basicAuth, with a maintenanceManagementWebhookApi credential holding the secret, never in a parameter; none lets anyone with the URL start the workflow.',
				},
			},
			{
				displayName: 'Query Parameter Name',
				name: 'parameterName',
				type: 'string',
				default: 'token',
				displayOptions: { show: { authentication: ['query'] } },
				description: 'Register the URL in the service as …/webhook?token=YOUR_SECRET',
				builderHint: {
					propertyHint:
						"The query parameter the secret comes in: the service calls the Production URL plus ?token=SECRET, SECRET being the credential's. Leave it token unless the service names another.",
				},
			},
			{
				displayName: 'Header Name',
				name: 'parameterName',
				type: 'string',
				default: 'X-Webhook-Secret',
				displayOptions: { show: { authentication: ['header'] } },
				description: 'The header the service sends the secret in',
			},
			{
				// Where the editor shows the credential: after the protection that decides whether it is needed.
				displayName: 'Credential',
				name: 'credential',
				type: 'credentials',
				default: '',
				displayOptions: { show: { authentication: ['query', 'header', 'basicAuth'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Event Property Path',
						name: 'eventPath',
						type: 'string',
						default: '',
						placeholder: 'e.g. meta.event',
						description:
							'Where the payload names its event, as a dotted path such as meta.event. Empty: the usual fields (event, type, action…), then the event query parameter and X-Event headers. See Docs.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers to the output (the Authorization header is left out)',
					},
				],
			},
		],
	};

	methods = {
		credentialTest: {
			async checkWebhookSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const secret = String(credential.data?.secret ?? '');
				if (secret.length < 16) {
					return { status: 'Error', message: 'Use a secret of at least 16 characters' };
				}
				return { status: 'OK', message: 'The secret is long enough' };
			},
		},
	};

	webhookMethods = {
		default: {
			// The service's webhooks are registered by hand in its settings (the API has no endpoint for
			// them), so nothing remote is checked, created or deleted.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}
