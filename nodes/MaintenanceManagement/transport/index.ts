/**
 * The API as the node calls it: one request (`apiRequest`) and a paged list (`apiRequestAllItems`),
 * with the credential (connection.ts), over the kernel of one exchange, its answer and the API's
 * envelope, and its redirects (exchange.ts), waits and retries (retry.ts) and paging (paging.ts).
 * The errors, their causes and their words are in nodes/shared/errors/: an error is the node's
 * NodeApiError or NodeOperationError (apiError.ts, nodeError.ts, outcome.ts); a failure is the
 * transport's own, a request without a usable answer (failures.ts); a cause classifies what happened
 * on the wire, a network fault among it (causes.ts); a message is the node's words (messages.ts,
 * text.ts).
 */

import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { name as packageName, version } from '../../../package.json';
import type { Connection, Context } from './connection';
import { CREDENTIAL_TYPE, getConnection } from './connection';
import type {
	Answer,
	AnswerShape,
	ApiEnvelope,
	ApiResource,
	FullResponse,
	RefusedRedirect,
	Target,
} from './exchange';
import {
	exchange,
	followingRedirects,
	isEnvelope,
	isErrorEnvelope,
	NoAnswer,
	recordsOf,
	shapeOf,
} from './exchange';
import { pagingFailure, RequestFailures } from '../../shared/errors/failures';
import type { NextPage, Page, PageOptions, PagingRefusal } from './paging';
import { pagingFor, readPages } from './paging';
import {
	budgetOf,
	pacingWaitMs,
	backoffMs,
	DEFAULT_POLICY,
	pauseOf,
	retriesFault,
	retriesStatus,
	statusWaitMs,
	Waits,
} from './retry';
import type { RequestPolicy } from './retry';

export { CREDENTIAL_TYPE, getConnection, readCredential } from './connection';
export type { AnswerShape, ApiEnvelope, ApiResource, ResourceRef } from './exchange';
export { isEnvelope, recordsOf, shapeOf } from './exchange';
export { asNodeError } from '../../shared/errors/nodeError';
export { isConnectionFault, neverConnected } from '../../shared/errors/causes';
export { testAnswer } from '../../shared/errors/messages';
export type { PageOptions } from './paging';
export { buildPath, pathValueProblem, RECORD_ID } from './connection';
export type { RateBudget } from './retry';
export { budgetOf, pacingWaitMs, rateLimitWaitMs } from './retry';
export type { Pause, RequestPolicy, WaitReason } from './retry';
export { DEFAULT_POLICY, pauseWaitsWith, POLICY_CEILING } from './retry';
export { ssrfBlockOf, ssrfMessage } from './ssrf';

/** The spec's page-size limit: larger `limit` values are capped by the service. */
export const MAX_PAGE_SIZE = 2000;

/** Sent with every request: the service asks clients to name themselves. */
export const USER_AGENT = `${packageName}/${version}`;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path after the base URL, with its path parameters already encoded (see `buildPath`). */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/**
	 * The shape of the answer's `data` the spec gives: one record or a list. An answer of the other
	 * shape is an error; unchecked when absent.
	 */
	answers?: AnswerShape;
}

/** The headers of a request: JSON, the node's name, and the body's type when it has one. */
const headersFor = (request: ApiRequest): IDataObject => ({
	Accept: 'application/json',
	'User-Agent': USER_AGENT,
	...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
});

/** The envelope of a successful answer, of the shape the request expects, with the token removed. */
function envelopeOf(
	response: FullResponse,
	request: ApiRequest,
	connection: Connection,
	failures: () => RequestFailures,
): ApiEnvelope {
	if (!isEnvelope(response.body)) throw failures().notEnvelope(response);
	const given = shapeOf(response.body);
	if (request.answers && given !== request.answers)
		throw failures().wrongShape(given, request.answers);
	return connection.redaction.answer(response.body, response.text);
}

/** One request on its way: where it goes, what it has waited, how its failures are worded. */
interface Call {
	request: ApiRequest;
	policy: RequestPolicy;
	connection: Connection;
	target: Target;
	waits: Waits;
	/** Its failures' wording, built when it first fails: a request that succeeds needs none. */
	failures: () => RequestFailures;
	/** Whether an exchange has begun: from then on the request may have left. */
	sent: boolean;
}

/** Sends to the call's target once the API's rate limit allows, and keeps the budget it answers. */
async function sendPaced(context: Context, call: Call): Promise<Answer> {
	const { request, connection, target, waits, failures } = call;
	// The API said no request is left until a known time: wait for it before sending, not after a 429.
	const pause = pacingWaitMs(connection.budget);
	const paused = pause > 0 ? await waits.waitWithin(pause, 'rateLimit') : 'waited';
	if (paused !== 'waited') throw failures().budgetSpent(pause, paused);
	call.sent = true;
	const answer = await exchange(context, CREDENTIAL_TYPE, {
		method: request.method,
		url: target.url,
		qs: target.qs,
		headers: headersFor(request),
		body: request.body,
		timeoutMs: call.policy.timeoutMs,
	});
	if (answer instanceof NoAnswer) return answer;
	connection.budget = budgetOf(answer.statusCode, answer.headers) ?? connection.budget;
	return answer;
}

/**
 * Sends one API request. 429 answers are retried for every method (the request was not processed);
 * 502, 503, 504 and dropped connections only for GET, so that a POST or PATCH is never sent twice, and
 * a 500 at most once. Redirects are followed only within the API's origin, so the token never leaves
 * it. Before sending, it waits for the rate limit's reset when the API's last answer said none is left;
 * the waits of one request are bounded by Max Wait per Request, those of the execution by Max Total Wait.
 */
export async function apiRequest(
	context: Context,
	request: ApiRequest,
	policy: RequestPolicy = DEFAULT_POLICY,
	itemIndex?: number,
): Promise<ApiEnvelope> {
	const connection = await getConnection(context, itemIndex);
	const { method } = request;
	const target: Target = {
		url: `${connection.baseUrl}${request.path}`,
		qs: request.qs,
		redirects: 0,
	};
	const waits = new Waits(policy, connection, pauseOf(context));
	let wording: RequestFailures | undefined;
	const failures = () =>
		(wording ??= new RequestFailures(
			context.getNode(),
			connection,
			method,
			target,
			policy,
			itemIndex,
		));
	const call: Call = { request, policy, connection, target, waits, failures, sent: false };
	try {
		return await sendRetrying(context, call);
	} catch (error) {
		throw failures().unforeseen(error, call.sent);
	}
}

/** Sends the call's request, following its redirects and retrying it as `apiRequest` says. */
async function sendRetrying(context: Context, call: Call): Promise<ApiEnvelope> {
	const { request, policy, connection, target, waits, failures } = call;
	const { method } = request;
	const send = async () => await sendPaced(context, call);
	const refuse = (redirect: RefusedRedirect) => failures().redirect(redirect);
	for (let attempt = 1; ; attempt++) {
		const answer = await followingRedirects(target, connection.origin, method, send, refuse);
		const retries = attempt < policy.maxAttempts;
		if (answer instanceof NoAnswer) {
			const canRetry = retries && retriesFault(answer, method);
			if (canRetry && (await waits.waitWithin(backoffMs(policy, attempt), 'retry')) === 'waited')
				continue;
			throw failures().noAnswer(answer, attempt);
		}
		const { statusCode } = answer;
		// A success in the API's error envelope is the API's error (see `apiError`), not a record.
		if (statusCode >= 200 && statusCode < 300 && !isErrorEnvelope(answer.body))
			return envelopeOf(answer, request, connection, failures);
		let refusedWait: string | undefined;
		if (retries && retriesStatus(statusCode, method, attempt)) {
			const wait = statusWaitMs(policy, attempt, statusCode, answer.headers);
			const waited = await waits.waitWithin(wait, statusCode === 429 ? 'rateLimit' : 'retry');
			if (waited === 'waited') continue;
			refusedWait = failures().refusedWait(wait, waited);
		}
		throw failures().apiAnswer(answer, attempt, waits.waitedMs, refusedWait);
	}
}

/**
 * Pages through a collection (see `readPages`). The first request asks for `page=1` and a page size
 * (the spec's largest for Return All, or what a Limit needs); after that the node follows the
 * server's `links.next`, whatever page size the server chose. Each page is turned into output records
 * as it arrives (`toRecords`, with that page's `included`).
 */
export async function apiRequestAllItems(
	context: Context,
	request: ApiRequest,
	pages: PageOptions,
	toRecords: (data: ApiResource[], included: ApiResource[] | undefined) => IDataObject[],
	policy: RequestPolicy = DEFAULT_POLICY,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const connection = await getConnection(context, itemIndex);
	const { baseUrl } = connection;
	const paging = { ...pagingFor(pages, MAX_PAGE_SIZE), maxPages: policy.maxPages, baseUrl };
	const listRequest: ApiRequest = { ...request, answers: 'a list of records' };
	const readPage = async (next: NextPage): Promise<Page<ApiResource, IDataObject>> => {
		const pageRequest: ApiRequest =
			'path' in next
				? { method: request.method, path: next.path, answers: listRequest.answers }
				: { ...listRequest, qs: { ...request.qs, page: next.number, limit: paging.pageSize } };
		const envelope = await apiRequest(context, pageRequest, policy, itemIndex);
		return {
			records: recordsOf(envelope),
			output: (records) => toRecords(records, envelope.included),
			nextLink: envelope.links?.next,
			linked: envelope.links !== undefined,
		};
	};
	const refuse = (refusal: PagingRefusal) =>
		pagingFailure(context.getNode(), connection, itemIndex, policy.maxPages, refusal);
	return await readPages(paging, readPage, refuse);
}
