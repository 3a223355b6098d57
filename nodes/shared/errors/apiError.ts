/**
 * An API error answer as a NodeApiError worded by its status (`apiError`), with the API's own words
 * quoted. What became of the request is outcome.ts's; the node's own errors are nodeError.ts's, those
 * of the transport's own failures failures.ts's; the node's other words are in messages.ts.
 */

import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { causeOfAnswer } from './causes';
import type { ApiErrorBody } from '../../MaintenanceManagement/transport/exchange';
import { isErrorEnvelope, readErrorBody } from '../../MaintenanceManagement/transport/exchange';
import { outcomeOfStatus, withOutcome } from './outcome';
import {
	API_TEXT,
	closedSentence,
	pathInMessage,
	QUOTE_LIMITS,
	quoted,
	wholeSeconds,
	withWriteAdvice,
} from './text';

/** The most fields of a 400 a message lists; the description lists them all. */
const LISTED_FIELDS = 10;

/** A property's problems as one text: a list joined with "; ", an object as JSON. */
const problemOf = (value: unknown): string =>
	Array.isArray(value)
		? value.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry))).join('; ')
		: typeof value === 'string'
			? value
			: (JSON.stringify(value) ?? String(value));

/** Every entry of a 400 answer's `properties`, quoted, one field a line. */
export const formatProperties = (
	properties: Record<string, unknown> | undefined,
	limit = QUOTE_LIMITS.description,
): string[] =>
	Object.entries(properties ?? {}).map(
		([field, problem]) =>
			`field ${quoted(field, QUOTE_LIMITS.name)}: ${quoted(problemOf(problem), limit)}`,
	);

/** The API's own words of an error answer, quoted, for a message: its message and the fields it names. */
function apiWords(error: ApiErrorBody): string {
	const words: string[] = [];
	if (error.message !== undefined) words.push(`message ${quoted(error.message)}`);
	const fields = formatProperties(error.properties, QUOTE_LIMITS.message);
	words.push(...fields.slice(0, LISTED_FIELDS));
	if (fields.length > LISTED_FIELDS)
		words.push(`and ${fields.length - LISTED_FIELDS} more fields (see the error's details)`);
	return words.length ? ` ${API_TEXT} ${words.join('; ')}` : '';
}

export interface ApiErrorContext {
	method: string;
	path: string;
	environment: string;
	attempts?: number;
	/** How long this request waited. */
	waitedMs?: number;
	/** Why the node did not wait once more, when a limit of Request Options stopped it. */
	refusedWait?: string;
	/** The wait a 429 asked for. */
	retryAfterMs?: number;
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

/** An ID as a message shows it: as is when plain, else quoted as data. */
const shownId = (id: string): string =>
	/^[\w.:-]{1,64}$/.test(id) ? id : quoted(id, QUOTE_LIMITS.name);

/** A 5xx: the service failed. A status past 599 is no HTTP class, and says nothing of the service. */
const isServerError = (statusCode: number): boolean => statusCode >= 500 && statusCode < 600;

/** A 2xx: the status says the API did what was asked. */
const isSuccess = (statusCode: number): boolean => statusCode >= 200 && statusCode < 300;

/** Whether an error envelope's `http_code` is an HTTP error status. */
const isErrorStatus = (code: unknown): code is number =>
	Number.isInteger(code) && (code as number) >= 400 && (code as number) < 600;

/**
 * The message of a success status whose body is the API's error envelope: the answer contradicts
 * itself, so a write may have been applied (the status says so) or refused (the body says so), and its
 * message says to check; a read wrote nothing. Then the API's own words, quoted as data.
 */
function contradictionMessage(
	answered: number,
	statusCode: number,
	error: ApiErrorBody,
	{ method, path }: ApiErrorContext,
): string {
	const named = statusCode === answered ? '' : ` (${statusCode})`;
	const said = `The API answered ${method} ${pathInMessage(path)} with ${answered}, and with its error envelope${named}`;
	const own =
		method === 'GET'
			? `${said}. Nothing was output for it; check the request and try again`
			: withWriteAdvice(`${said}, so the node cannot tell whether it was applied`, method);
	return `${closedSentence(own)}${apiWords(error)}`;
}

/**
 * The message of an API error: what happened, to which record or field, and what to do, in one or two
 * sentences of the node's own; then, for a 400 and a status the spec does not list, the API's own words
 * after `API_TEXT`, each quoted as data, never spliced into the node's sentences. An AI agent sees only
 * this message (n8n passes it the message, not the description).
 */
function actionableMessage(
	statusCode: number,
	error: ApiErrorBody,
	context: ApiErrorContext,
): string {
	const { method, path, environment } = context;
	const where = `${method} ${pathInMessage(path)}`;
	switch (statusCode) {
		case 400:
			return Object.keys(error.properties ?? {}).length === 0
				? `The API refused the request (400) without naming a field. Check the values sent and try again.${apiWords(error)}`
				: `The API refused the request (400). Correct the fields it names and try again.${apiWords(error)}`;
		case 401:
			return `The access token was rejected (401). Check the token in the credential, and that it was issued in the ${environment} environment.`;
		case 403:
			return `The token's user is not allowed to ${where} (403). Use a token of a user with that permission.`;
		case 404: {
			const record = addressedRecord(path);
			if (!record)
				return `Nothing was found for ${where} (404). Check the IDs sent; a record may have been deleted.`;
			const find = record.list ? `, or list ${record.list} to find it` : ' in the service';
			return `${record.name} ${shownId(record.id)} was not found (404). Check the ID${find}.`;
		}
		case 429:
			return [
				`The rate limit was still exceeded (429) after ${context.attempts ?? 1} attempt(s) and ${wholeSeconds(context.waitedMs ?? 0)} s of waiting for this request.`,
				context.refusedWait,
				'Run the item again later, or raise Max Wait per Request or Max Attempts on Rate Limit under Request Options.',
			]
				.filter(Boolean)
				.join(' ');
	}
	if (isServerError(statusCode)) {
		if (method !== 'GET')
			return withWriteAdvice(
				`The service failed on ${where} (${statusCode}) and the request was not retried`,
				method,
			);
		return statusCode === 500
			? `The service failed on ${where} (500), also on retry. Check the filters and query parameters (the API answers 500 for an s_ filter it does not support), then try again.`
			: `The service failed on ${where} (${statusCode}), also on retry. Try again later.`;
	}
	// Any other status that leaves the request unknown (outside 2xx to 5xx) may have written a write.
	const answered = `The API answered ${statusCode} to ${where}`;
	const own =
		outcomeOfStatus(statusCode) === 'unknown' ? withWriteAdvice(answered, method) : answered;
	return `${closedSentence(own)}${apiWords(error)}`;
}

const STATUS_HINTS: Record<number, (context: ApiErrorContext) => string> = {
	401: ({ environment }) =>
		`A token works only in the environment that issued it; this credential uses the ${environment} environment. Generate a token there, or switch the environment.`,
	403: () =>
		'The token is valid but its user lacks the permission this action needs. Use a token of a user with the required permissions.',
	404: ({ method, path }) =>
		`Nothing exists at ${method} ${pathInMessage(path)}. Check the ID you entered; the resource may have been deleted.`,
	429: () =>
		"The API's rate limit is about 60 requests a minute; the node waits for it between requests as the API's answers say. Max Attempts on Rate Limit, Max Wait per Request and Max Total Wait under Request Options bound that waiting.",
};

const serverHint = ({ method }: ApiErrorContext, statusCode: number): string =>
	method !== 'GET'
		? 'The service failed to process the request. It was not retried, so that nothing is created or changed twice; check whether the change was applied before running it again.'
		: statusCode === 500
			? 'The service failed to process the request, also on retry. The API answers 500 when a read asks for a filter it does not support: check the Filters and Query Parameters (s_… filters in particular), then try again.'
			: 'The service failed to process the request, also on retry. Try again later.';

/**
 * Builds a NodeApiError from an HTTP answer: an error status, or a success whose body is the API's
 * error envelope, which is the error its `http_code` names. Its message says what happened and what to
 * do; its description keeps the detail: the API's own message, every failing property, the API's hints.
 */
export function apiError(
	node: INode,
	answered: number,
	body: unknown,
	context: ApiErrorContext,
	itemIndex?: number,
): NodeApiError {
	const error = readErrorBody(body);
	const contradicted = isSuccess(answered);
	const statusCode = contradicted && isErrorStatus(error.http_code) ? error.http_code : answered;
	const message = contradicted
		? contradictionMessage(answered, statusCode, error, context)
		: actionableMessage(statusCode, error, context);
	const quote = (text: unknown) => quoted(text, QUOTE_LIMITS.description);
	const said =
		error.message !== undefined ? `The API answered ${statusCode}: ${quote(error.message)}.` : '';
	let detail: string;
	if (statusCode === 400) {
		const devMessage =
			error.dev_message === undefined ? [] : [`dev_message ${quote(error.dev_message)}`];
		detail = [...formatProperties(error.properties), ...devMessage].join('\n');
	} else if (contradicted && context.method !== 'GET') {
		// A write the status says was done: no advice for the error the body names (a wait, a token).
		detail = `The status (${answered}) says the ${context.method} was done; the body says it failed (${statusCode}). Check whether the change was applied before sending it again.`;
	} else if (Object.hasOwn(STATUS_HINTS, statusCode)) {
		detail = STATUS_HINTS[statusCode](context);
	} else if (isServerError(statusCode)) {
		detail = serverHint(context, statusCode);
	} else {
		detail = error.more_info
			? `more_info ${quote(error.more_info)}`
			: `${context.method} ${pathInMessage(context.path)} failed.`;
	}
	const description = [said, detail].filter(Boolean).join('\n');
	const response: JsonObject = {
		httpCode: String(statusCode),
		message,
		...(error as IDataObject),
	} as JsonObject;
	const nodeError = new NodeApiError(node, response, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex,
		// A write answered with success may have been applied: no cause that asks for a wait or a fix.
		failure:
			contradicted && context.method !== 'GET'
				? undefined
				: causeOfAnswer({ ...context, statusCode, inApiEnvelope: isErrorEnvelope(body) }),
	});
	// The fields the API refused and its words for each, for a caller that knows more of them (a value
	// that must be unique).
	nodeError.context.refused = Object.fromEntries(
		Object.entries(error.properties ?? {}).map(([field, problem]) => [
			field,
			problemOf(problem).slice(0, QUOTE_LIMITS.description),
		]),
	);
	return withOutcome(
		nodeError,
		contradicted && context.method !== 'GET' ? 'unknown' : outcomeOfStatus(statusCode),
	);
}
