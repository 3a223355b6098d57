import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	emptyValueError,
	filledByModel,
	filterField,
	isEmptyValue,
	pathIdField,
	queryParameterField,
} from '../helpers/empty';
import { displayNames } from '../helpers/displayNames';
import { itemNumber } from '../helpers/errorText';
import { normalize } from '../helpers/normalize';
import { validate } from '../helpers/validate';
import type { OutputChoice } from '../helpers/simplify';
import { toItems } from '../helpers/simplify';
import type {
	AnswerShape,
	ApiEnvelope,
	ApiRequest,
	ApiResource,
	RequestPolicy,
} from '../transport';
import {
	apiRequest,
	apiRequestAllItems,
	asNodeError,
	buildPath,
	DEFAULT_POLICY,
	pathValueProblem,
	recordsOf,
	POLICY_CEILING,
} from '../transport';
import { mayHaveBeenWritten, plainText, withOutcome } from '../transport/errors';
import { ItemLoop } from './itemLoop';
import type { Endpoint, OperationModule } from './types';

/** The shape of `data` the spec gives for an endpoint's answer. */
const answerShape = (endpoint: Endpoint): AnswerShape =>
	endpoint.list || endpoint.answersList ? 'a list of records' : 'one record';

const nameCache = new WeakMap<OperationModule, Map<string, string>>();

export function namesOf(operation: OperationModule): Map<string, string> {
	let names = nameCache.get(operation);
	if (!names) {
		names = displayNames(operation.description);
		nameCache.set(operation, names);
	}
	return names;
}

const queryValue = (value: unknown): string | number | boolean =>
	Array.isArray(value) ? value.join(',') : (value as string | number | boolean);

/** A Request Options number: its default when unset or not finite, kept within its bounds. */
const bounded = (value: unknown, fallback: number, min: number, max: number): number => {
	const number = Number(value ?? fallback);
	return Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : fallback;
};

/** The retry, timeout and paging limits of the "Request Options" collection. */
export function readRetry(this: IExecuteFunctions, itemIndex: number): RequestPolicy {
	const options = this.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	const seconds = (value: unknown, fallbackMs: number, max: number) =>
		bounded(value, fallbackMs / 1000, 0, max) * 1000;
	return {
		...DEFAULT_POLICY,
		maxAttempts: Math.floor(
			bounded(options.maxAttempts, DEFAULT_POLICY.maxAttempts, 1, POLICY_CEILING.maxAttempts),
		),
		maxRequestWaitMs: seconds(
			options.maxRequestWaitSeconds,
			DEFAULT_POLICY.maxRequestWaitMs,
			86_400,
		),
		// Max Total Wait caps the execution's waiting only when set above 0.
		maxTotalWaitMs:
			Number(options.maxWaitSeconds) > 0
				? seconds(options.maxWaitSeconds, 0, 86_400)
				: DEFAULT_POLICY.maxTotalWaitMs,
		timeoutMs: Math.max(1000, seconds(options.timeoutSeconds, DEFAULT_POLICY.timeoutMs, 3600)),
		maxPages: Math.floor(
			bounded(options.maxPages, DEFAULT_POLICY.maxPages, 1, POLICY_CEILING.maxPages),
		),
	};
}

/** Reads and validates the body of item i. Throws before anything is sent when the input is invalid. */
export function readBody(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): IDataObject {
	const spec = operation.endpoint.body;
	if (!spec) return {};
	const raw: IDataObject = {};
	for (const name of spec.fields ?? []) {
		raw[name] = this.getNodeParameter(name, itemIndex, undefined, {
			extractValue: true,
		}) as IDataObject;
	}
	for (const collection of spec.collections ?? []) {
		Object.assign(raw, this.getNodeParameter(collection, itemIndex, {}) as IDataObject);
	}
	const node = this.getNode();
	return validate<IDataObject>(
		spec.schema(),
		normalize(raw, node, itemIndex),
		node,
		itemIndex,
		namesOf(operation),
	);
}

/** Each `{slot}` of the endpoint's path with the node parameter that holds its value. */
export const pathSlots = (endpoint: Endpoint): Array<[slot: string, parameter: string]> =>
	[...endpoint.path.matchAll(/\{([^}]+)\}/g)].map(([, slot]) => [
		slot,
		endpoint.pathParams?.[slot] ?? slot,
	]);

/** The path parameters of item i, slot by slot. Throws before anything is sent when one is missing. */
export function readPathValues(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): Record<string, string> {
	const { endpoint } = operation;
	const names = namesOf(operation);
	const node = this.getNode();
	const pathValues: Record<string, string> = {};
	for (const [slot, parameter] of pathSlots(endpoint)) {
		const value = this.getNodeParameter(parameter, itemIndex, '', { extractValue: true });
		const name = names.get(parameter) ?? parameter;
		if (isEmptyValue(value)) {
			const raw = node.parameters[parameter];
			throw emptyValueError(node, itemIndex, pathIdField(name, raw), raw, value);
		}
		const problem = pathValueProblem(value);
		if (problem) {
			throw new NodeOperationError(node, `"${name}" ${problem}`, {
				itemIndex,
				description: `Enter the ID in "${name}" as the API gives it. No request was sent.`,
			});
		}
		pathValues[slot] = String(value).trim();
	}
	return pathValues;
}

/** A list of names given as an array or as text separated by commas (as a model or a person writes it). */
export const nameList = (value: unknown): string[] => [
	...new Set(
		(Array.isArray(value) ? value.map(String) : String(value ?? '').split(','))
			.map((name) => name.trim())
			.filter(Boolean),
	),
];

/** How item i's records are output: Simplify in version 1 of the node, the Output choice from version 2. */
export function readOutput(this: IExecuteFunctions, itemIndex: number): OutputChoice {
	if (this.getNode().typeVersion < 2) {
		return { mode: this.getNodeParameter('simplify', itemIndex, true) ? 'legacy' : 'raw' };
	}
	const mode = this.getNodeParameter('output', itemIndex, 'simplified') as string;
	if (mode === 'raw') return { mode };
	if (mode !== 'selected') return { mode: 'simplified' };
	const fields = nameList(this.getNodeParameter('fields', itemIndex, ''));
	if (fields.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'"Fields" is empty: name the fields to output, separated by commas (for example "status, description"), or choose another Output. No request was sent.',
			{ itemIndex },
		);
	}
	return { mode, fields };
}

/** Builds the request of item i: path, query and validated body. */
export function buildRequest(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): ApiRequest {
	const { endpoint } = operation;
	const node = this.getNode();
	const names = namesOf(operation);
	const pathValues = readPathValues.call(this, operation, itemIndex);
	let qs: IDataObject = {};
	for (const name of endpoint.query ?? []) {
		const value = this.getNodeParameter(name, itemIndex, undefined) as unknown;
		if (!isEmptyValue(value)) qs[name] = queryValue(value);
	}
	// A filter in a collection is there because the user added it: empty, it is an error, not left out.
	for (const collection of endpoint.queryCollections ?? []) {
		const values = this.getNodeParameter(collection, itemIndex, {}) as IDataObject;
		const raw = (node.parameters[collection] ?? {}) as IDataObject;
		for (const [name, value] of Object.entries(values)) {
			if (isEmptyValue(value)) {
				if (filledByModel(raw[name])) continue;
				const filter = {
					name,
					displayName: names.get(name) ?? name,
					collection: names.get(collection) ?? collection,
				};
				throw emptyValueError(node, itemIndex, filterField(filter), raw[name], value);
			}
			qs[name] = queryValue(value);
		}
	}
	if (endpoint.querySchema) {
		qs = validate<IDataObject>(endpoint.querySchema(), qs, node, itemIndex, names);
	}
	type Entry = { name?: unknown; value?: unknown };
	const extra = this.getNodeParameter(
		'options.queryParameters.parameters',
		itemIndex,
		[],
	) as Entry[];
	const rawExtra = (
		(node.parameters.options as IDataObject | undefined)?.queryParameters as
			{ parameters?: Entry[] } | undefined
	)?.parameters;
	for (const [index, entry] of extra.entries()) {
		const empty = (['name', 'value'] as const).find((part) => isEmptyValue(entry[part]));
		if (empty === 'value' && filledByModel(rawExtra?.[index]?.value)) continue;
		if (empty) {
			const raw = rawExtra?.[index]?.[empty];
			const field = queryParameterField(index, entry.name, empty);
			throw emptyValueError(node, itemIndex, field, raw, entry[empty]);
		}
		qs[String(entry.name).trim()] = queryValue(entry.value);
	}
	const request: ApiRequest = {
		method: endpoint.method,
		path: buildPath(endpoint.path, pathValues),
		qs,
		answers: answerShape(endpoint),
	};
	if (endpoint.body) request.body = readBody.call(this, operation, itemIndex);
	return request;
}

/**
 * A 400 that names a field the API keeps unique: the message leads with the value refused and says that
 * a record with it most likely exists, so that a re-run after a stop can route those items aside.
 */
function withTakenValue(
	operation: OperationModule,
	request: ApiRequest,
	itemIndex: number,
	error: unknown,
): unknown {
	const unique = operation.endpoint.body?.unique ?? [];
	if (!(error instanceof NodeApiError) || error.httpCode !== '400' || !unique.length) return error;
	const refused = error.context.fields as string[] | undefined;
	const taken = unique.filter(
		(field) => refused?.includes(field) && request.body?.[field] !== undefined,
	);
	if (!taken.length) return error;
	const names = namesOf(operation);
	const values = taken.map(
		(field) => `${names.get(field) ?? field} ${plainText(JSON.stringify(request.body?.[field]))}`,
	);
	const one = taken.length === 1;
	error.message = `${values.join(' and ')} in item ${itemNumber(itemIndex)} already ${one ? 'exists' : 'exist'}, most likely: the API keeps ${one ? 'this value' : 'these values'} unique and refused ${one ? 'it' : 'them'} (as it refuses, when run again, an item written before a stopped run). Route the item aside, or change the value. ${error.message}`;
	return error;
}

/** Runs one item through an endpoint and returns its output records. */
export async function executeEndpoint(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): Promise<IDataObject[]> {
	const request = buildRequest.call(this, operation, itemIndex);
	const retry = readRetry.call(this, itemIndex);
	const output = readOutput.call(this, itemIndex);
	if (operation.endpoint.list) {
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
		const toRecords = (data: ApiResource[], included?: ApiResource[]) =>
			toItems(data, included, output);
		return await apiRequestAllItems.call(
			this,
			request,
			{ returnAll, limit },
			toRecords,
			retry,
			itemIndex,
		);
	}
	let envelope: ApiEnvelope;
	try {
		envelope = await apiRequest.call(this, request, retry, itemIndex);
	} catch (error) {
		throw withTakenValue(operation, request, itemIndex, error);
	}
	return afterAnswer(this, itemIndex, () => {
		const data = recordsOf(envelope);
		// The meta beside a single record (its custom_fields, a buy order's cost_centers) describes that record.
		const meta: IDataObject = { ...envelope.meta };
		delete meta.pagination;
		if (!Array.isArray(envelope.data) && data.length === 1 && Object.keys(meta).length) {
			data[0] = { ...data[0], meta: { ...meta, ...data[0].meta } };
		}
		return toItems(data, envelope.included, output);
	});
}

/** Reads an answer: a failure after the API answered leaves the request's outcome unknown, never unsent. */
function afterAnswer<T>(context: IExecuteFunctions, itemIndex: number, read: () => T): T {
	try {
		return read();
	} catch (error) {
		throw withOutcome(asNodeError(context.getNode(), error, itemIndex), 'unknown');
	}
}

/** The operation as progress lines name it: the node's name and the request. */
const runName = (context: IExecuteFunctions, operation: OperationModule): string =>
	`${context.getNode().name} (${operation.endpoint.method} ${operation.endpoint.path})`;

/** The loop over the input items of an operation (see ItemLoop). */
const itemLoop = (context: IExecuteFunctions, operation: OperationModule, itemCount: number) =>
	new ItemLoop(
		context,
		itemCount,
		runName(context, operation),
		operation.endpoint.method !== 'GET',
	);

/**
 * The default run of an operation: one request of its endpoint per input item, item i in, its records
 * out, paired with it; with "Continue On Fail" a failed item gets its error as output and the others go on.
 */
export async function runEndpoint(
	this: IExecuteFunctions,
	operation: OperationModule,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const loop = itemLoop(this, operation, items.length);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		await loop.guard([itemIndex], async () => {
			loop.output(itemIndex, await executeEndpoint.call(this, operation, itemIndex));
		});
	}
	loop.finish();
	return loop.outputs.flat();
}

/** An item's share of a grouped request: its path values and its validated body. */
export interface ItemPart {
	itemIndex: number;
	pathValues: Record<string, string>;
	body: IDataObject;
}

/** How an operation sends its items together. */
export interface Grouping {
	/** The most items in one request; all items share one request when absent. */
	size?: number;
	/** Throws when the item cannot share a request with the items already taken. */
	check?: (this: IExecuteFunctions, part: ItemPart, taken: ItemPart[]) => void;
	/** The body of one group's request. */
	body: (group: ItemPart[]) => IDataObject;
	/**
	 * The output record of each item of the group, in the group's order, from its answer; undefined
	 * for an item the answer does not confirm.
	 */
	share: (
		group: ItemPart[],
		envelope: ApiEnvelope,
		output: OutputChoice,
	) => Array<IDataObject | undefined>;
}

/**
 * Sends the items in groups, each group one request of the operation's endpoint. Every item is read
 * and validated before anything is sent; a failing item, or group, fails alone with "Continue On Fail".
 * Each item gets one output item, paired with it.
 */
export async function sendGrouped(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemCount: number,
	grouping: Grouping,
): Promise<INodeExecutionData[]> {
	const { endpoint } = operation;
	const parts: ItemPart[] = [];
	const loop = itemLoop(this, operation, itemCount);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		await loop.guard([itemIndex], () => {
			const part: ItemPart = {
				itemIndex,
				pathValues: readPathValues.call(this, operation, itemIndex),
				body: readBody.call(this, operation, itemIndex),
			};
			grouping.check?.call(this, part, parts);
			parts.push(part);
		});
	}
	const size = grouping.size ?? Math.max(parts.length, 1);
	for (let start = 0; start < parts.length; start += size) {
		const group = parts.slice(start, start + size);
		const first = group[0].itemIndex;
		await loop.guard(
			group.map((part) => part.itemIndex),
			async () => {
				const request: ApiRequest = {
					method: endpoint.method,
					path: buildPath(endpoint.path, group[0].pathValues),
					body: grouping.body(group),
					answers: answerShape(endpoint),
				};
				const output = readOutput.call(this, first);
				const envelope = await apiRequest.call(this, request, readRetry.call(this, first), first);
				const records = afterAnswer(this, first, () => grouping.share(group, envelope, output));
				// Every item the answer confirms is written, whichever item it leaves out.
				const unconfirmed: number[] = [];
				for (const [index, { itemIndex }] of group.entries()) {
					const record = records[index];
					if (record) loop.output(itemIndex, [record]);
					else unconfirmed.push(itemIndex);
				}
				loop.unconfirmed(unconfirmed);
				for (const itemIndex of unconfirmed) {
					await loop.guard([itemIndex], () => {
						throw withOutcome(
							new NodeOperationError(
								this.getNode(),
								`Item ${itemNumber(itemIndex)} was sent but not confirmed by the API. ${mayHaveBeenWritten(endpoint.method)}`,
								{
									itemIndex,
									description:
										"The request succeeded, but the API's answer leaves out this item's record, so whether it was written is unknown.",
								},
							),
							'unknown',
						);
					});
				}
			},
		);
	}
	loop.finish();
	return loop.outputs.flat();
}
