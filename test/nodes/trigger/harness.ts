import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	IHookFunctions,
	INodeParameters,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { MaintenanceManagementTrigger } from '../../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { createEngine } from '../helpers/engine';

/**
 * Runs the trigger's webhook() and webhookMethods in n8n-core's own WebhookContext and HookContext,
 * inside a one-node workflow. Only the HTTP request and response, which n8n's server takes from
 * Express, are small objects here: the request carries what Express parses (method, lower-case
 * headers, query, body) and the response records what the node sends by itself.
 */

export type Method = 'POST' | 'PATCH';
export type Protection = 'none' | 'query' | 'header' | 'basicAuth';

export interface Delivery {
	method?: Method;
	body?: unknown;
	query?: IDataObject;
	/**
	 * Header names in any case; like Node.js, the harness hands them to the node in lower case, after a
	 * `content-type: application/json` unless one is given (an empty one is left out).
	 */
	headers?: Record<string, string | string[]>;
}

export interface TriggerSettings {
	events?: string[];
	authentication?: Protection;
	parameterName?: string;
	options?: { eventPath?: string; includeHeaders?: boolean };
	/** The decrypted webhook credential; without it, getCredentials fails as n8n's does. */
	credentials?: { secret: string; username?: string };
	/**
	 * The credential's ID on the node. The trigger keeps a read of its credential for a few seconds (by
	 * workflow, node and this ID), so each delivery gets an ID of its own unless one is given here.
	 */
	credentialId?: string;
}

/** What the node sent by itself through the response object (401, 400). */
export interface SentResponse {
	status: number;
	body: unknown;
	headers: Record<string, string>;
}

export interface FakeResponse {
	status: jest.Mock;
	json: jest.Mock;
	send: jest.Mock;
	end: jest.Mock;
	setHeader: jest.Mock;
}

export interface TriggerRun {
	result: IWebhookResponseData;
	sent?: SentResponse;
	response: FakeResponse;
	/** Every parameter name the node asked for, in order. */
	parametersRead: string[];
	credentialReads: number;
}

const nodeType = new MaintenanceManagementTrigger();
const CREDENTIAL_TYPE = 'maintenanceManagementWebhookApi';

function rawParameters(settings: TriggerSettings): INodeParameters {
	const raw: INodeParameters = {};
	if (settings.events) raw.events = settings.events;
	if (settings.authentication) raw.authentication = settings.authentication;
	if (settings.parameterName !== undefined) raw.parameterName = settings.parameterName;
	if (settings.options) raw.options = { ...settings.options } as INodeParameters;
	return raw;
}

let credentialIds = 0;

function triggerEngine(settings: TriggerSettings, staticData?: IDataObject) {
	const engine = createEngine({
		nodeType,
		parameters: rawParameters(settings),
		credentials: settings.credentials ? { [CREDENTIAL_TYPE]: { ...settings.credentials } } : {},
		staticData,
	});
	const credential = engine.node.credentials?.[CREDENTIAL_TYPE];
	if (credential) credential.id = settings.credentialId ?? `webhook-credential-${++credentialIds}`;
	return engine;
}

/** The node's parameters as n8n holds them: the given ones plus the description's defaults. */
export const nodeParameters = (settings: TriggerSettings): INodeParameters =>
	triggerEngine(settings).node.parameters;

function fakeResponse(record: (sent: SentResponse) => void): FakeResponse {
	const headers: Record<string, string> = {};
	let status = 200;
	const response: FakeResponse = {
		status: jest.fn((code: number) => {
			status = code;
			return response;
		}),
		json: jest.fn((body: unknown) => {
			record({ status, body, headers });
			return response;
		}),
		send: jest.fn((body: unknown) => {
			record({ status, body, headers });
			return response;
		}),
		end: jest.fn(() => {
			record({ status, body: undefined, headers });
			return response;
		}),
		setHeader: jest.fn((name: string, value: string) => {
			headers[name] = value;
			return response;
		}),
	};
	return response;
}

const webhookData = (
	engine: ReturnType<typeof createEngine>,
	method: string,
	webhookUrl = 'http://localhost:5678/webhook/maintenance',
): IWebhookData => ({
	httpMethod: method as IWebhookData['httpMethod'],
	node: engine.node.name,
	path: new URL(webhookUrl).pathname.replace(/^\/webhook\//, ''),
	webhookDescription: nodeType.description.webhooks![0],
	workflowId: engine.workflow.id,
	workflowExecuteAdditionalData: engine.additionalData,
});

/** Runs the trigger's webhook() for one delivery, as n8n's webhook server calls it. */
export async function deliver(settings: TriggerSettings, delivery: Delivery): Promise<TriggerRun> {
	const engine = triggerEngine(settings);
	const method = delivery.method ?? 'POST';
	// The service sends JSON; a delivery gives another Content-Type, or none with `content-type: ''`.
	const headers: IDataObject = { 'content-type': 'application/json' };
	for (const [name, value] of Object.entries(delivery.headers ?? {}))
		headers[name.toLowerCase()] = value;
	if (headers['content-type'] === '') delete headers['content-type'];
	const request = { method, headers, query: delivery.query ?? {}, body: delivery.body, params: {} };
	let sent: SentResponse | undefined;
	const response = fakeResponse((value) => {
		if (sent) throw new Error('The node answered twice');
		sent = value;
	});
	engine.additionalData.httpRequest =
		request as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
	engine.additionalData.httpResponse =
		response as unknown as IWorkflowExecuteAdditionalData['httpResponse'];
	const context = new WebhookContext(
		engine.workflow,
		engine.node,
		engine.additionalData,
		'webhook',
		webhookData(engine, method),
		[],
		null,
	);
	const parameterReads = jest.spyOn(context, 'getNodeParameter');
	const credentialReads = jest.spyOn(context, 'getCredentials');
	const result = await nodeType.webhook.call(context);
	return {
		result,
		sent,
		response,
		parametersRead: parameterReads.mock.calls.map(([name]) => name),
		credentialReads: credentialReads.mock.calls.length,
	};
}

/** The item a delivery starts the workflow with, or undefined when it starts nothing. */
export const startedItem = (run: TriggerRun): IDataObject | undefined =>
	run.result.workflowData?.[0]?.[0]?.json;

/** The body n8n sends for a delivery the node did not answer by itself (responseMode onReceived). */
export const answeredBody = (run: TriggerRun): unknown => run.result.webhookResponse;

/** n8n-core's hook context for webhookMethods, with the workflow's static data kept across calls. */
export function hookContext(
	webhookUrl: string,
	staticData: IDataObject = {},
): { context: IHookFunctions; staticData: IDataObject } {
	const engine = triggerEngine({}, { node: staticData });
	const context = new HookContext(
		engine.workflow,
		engine.node,
		engine.additionalData,
		'trigger',
		'activate',
		webhookData(engine, 'POST', webhookUrl),
	);
	return { context, staticData };
}

export const basicAuth = (user: string, password: string): string =>
	`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
