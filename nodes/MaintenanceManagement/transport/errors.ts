import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** The error body the spec defines: `{ status: 'error', error: { http_code, message, more_info, properties?, dev_message? } }`. */
interface ApiErrorBody {
	http_code?: number;
	message?: string;
	more_info?: string | null;
	dev_message?: string;
	properties?: Record<string, unknown>;
}

const readErrorBody = (body: unknown): ApiErrorBody => {
	if (body && typeof body === 'object' && 'error' in body) {
		const inner = (body as { error: unknown }).error;
		if (inner && typeof inner === 'object') return inner as ApiErrorBody;
	}
	return {};
};

const describeProperty = (value: unknown): string => {
	if (Array.isArray(value)) return value.map(describeProperty).join('; ');
	if (value && typeof value === 'object') return JSON.stringify(value);
	return String(value);
};

/** Lists every entry of a 400 answer's `properties`, one field a line. */
export const formatProperties = (properties: Record<string, unknown> | undefined): string =>
	Object.entries(properties ?? {})
		.map(([field, problem]) => `${field}: ${describeProperty(problem)}`)
		.join('\n');

export interface ApiErrorContext {
	method: string;
	path: string;
	environment: string;
	attempts?: number;
	waitedMs?: number;
}

const STATUS_HINTS: Record<number, (context: ApiErrorContext) => string> = {
	401: ({ environment }) =>
		`The access token was rejected as invalid. Check the token in the credential, and that it was generated in the ${environment} environment: a token works only in the environment that issued it.`,
	403: () =>
		'The token is valid but its user lacks the permission this action needs. Use a token of a user with the required permissions.',
	404: ({ method, path }) =>
		`Nothing exists at ${method} ${path}. Check the ID you entered; the resource may have been deleted.`,
	429: ({ attempts, waitedMs }) =>
		`The rate limit (about 60 requests a minute) was still exceeded after ${attempts ?? 1} attempt(s) and ${Math.round((waitedMs ?? 0) / 1000)} s of waiting. Try again later, process fewer items at once, or raise the retry limits under Request Options.`,
};

const serverHint = ({ method }: ApiErrorContext, statusCode: number): string =>
	method !== 'GET'
		? 'The service failed to process the request. It was not retried, so that nothing is created or changed twice; check whether the change was applied before running it again.'
		: statusCode === 500
			? 'The service failed to process the request, also on retry. The API answers 500 when a read asks for a filter it does not support: check the Filters and Query Parameters (s_… filters in particular), then try again.'
			: 'The service failed to process the request, also on retry. Try again later.';

/** Builds a NodeApiError from an HTTP answer, carrying the spec's message and a useful description. */
export function apiError(
	node: INode,
	statusCode: number,
	body: unknown,
	context: ApiErrorContext,
	itemIndex?: number,
): NodeApiError {
	const error = readErrorBody(body);
	let message = error.message ?? `The API answered with HTTP ${statusCode}`;
	let description: string;
	if (statusCode === 400) {
		const fields = formatProperties(error.properties);
		description = [fields, error.dev_message].filter(Boolean).join('\n');
		if (fields) message = `${message} ${fields.split('\n').join('; ')}`;
	} else if (STATUS_HINTS[statusCode]) {
		description = STATUS_HINTS[statusCode](context);
	} else if (statusCode >= 500) {
		description = serverHint(context, statusCode);
	} else {
		description = error.more_info ?? `${context.method} ${context.path} failed.`;
	}
	const response: JsonObject = {
		httpCode: String(statusCode),
		message,
		...(error as IDataObject),
	} as JsonObject;
	return new NodeApiError(node, response, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex,
	});
}

/** Passes the node's own errors through unchanged and wraps anything else, keeping the item index. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), {
		itemIndex,
	});
}
