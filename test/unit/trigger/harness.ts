import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { MaintenanceManagementTrigger } from '../../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';

export interface Delivery {
	method?: 'POST' | 'PATCH';
	body?: unknown;
	query?: IDataObject;
	headers?: IDataObject;
}

export interface TriggerSettings {
	events?: string[];
	authentication?: 'none' | 'query' | 'header' | 'basicAuth';
	parameterName?: string;
	options?: { eventPath?: string; includeHeaders?: boolean };
	credentials?: { secret: string; username?: string };
}

export interface TriggerResult {
	result: IWebhookResponseData;
	/** What the node answered by itself, when it did (401, 400). */
	sent?: { status: number; body: unknown; headers: Record<string, string> };
}

/** Runs the trigger's webhook() for one delivery, as n8n calls it. */
export async function deliver(settings: TriggerSettings, delivery: Delivery): Promise<TriggerResult> {
	const node = new MaintenanceManagementTrigger();
	const parameters: IDataObject = {
		events: settings.events ?? ['*'],
		authentication: settings.authentication ?? 'none',
		parameterName: settings.parameterName ?? (settings.authentication === 'header' ? 'X-Webhook-Secret' : 'token'),
		options: settings.options ?? {},
	};
	const headers: IDataObject = {};
	for (const [name, value] of Object.entries(delivery.headers ?? {})) headers[name.toLowerCase()] = value;
	let sent: TriggerResult['sent'];
	const responseHeaders: Record<string, string> = {};
	const response = {
		setHeader: (name: string, value: string) => (responseHeaders[name] = value),
		status(status: number) {
			return {
				json: (body: unknown) => {
					sent = { status, body, headers: responseHeaders };
				},
			};
		},
	};
	const context = {
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
		getRequestObject: () => ({ method: delivery.method ?? 'POST', headers, query: delivery.query ?? {}, body: delivery.body }),
		getResponseObject: () => response,
		getBodyData: () => delivery.body,
		getHeaderData: () => headers,
		getQueryData: () => delivery.query ?? {},
		getCredentials: async () => {
			if (!settings.credentials) throw new Error('No credential set');
			return settings.credentials;
		},
		getNode: () => ({ name: 'Maintenance Management Trigger', type: 'maintenanceManagementTrigger', typeVersion: 1, parameters }),
		getWebhookName: () => 'default',
	} as unknown as IWebhookFunctions;
	const result = await node.webhook.call(context);
	return { result, sent };
}

/** The item a delivery starts the workflow with, or undefined when it starts nothing. */
export const startedItem = (outcome: TriggerResult): IDataObject | undefined => outcome.result.workflowData?.[0]?.[0]?.json;
