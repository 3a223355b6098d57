import type {
	IAuthenticateGeneric,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MaintenanceManagementApi } from '../../../credentials/MaintenanceManagementApi.credentials';

/**
 * A small stand-in for n8n's execution context, for unit tests: parameters get their defaults from the
 * node description through n8n-workflow itself, and HTTP goes out for real (global fetch) with the
 * credential's Bearer header, as `httpRequestWithAuthentication` does in n8n.
 */

export interface Credentials {
	accessToken: string;
	environment: 'production' | 'sandbox';
	productionBaseUrl?: string;
	sandboxBaseUrl?: string;
}

/** A parameter value, or a function of the item index standing for an n8n expression. */
export type ParameterValue = unknown | ((itemIndex: number, item: IDataObject) => unknown);

export interface RunOptions {
	node: INodeType;
	parameters: Record<string, ParameterValue>;
	items?: IDataObject[];
	credentials: Credentials;
	continueOnFail?: boolean;
}

export interface SentRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body?: unknown;
}

export interface RunResult {
	output: INodeExecutionData[];
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	requests: SentRequest[];
}

const getPath = (source: unknown, path: string): unknown =>
	path
		.split('.')
		.reduce<unknown>(
			(value, key) =>
				value && typeof value === 'object' ? (value as IDataObject)[key] : undefined,
			source,
		);

/**
 * Applies the credential's own `authenticate` block: its header expressions are evaluated against the
 * credential data, as n8n evaluates them, so the tests exercise the credential's real expression text.
 */
function authenticationHeaders(credentials: Credentials): Record<string, string> {
	const { headers } = (new MaintenanceManagementApi().authenticate as IAuthenticateGeneric)
		.properties;
	const result: Record<string, string> = {};
	for (const [name, expression] of Object.entries(headers ?? {})) {
		const source = String(expression)
			.replace(/^=\{\{/, '')
			.replace(/\}\}$/, '');
		result[name] = String(new Function('$credentials', `return (${source});`)(credentials));
	}
	return result;
}

async function send(
	options: IHttpRequestOptions,
	credentials: Credentials,
	requests: SentRequest[],
) {
	const url = new URL(options.url);
	for (const [key, value] of Object.entries(options.qs ?? {})) {
		if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
	}
	const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
	Object.assign(headers, authenticationHeaders(credentials));
	const body = options.body === undefined ? undefined : JSON.stringify(options.body);
	requests.push({
		method: String(options.method ?? 'GET'),
		url: url.toString(),
		headers,
		body: options.body,
	});
	let response: Response;
	try {
		response = await fetch(url, { method: options.method ?? 'GET', headers, body });
	} catch (error) {
		const cause = (error as { cause?: { code?: string; message?: string } }).cause;
		throw Object.assign(new Error(cause?.message ?? (error as Error).message), {
			code: cause?.code,
		});
	}
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = text === '' ? undefined : JSON.parse(text);
	} catch {
		// not JSON: keep the text
	}
	const responseHeaders: IDataObject = {};
	response.headers.forEach((value, key) => (responseHeaders[key] = value));
	if (!options.ignoreHttpStatusErrors && response.status >= 400) {
		throw Object.assign(new Error(`Request failed with status code ${response.status}`), {
			httpCode: response.status,
		});
	}
	return options.returnFullResponse
		? { statusCode: response.status, headers: responseHeaders, body: parsed }
		: parsed;
}

function makeNode(description: INodeType['description'], parameters: INodeParameters): INode {
	return {
		id: 'test-node',
		name: description.defaults.name ?? description.displayName,
		type: description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

/** Runs a node's `execute` over the given items and returns its output, its error, and what it sent. */
export async function runNode(options: RunOptions): Promise<RunResult> {
	const { node: nodeType, credentials } = options;
	const items = (options.items ?? [{}]).map((json) => ({ json }));
	const requests: SentRequest[] = [];
	const resolved = new Map<number, INodeParameters>();
	const resolve = (itemIndex: number): INodeParameters => {
		let parameters = resolved.get(itemIndex);
		if (!parameters) {
			const raw: INodeParameters = {};
			for (const [name, value] of Object.entries(options.parameters)) {
				raw[name] = (
					typeof value === 'function' ? value(itemIndex, items[itemIndex]?.json ?? {}) : value
				) as INodeParameters[string];
			}
			const node = makeNode(nodeType.description, raw);
			parameters =
				NodeHelpers.getNodeParameters(
					nodeType.description.properties,
					raw,
					true,
					false,
					node,
					nodeType.description,
				) ?? raw;
			resolved.set(itemIndex, parameters);
		}
		return parameters;
	};
	const node = makeNode(nodeType.description, resolve(0));
	const context = {
		getInputData: () => items,
		getNode: () => node,
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials: async () => ({ ...credentials }) as unknown as IDataObject,
		getNodeParameter: (
			name: string,
			itemIndex: number,
			fallback?: unknown,
			extra?: { extractValue?: boolean },
		) => {
			let value = getPath(resolve(itemIndex), name);
			if (value === undefined) return fallback;
			if (extra?.extractValue && value && typeof value === 'object' && '__rl' in value) {
				value = (value as IDataObject).value;
			}
			return value;
		},
		helpers: {
			httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) =>
				await send(request, credentials, requests),
			returnJsonArray: (data: IDataObject | IDataObject[]) =>
				(Array.isArray(data) ? data : [data]).map((json) => ({ json })),
		},
	} as unknown as IExecuteFunctions;
	try {
		const output = await nodeType.execute!.call(context);
		return { output: (output as INodeExecutionData[][])[0] ?? [], requests };
	} catch (error) {
		return { output: [], error: error as RunResult['error'], requests };
	}
}

/** A load-options context, for list-search methods. */
export function loadOptionsContext(
	nodeType: INodeType,
	credentials: Credentials,
	requests: SentRequest[] = [],
) {
	return {
		getNode: () => makeNode(nodeType.description, {}),
		getCredentials: async () => ({ ...credentials }) as unknown as IDataObject,
		getNodeParameter: () => undefined,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) =>
				await send(request, credentials, requests),
		},
	} as unknown as ILoadOptionsFunctions;
}
