/**
 * The per-item executor: for one item, its request (request.ts), its Request Options policy, its
 * Output choice, the request sent, and its answer read into output records; `runEndpoint` runs it for
 * every input item in the item loop (itemLoop.ts).
 */

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ownFault, refusal } from '../../shared/errors/nodeError';
import { sentAndUnknown } from '../../shared/errors/outcome';
import { API_TEXT, itemNumber, plainText } from '../../shared/errors/text';
import { noSelectedFields } from '../../shared/errors/messages';
import type { OutputChoice } from '../../shared/simplify';
import { toItems } from '../../shared/simplify';
import type { ApiEnvelope, ApiRequest, ApiResource, RequestPolicy } from '../transport';
import {
	apiRequest,
	apiRequestAllItems,
	DEFAULT_POLICY,
	getConnection,
	POLICY_CEILING,
	recordsOf,
} from '../transport';
import type { Redaction } from '../transport/redact';
import { itemLoopFor } from './itemLoop';
import { buildRequest, namesOf } from './request';
import type { OperationModule } from '../../shared/types';

/** A Request Options number: its default when unset or not finite, kept within its bounds. */
const bounded = (value: unknown, fallback: number, min: number, max: number): number => {
	const number = Number(value ?? fallback);
	return Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : fallback;
};

/** A Request Options number of seconds, bounded as above, in milliseconds. */
const boundedMs = (seconds: unknown, fallbackMs: number, maxSeconds: number): number =>
	bounded(seconds, fallbackMs / 1000, 0, maxSeconds) * 1000;

/** Item i's request policy: the retry, timeout and paging limits of the "Request Options" collection. */
export function readRequestPolicy(context: IExecuteFunctions, itemIndex: number): RequestPolicy {
	const options = context.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	return {
		...DEFAULT_POLICY,
		maxAttempts: Math.floor(
			bounded(options.maxAttempts, DEFAULT_POLICY.maxAttempts, 1, POLICY_CEILING.maxAttempts),
		),
		maxRequestWaitMs: boundedMs(
			options.maxRequestWaitSeconds,
			DEFAULT_POLICY.maxRequestWaitMs,
			86_400,
		),
		// Max Total Wait caps the execution's waiting only when set above 0.
		maxTotalWaitMs:
			Number(options.maxWaitSeconds) > 0
				? boundedMs(options.maxWaitSeconds, 0, 86_400)
				: DEFAULT_POLICY.maxTotalWaitMs,
		timeoutMs: Math.round(
			Math.max(100, boundedMs(options.timeoutSeconds, DEFAULT_POLICY.timeoutMs, 3600)),
		),
		maxPages: Math.floor(
			bounded(options.maxPages, DEFAULT_POLICY.maxPages, 1, POLICY_CEILING.maxPages),
		),
	};
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
export function readOutput(context: IExecuteFunctions, itemIndex: number): OutputChoice {
	if (context.getNode().typeVersion < 2) {
		return { mode: context.getNodeParameter('simplify', itemIndex, true) ? 'legacy' : 'raw' };
	}
	const mode = context.getNodeParameter('output', itemIndex, 'simplified') as string;
	if (mode === 'raw') return { mode };
	if (mode !== 'selected') return { mode: 'simplified' };
	const fields = nameList(context.getNodeParameter('fields', itemIndex, ''));
	if (fields.length === 0) {
		throw refusal(context.getNode(), noSelectedFields(), { itemIndex, fields: ['fields'] });
	}
	return { mode, fields };
}

/**
 * Reads an answer: a failure after the API answered leaves the request's outcome unknown, never
 * unsent, and its message goes through the connection's `redaction`, so it holds no form of the token.
 */
export function afterAnswer<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	method: string,
	redaction: Redaction,
	read: () => T,
): T {
	try {
		return read();
	} catch (error) {
		const doing = "The node could not read the API's answer";
		throw sentAndUnknown(
			ownFault(context.getNode(), error, { itemIndex, redaction, doing }),
			method,
		);
	}
}

/**
 * The records of an answer. The meta beside a single record (its custom_fields, a buy order's
 * cost_centers) describes that record, so it goes into the record's own meta.
 */
export function recordsWithMeta(envelope: ApiEnvelope): ApiResource[] {
	const data = recordsOf(envelope);
	const meta: IDataObject = { ...envelope.meta };
	delete meta.pagination;
	if (!Array.isArray(envelope.data) && data.length === 1 && Object.keys(meta).length) {
		data[0] = { ...data[0], meta: { ...meta, ...data[0].meta } };
	}
	return data;
}

/**
 * Words of a refusal that say a value is taken: the sandbox's "This code is already used (at this
 * level, in the entity)", and the like in English and in Portuguese, in which the API may answer.
 */
const TAKEN =
	/\b(already|unique|in use|taken)\b|duplica[dt]|já (existe|está|em uso|utilizad)|únic/iu;

/**
 * A 400 that says a value the API keeps unique is taken: the message leads with the value refused and
 * says that a record with it most likely exists (as one written before a stopped run does), so that a
 * re-run after a stop can route those items aside. A unique field refused for another reason (too long, blank) keeps the API's own words.
 */
export function withTakenValue(
	operation: OperationModule,
	request: ApiRequest,
	itemIndex: number,
	error: unknown,
): unknown {
	const unique = operation.endpoint.body?.unique ?? [];
	if (!(error instanceof NodeApiError) || error.httpCode !== '400' || !unique.length) return error;
	const refused = (error.context.refused ?? {}) as Record<string, string>;
	const taken = unique.filter(
		(field) =>
			Object.hasOwn(refused, field) &&
			TAKEN.test(refused[field]) &&
			request.body?.[field] !== undefined,
	);
	if (!taken.length) return error;
	const names = namesOf(operation);
	const values = taken.map(
		(field) => `${names.get(field) ?? field} ${plainText(JSON.stringify(request.body?.[field]))}`,
	);
	const one = taken.length === 1;
	// The API's own words stay, quoted; the generic "correct the fields" before them says less than this.
	const quotedWords = error.message.slice(Math.max(0, error.message.indexOf(API_TEXT)));
	error.message = `${values.join(' and ')} in item ${itemNumber(itemIndex)} already ${one ? 'exists' : 'exist'}, most likely: the API keeps ${one ? 'it' : 'them'} unique. Route the item aside, or change the value. ${quotedWords}`;
	return error;
}

/** Runs one item through an endpoint and returns its output records. */
export async function executeEndpoint(
	context: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): Promise<IDataObject[]> {
	const request = buildRequest(context, operation, itemIndex);
	const policy = readRequestPolicy(context, itemIndex);
	const output = readOutput(context, itemIndex);
	const { redaction } = await getConnection(context, itemIndex);
	if (operation.endpoint.answers === 'page') {
		const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll
			? undefined
			: (context.getNodeParameter('limit', itemIndex, 50) as number);
		// Each page is read once it has arrived: a fault there comes after sending.
		const toRecords = (data: ApiResource[], included?: ApiResource[]) =>
			afterAnswer(context, itemIndex, request.method, redaction, () =>
				toItems(data, included, output),
			);
		return await apiRequestAllItems(
			context,
			request,
			{ returnAll, limit },
			toRecords,
			policy,
			itemIndex,
		);
	}
	let envelope: ApiEnvelope;
	try {
		envelope = await apiRequest(context, request, policy, itemIndex);
	} catch (error) {
		throw withTakenValue(operation, request, itemIndex, error);
	}
	return afterAnswer(context, itemIndex, request.method, redaction, () =>
		toItems(recordsWithMeta(envelope), envelope.included, output),
	);
}

/**
 * The default run of an operation: one request of its endpoint per input item, item i in, its records
 * out, paired with it; with "Continue On Fail" a failed item gets its error as output and the others go on.
 */
export async function runEndpoint(
	context: IExecuteFunctions,
	operation: OperationModule,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const loop = itemLoopFor(context, operation, items.length);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		await loop.guard([itemIndex], async () => {
			loop.output(itemIndex, await executeEndpoint(context, operation, itemIndex));
		});
	}
	loop.finish();
	return loop.outputs.flat();
}
