import { ExecutionLifecycleHooks } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeType,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression, NodeHelpers, Workflow } from 'n8n-workflow';

import { MaintenanceManagementApi } from '../../../credentials/MaintenanceManagementApi.credentials';
import { MaintenanceManagementWebhookApi } from '../../../credentials/MaintenanceManagementWebhookApi.credentials';

/**
 * The pieces of n8n that n8n-core expects its host (n8n's server) to provide, kept as small as they can
 * be: the node types, the stored credentials, and the credential helper that applies a credential
 * type's `authenticate` block. Everything else (parameter and expression resolution, the request
 * helpers with their redirects and errors, Continue On Fail and paired items) is n8n-core's own.
 */

export interface SentRequest {
	method: string;
	url: string;
	qs?: IDataObject;
	headers: Record<string, string>;
	body?: unknown;
}

const credentialTypes: Record<string, ICredentialType> = Object.fromEntries(
	[new MaintenanceManagementApi(), new MaintenanceManagementWebhookApi()].map((type) => [
		type.name,
		type,
	]),
);

/**
 * Mirrors what n8n's server does with a credential: fills the defaults of its properties, and applies
 * the generic `authenticate` block by resolving each expression against `$credentials` through the
 * workflow's own expression engine. Every request it authenticates is recorded, as n8n-core hands it
 * over just before sending.
 */
class CredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly stored: Record<string, IDataObject>,
		readonly sent: SentRequest[],
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = credentialTypes[typeName];
		if (authenticate && typeof authenticate === 'object' && workflow && node) {
			const options = requestOptions as unknown as Record<string, IDataObject>;
			for (const [part, entries] of Object.entries(authenticate.properties)) {
				options[part] ??= {};
				for (const [key, value] of Object.entries(entries as IDataObject)) {
					options[part][key] = isExpression(value)
						? String(
								workflow.expression.getSimpleParameterValue(
									node,
									value as string,
									'internal',
									{ $credentials: credentials } as IDataObject,
									undefined,
									'',
								) ?? '',
							)
						: String(value);
				}
			}
		}
		this.sent.push({
			method: String(requestOptions.method ?? 'GET'),
			url: requestOptions.url,
			qs: requestOptions.qs,
			headers: { ...(requestOptions.headers as Record<string, string>) },
			body: requestOptions.body,
		});
		return requestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used by these nodes');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.stored[type];
		if (!data) throw new Error(`Node does not have any credentials set for "${type}"`);
		return (NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			data as INodeParameters,
			false,
			false,
			null,
			null,
		) ?? data) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string) {
		return credentialTypes[type].properties;
	}
}

export interface Engine {
	workflow: Workflow;
	node: INode;
	additionalData: IWorkflowExecuteAdditionalData;
	/** Every request n8n-core authenticated and was about to send, in order. */
	sent: SentRequest[];
}

export interface EngineOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	/** Stored credential data by credential type name. */
	credentials?: Record<string, IDataObject>;
	continueOnFail?: boolean;
	/** The node's On Error setting; Continue On Fail sets "Continue (regular output)". */
	onError?: INode['onError'];
	/** A node before it, whose output is the node's input (a name, as n8n's connections name it). */
	upstream?: string;
	staticData?: IDataObject;
	/** Where to record the requests sent; a new list when not given. */
	sent?: SentRequest[];
	/** The node's version in the workflow; the newest when not given. */
	typeVersion?: number;
	/** What n8n's server would push to the editor during a manual run (`sendMessageToUI` among it). */
	sendDataToUI?: IWorkflowExecuteAdditionalData['sendDataToUI'];
	/** The node's Retry On Fail settings: n8n-core's WorkflowExecute then runs it again as it fails. */
	retry?: RetrySettings;
	/** The execution's ID, as n8n's server gives it; one of its own for each engine when not given. */
	executionId?: string;
}

/** The node's Settings → Retry On Fail: its Max Tries and Wait Between Tries (ms), as saved on the node. */
export interface RetrySettings {
	maxTries?: number;
	waitBetweenTries?: number;
}

let executions = 0;

/**
 * A one-node workflow around the node, with its parameters completed from the description as n8n's
 * editor stores them, and the additional data n8n-core reads while it runs.
 */
export function createEngine(options: EngineOptions): Engine {
	const { nodeType } = options;
	const { description } = nodeType;
	const credentials = options.credentials ?? {};
	const typeVersion =
		options.typeVersion ??
		(Array.isArray(description.version) ? Math.max(...description.version) : description.version);
	const node: INode = {
		id: '2d6c1a52-8c4e-4d7e-9f0a-1b2c3d4e5f60',
		name: description.defaults.name ?? description.displayName,
		type: description.name,
		typeVersion,
		position: [0, 0],
		parameters:
			NodeHelpers.getNodeParameters(
				description.properties,
				options.parameters,
				false,
				false,
				{ typeVersion },
				description,
			) ?? options.parameters,
		credentials: Object.fromEntries(
			Object.keys(credentials).map((type) => [type, { id: type, name: type }]),
		),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.onError ? { onError: options.onError } : {}),
		...(options.retry ? { retryOnFail: true, ...options.retry } : {}),
	};
	const upstream: INode[] = options.upstream
		? [{ ...node, id: 'upstream', name: options.upstream, parameters: {} }]
		: [];
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		id: 'unit-test-workflow',
		name: 'Unit test',
		nodes: [...upstream, node],
		connections: options.upstream
			? { [options.upstream]: { main: [[{ node: node.name, type: 'main', index: 0 }]] } }
			: {},
		active: false,
		nodeTypes,
		staticData: options.staticData,
		settings: { executionOrder: 'v1' },
	});
	const sent = options.sent ?? [];
	const helper = new CredentialsHelper(credentials, sent);
	const additionalData = {
		credentialsHelper: helper,
		hooks: new ExecutionLifecycleHooks('manual', 'unit-test', {
			id: workflow.id ?? '',
			name: workflow.name ?? '',
			active: false,
			isArchived: false,
			activeVersionId: null,
			nodes: [node],
			connections: {},
			settings: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		}),
		executionId: options.executionId ?? `unit-test-${++executions}`,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		sendDataToUI: options.sendDataToUI,
		logAiEvent: () => undefined,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		executeWorkflow: async () => {
			throw new Error('not used by these nodes');
		},
		startRunnerTask: async () => {
			throw new Error('not used by these nodes');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
	return { workflow, node, additionalData, sent };
}
