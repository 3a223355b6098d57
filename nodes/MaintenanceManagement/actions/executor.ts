import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { displayNames, normalize, validate } from '../helpers/input';
import { toItems } from '../helpers/simplify';
import type { ApiRequest, ApiResource, RetryPolicy } from '../transport';
import { apiRequest, apiRequestAllItems, buildPath, DEFAULT_RETRY } from '../transport';
import type { OperationModule } from './types';

const nameCache = new WeakMap<OperationModule, Map<string, string>>();

export function namesOf(operation: OperationModule): Map<string, string> {
	let names = nameCache.get(operation);
	if (!names) {
		names = displayNames(operation.description);
		nameCache.set(operation, names);
	}
	return names;
}

const isSet = (value: unknown): boolean =>
	value !== undefined &&
	value !== null &&
	value !== '' &&
	!(Array.isArray(value) && value.length === 0);

const queryValue = (value: unknown): string | number | boolean =>
	Array.isArray(value) ? value.join(',') : (value as string | number | boolean);

/** The retry limits of the "Request Options" collection. */
export function readRetry(this: IExecuteFunctions, itemIndex: number): RetryPolicy {
	const options = this.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	return {
		...DEFAULT_RETRY,
		maxAttempts: Math.max(1, Math.floor(Number(options.maxAttempts ?? DEFAULT_RETRY.maxAttempts))),
		maxTotalWaitMs:
			options.maxWaitSeconds === undefined
				? DEFAULT_RETRY.maxTotalWaitMs
				: Math.max(0, Number(options.maxWaitSeconds) * 1000),
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

/** Builds the request of item i: path, query and validated body. */
export function buildRequest(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): ApiRequest {
	const { endpoint } = operation;
	const names = namesOf(operation);
	const pathValues: Record<string, string> = {};
	for (const [slot, parameter] of Object.entries(endpoint.pathParams ?? {})) {
		const value = this.getNodeParameter(parameter, itemIndex, '', { extractValue: true }) as
			string | number;
		if (!isSet(value) || String(value).trim() === '') {
			throw new NodeOperationError(
				this.getNode(),
				`"${names.get(parameter) ?? parameter}" is required`,
				{
					itemIndex,
					description: `Enter the ID in "${names.get(parameter) ?? parameter}". No request was sent.`,
				},
			);
		}
		pathValues[slot] = String(value).trim();
	}
	const qs: IDataObject = {};
	for (const name of endpoint.query ?? []) {
		const value = this.getNodeParameter(name, itemIndex, undefined) as unknown;
		if (isSet(value)) qs[name] = queryValue(value);
	}
	for (const collection of endpoint.queryCollections ?? []) {
		const values = this.getNodeParameter(collection, itemIndex, {}) as IDataObject;
		for (const [name, value] of Object.entries(values))
			if (isSet(value)) qs[name] = queryValue(value);
	}
	const extra = this.getNodeParameter(
		'options.queryParameters.parameters',
		itemIndex,
		[],
	) as Array<{
		name?: string;
		value?: string;
	}>;
	for (const { name, value } of extra) {
		if (name && name.trim() !== '') qs[name.trim()] = value ?? '';
	}
	const request: ApiRequest = {
		method: endpoint.method,
		path: buildPath(endpoint.path, pathValues),
		qs,
	};
	if (endpoint.body) request.body = readBody.call(this, operation, itemIndex);
	return request;
}

/** Runs one item through an endpoint and returns its output records. */
export async function executeEndpoint(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): Promise<IDataObject[]> {
	const request = buildRequest.call(this, operation, itemIndex);
	const retry = readRetry.call(this, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	if (operation.endpoint.list) {
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
		const toRecords = (data: ApiResource[], included?: ApiResource[]) =>
			toItems(data, included, simplify);
		return await apiRequestAllItems.call(
			this,
			request,
			{ returnAll, limit },
			toRecords,
			retry,
			itemIndex,
		);
	}
	const envelope = await apiRequest.call(this, request, retry, itemIndex);
	const data = Array.isArray(envelope.data) ? envelope.data : envelope.data ? [envelope.data] : [];
	// The meta beside a single record (its custom_fields, a buy order's cost_centers) describes that record.
	const meta: IDataObject = { ...envelope.meta };
	delete meta.pagination;
	if (!Array.isArray(envelope.data) && data.length === 1 && Object.keys(meta).length) {
		data[0] = { ...data[0], meta: { ...meta, ...data[0].meta } };
	}
	return toItems(data, envelope.included, simplify);
}

/** The output of a failed item when "Continue On Fail" is on. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description } = error as { message?: string; description?: string };
	return {
		json: { error: message ?? String(error), ...(description ? { description } : {}) },
		pairedItem: { item: itemIndex },
	};
}
