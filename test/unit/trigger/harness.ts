import type {
	IDataObject,
	IHookFunctions,
	INode,
	INodeParameters,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MaintenanceManagementTrigger } from '../../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';

/**
 * A small stand-in for the context n8n gives a trigger's webhook() and webhookMethods, for unit tests.
 * Parameters get their defaults from the node description through n8n-workflow itself, as in n8n, so
 * a test sets only what it means to change.
 */

export type Method = 'POST' | 'PATCH';
export type Protection = 'none' | 'query' | 'header' | 'basicAuth';

export interface Delivery {
	method?: Method;
	body?: unknown;
	query?: IDataObject;
	/** Header names in any case; like Node.js, the harness hands them to the node in lower case. */
	headers?: Record<string, string | string[]>;
}

export interface TriggerSettings {
	events?: string[];
	authentication?: Protection;
	parameterName?: string;
	options?: { eventPath?: string; includeHeaders?: boolean };
	/** The decrypted webhook credential; without it, getCredentials fails as n8n's does. */
	credentials?: { secret: string; username?: string };
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

/** The node's parameters as n8n would hold them: the given ones plus the description's defaults. */
export function nodeParameters(settings: TriggerSettings): INodeParameters {
	const raw: INodeParameters = {};
	if (settings.events) raw.events = settings.events;
	if (settings.authentication) raw.authentication = settings.authentication;
	if (settings.parameterName !== undefined) raw.parameterName = settings.parameterName;
	if (settings.options) raw.options = { ...settings.options } as INodeParameters;
	const node = makeNode(raw);
	return (
		NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			raw,
			true,
			false,
			node,
			nodeType.description,
		) ?? raw
	);
}

function makeNode(parameters: INodeParameters): INode {
	return {
		id: 'trigger-node',
		name: 'Maintenance Management Trigger',
		type: 'n8n-nodes-maintenance-management.maintenanceManagementTrigger',
		typeVersion: 2,
		position: [0, 0],
		parameters,
	};
}

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

/** Runs the trigger's webhook() for one delivery, as n8n calls it. */
export async function deliver(settings: TriggerSettings, delivery: Delivery): Promise<TriggerRun> {
	const parameters = nodeParameters(settings);
	const headers: IDataObject = {};
	for (const [name, value] of Object.entries(delivery.headers ?? {}))
		headers[name.toLowerCase()] = value;
	const query = delivery.query ?? {};
	const request = { method: delivery.method ?? 'POST', headers, query, body: delivery.body };
	let sent: SentResponse | undefined;
	const response = fakeResponse((value) => {
		if (sent) throw new Error('The node answered twice');
		sent = value;
	});
	const parametersRead: string[] = [];
	let credentialReads = 0;
	const context = {
		getNodeParameter(name: string, fallback?: unknown) {
			parametersRead.push(name);
			const value = parameters[name] ?? fallback;
			if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
			return value;
		},
		getRequestObject: () => request,
		getResponseObject: () => response,
		getBodyData: () => delivery.body,
		getHeaderData: () => headers,
		getQueryData: () => query,
		getParamsData: () => ({}),
		async getCredentials(type: string) {
			credentialReads++;
			if (type !== 'maintenanceManagementWebhookApi')
				throw new Error(`Unknown credential type ${type}`);
			if (!settings.credentials)
				throw new Error(
					'Node does not have any credentials set for "maintenanceManagementWebhookApi"',
				);
			return { ...settings.credentials };
		},
		getNode: () => makeNode(parameters),
		getWebhookName: () => 'default',
		getMode: () => 'webhook',
		helpers: {
			returnJsonArray: (data: IDataObject | IDataObject[]) =>
				(Array.isArray(data) ? data : [data]).map((json) => ({ json })),
		},
	} as unknown as IWebhookFunctions;
	const result = await nodeType.webhook.call(context);
	return { result, sent, response, parametersRead, credentialReads };
}

/** The item a delivery starts the workflow with, or undefined when it starts nothing. */
export const startedItem = (run: TriggerRun): IDataObject | undefined =>
	run.result.workflowData?.[0]?.[0]?.json;

/** The body n8n sends for a delivery the node did not answer by itself (responseMode onReceived). */
export const answeredBody = (run: TriggerRun): unknown => run.result.webhookResponse;

/** A stand-in for the hook context of webhookMethods, with the workflow's static data kept across calls. */
export function hookContext(
	webhookUrl: string,
	staticData: IDataObject = {},
): { context: IHookFunctions; staticData: IDataObject } {
	const context = {
		getWorkflowStaticData: (type: string) => {
			if (type !== 'node') throw new Error(`Unexpected static data type ${type}`);
			return staticData;
		},
		getNodeWebhookUrl: (name: string) => (name === 'default' ? webhookUrl : undefined),
		getNode: () => makeNode(nodeParameters({})),
		getWebhookName: () => 'default',
	} as unknown as IHookFunctions;
	return { context, staticData };
}

export const basicAuth = (user: string, password: string): string =>
	`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
