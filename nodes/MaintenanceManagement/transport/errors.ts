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

/** The records a path can address by ID, by the path segment before the ID: name, and where to find one. */
const RECORDS: Record<string, { name: string; list?: string }> = {
	locations: { name: 'Location', list: 'locations' },
	failures: { name: 'Work order', list: 'work orders' },
	suppliers: { name: 'Supplier', list: 'suppliers' },
	'buy-orders': { name: 'Buy order', list: 'buy orders' },
	materials: { name: 'Material' },
	clients: { name: 'Client' },
	'sell-orders': { name: 'Sell order' },
	quotes: { name: 'Quote' },
	warehouses: { name: 'Warehouse' },
};

const decode = (segment: string): string => {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
};

/** The record a path addresses by ID (`/sales/buy-orders/7` → Buy order 7), the last one when nested. */
export function addressedRecord(path: string): { name: string; id: string; list?: string } | null {
	const segments = path.split('/').filter(Boolean);
	for (let index = segments.length - 2; index >= 0; index--) {
		const record = Object.hasOwn(RECORDS, segments[index]) ? RECORDS[segments[index]] : undefined;
		if (record) return { ...record, id: decode(segments[index + 1]) };
	}
	return null;
}

/** "a", "a and b", "a, b and c". */
const listed = (names: string[]): string =>
	names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * The message of an API error: what happened, to which record or field, and what to do, in one or two
 * sentences. An AI agent sees only this message (n8n passes it the message, not the description).
 */
function actionableMessage(
	statusCode: number,
	error: ApiErrorBody,
	context: ApiErrorContext,
): string {
	const { method, path, environment } = context;
	const where = `${method} ${path}`;
	switch (statusCode) {
		case 400: {
			const fields = Object.keys(error.properties ?? {});
			if (fields.length === 0)
				return `${sentence(error.message ?? 'The API refused the request (400)')} The API named no field; check the values sent and try again.`;
			const problems = formatProperties(error.properties).split('\n').join('; ');
			return `${sentence(error.message ?? 'The API refused the request (400)')} ${sentence(problems)} Correct ${listed(fields)} and try again.`;
		}
		case 401:
			return `The access token was rejected (401). Check the token in the credential, and that it was issued in the ${environment} environment.`;
		case 403:
			return `The token's user is not allowed to ${where} (403). Use a token of a user with that permission.`;
		case 404: {
			const record = addressedRecord(path);
			if (!record)
				return `Nothing was found for ${where} (404). Check the IDs sent; a record may have been deleted.`;
			const find = record.list ? `, or list ${record.list} to find it` : ' in the service';
			return `${record.name} ${record.id} was not found (404). Check the ID${find}.`;
		}
		case 429:
			return `The rate limit was still exceeded (429) after ${context.attempts ?? 1} attempt(s) and ${Math.round((context.waitedMs ?? 0) / 1000)} s of waiting. Try again later, or process fewer items at once.`;
	}
	if (statusCode >= 500) {
		if (method !== 'GET')
			return `The service failed on ${where} (${statusCode}) and the request was not retried. Check whether the change was applied before trying again.`;
		return statusCode === 500
			? `The service failed on ${where} (500), also on retry. Check the filters and query parameters (the API answers 500 for an s_ filter it does not support), then try again.`
			: `The service failed on ${where} (${statusCode}), also on retry. Try again later.`;
	}
	return error.message
		? `${error.message.replace(/[.!?]+$/, '')} (${statusCode} on ${where}).`
		: `The API answered ${statusCode} to ${where}.`;
}

const STATUS_HINTS: Record<number, (context: ApiErrorContext) => string> = {
	401: ({ environment }) =>
		`A token works only in the environment that issued it; this credential uses the ${environment} environment. Generate a token there, or switch the environment.`,
	403: () =>
		'The token is valid but its user lacks the permission this action needs. Use a token of a user with the required permissions.',
	404: ({ method, path }) =>
		`Nothing exists at ${method} ${path}. Check the ID you entered; the resource may have been deleted.`,
	429: () =>
		"The API's rate limit is about 60 requests a minute. Raise Max Attempts or Max Total Wait under Request Options to wait longer.",
};

const serverHint = ({ method }: ApiErrorContext, statusCode: number): string =>
	method !== 'GET'
		? 'The service failed to process the request. It was not retried, so that nothing is created or changed twice; check whether the change was applied before running it again.'
		: statusCode === 500
			? 'The service failed to process the request, also on retry. The API answers 500 when a read asks for a filter it does not support: check the Filters and Query Parameters (s_… filters in particular), then try again.'
			: 'The service failed to process the request, also on retry. Try again later.';

/**
 * Builds a NodeApiError from an HTTP answer. Its message says what happened and what to do; its
 * description keeps the detail: the API's own message, every failing property, the API's hints.
 */
export function apiError(
	node: INode,
	statusCode: number,
	body: unknown,
	context: ApiErrorContext,
	itemIndex?: number,
): NodeApiError {
	const error = readErrorBody(body);
	const message = actionableMessage(statusCode, error, context);
	const said = error.message ? `The API answered ${statusCode}: "${error.message}".` : '';
	let detail: string;
	if (statusCode === 400) {
		detail = [formatProperties(error.properties), error.dev_message].filter(Boolean).join('\n');
	} else if (STATUS_HINTS[statusCode]) {
		detail = STATUS_HINTS[statusCode](context);
	} else if (statusCode >= 500) {
		detail = serverHint(context, statusCode);
	} else {
		detail = error.more_info ?? `${context.method} ${context.path} failed.`;
	}
	const description = [said, detail].filter(Boolean).join('\n');
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
