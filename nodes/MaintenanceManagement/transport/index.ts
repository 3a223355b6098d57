import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { name as packageName, version } from '../../../package.json';
import { pathWithinApi } from './address';
import type { Context } from './connection';
import { CREDENTIAL_TYPE, getConnection } from './connection';
import type { AnswerShape, ApiEnvelope, ApiResource } from './envelope';
import { isEnvelope, ownFieldsOnly, recordsOf } from './envelope';
import type { Outcome } from './errors';
import {
	apiError,
	mayHaveBeenWritten,
	plainText,
	QUOTE_LIMITS,
	quoted,
	shownPath,
	withOutcome,
} from './errors';
import type { FullResponse } from './exchange';
import { header } from './exchange';
import { isConnectionFault, neverConnected } from './faults';
import { budgetOf, LONGEST_WAIT_MS, pacingWaitMs, rateLimitWaitMs } from './rateLimit';
import { redact, redactDeep } from './redact';
import type { RequestPolicy } from './retry';
import { backoffMs, DEFAULT_POLICY, MAX_ATTEMPTS_ON_500, TRANSIENT_STATUSES } from './retry';
import { ssrfBlockOf, ssrfMessage } from './ssrf';

export { CREDENTIAL_TYPE } from './connection';
export type { AnswerShape, ApiEnvelope, ApiResource, ResourceRef } from './envelope';
export { recordsOf } from './envelope';
export { asNodeError } from './errors';
export { isConnectionFault, neverConnected } from './faults';
export { buildPath, pathValueProblem, RECORD_ID } from './path';
export type { RateBudget } from './rateLimit';
export { budgetOf, pacingWaitMs, rateLimitWaitMs } from './rateLimit';
export type { RequestPolicy } from './retry';
export { DEFAULT_POLICY, POLICY_CEILING } from './retry';

/** The spec's page-size limit: larger `limit` values are capped by the service. */
export const MAX_PAGE_SIZE = 2000;

/** Sent with every request: the service asks clients to name themselves. */
const USER_AGENT = `${packageName}/${version}`;

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

/**
 * An error of the transport itself (not an API answer), with the token removed from its text and
 * what became of the request.
 */
const transportError = (
	node: INode,
	token: string,
	itemIndex: number | undefined,
	outcome: Outcome,
	message: string,
	description: string,
) =>
	withOutcome(
		new NodeOperationError(node, redact(message, token), {
			description: redact(description, token),
			itemIndex,
		}),
		outcome,
	);

/** Milliseconds as whole seconds, for messages. */
const seconds = (ms: number): number => Math.round(ms / 1000);

/** A wait the API asked for, for messages. */
const waitText = (ms: number): string =>
	ms >= LONGEST_WAIT_MS ? 'more than a year' : `${seconds(ms)} s`;

const MAX_REDIRECTS = 5;

/**
 * Sends one API request. 429 answers are retried for every method (the request was not processed);
 * 502, 503, 504 and dropped connections only for GET, so that a POST or PATCH is never sent twice, and
 * a 500 at most once. Redirects are followed only within the API's origin, so the token never leaves
 * it. Before sending, it waits for the rate limit's reset when the API's last answer said none is left;
 * the waits of one request are bounded by Max Wait per Request, those of the execution by Max Total Wait.
 */
export async function apiRequest(
	this: Context,
	request: ApiRequest,
	retry: RequestPolicy = DEFAULT_POLICY,
	itemIndex?: number,
): Promise<ApiEnvelope> {
	const connection = await getConnection.call(this, itemIndex);
	const { baseUrl, environment, token } = connection;
	const headers: IDataObject = { Accept: 'application/json', 'User-Agent': USER_AGENT };
	if (request.body !== undefined) headers['Content-Type'] = 'application/json';
	const method = request.method;
	let url = `${baseUrl}${request.path}`;
	let qs = request.qs;
	let redirects = 0;
	let attempt = 1;
	/**
	 * The path as the user knows it (after the base URL, without the query), the token removed: the
	 * one form of the path every message gets, also after a redirect or from a next link.
	 */
	const requestPath = () =>
		connection.redaction.text(
			(url.startsWith(baseUrl) ? url.slice(baseUrl.length) : new URL(url).pathname).split('?')[0],
		);
	/** The request as a message names it. */
	const where = () => `${method} ${shownPath(requestPath())}`;
	const fail = (outcome: Outcome, message: string, description: string) =>
		transportError(this.getNode(), token, itemIndex, outcome, message, description);
	/** A write whose answer the node cannot use may have been applied: its message says so. */
	const answerLost = (message: string, description: string) =>
		fail(
			'unknown',
			method === 'GET' ? message : `${message}. ${mayHaveBeenWritten(method)}`,
			description,
		);
	let waitedHere = 0;
	/** Which limit a wait would pass: Max Wait per Request, or Max Total Wait; undefined when neither. */
	const passedLimit = (wait: number): string | undefined =>
		waitedHere + wait > retry.maxRequestWaitMs
			? `Max Wait per Request (${seconds(retry.maxRequestWaitMs)} s)`
			: connection.waitedMs + wait > retry.maxTotalWaitMs
				? `Max Total Wait (${seconds(retry.maxTotalWaitMs)} s, ${seconds(connection.waitedMs)} s of it already waited in this execution)`
				: undefined;
	/** Waits when neither limit forbids it; a wait for the rate limit's reset leaves its budget unknown again. */
	const waitFor = async (wait: number): Promise<boolean> => {
		if (passedLimit(wait)) return false;
		waitedHere += wait;
		connection.waitedMs += wait;
		await sleep(wait);
		if (pacingWaitMs(connection.budget) > 0) connection.budget = {};
		return true;
	};
	for (; ; attempt++) {
		// The API said no request is left until a known time: wait for it before sending, not after a 429.
		const pause = pacingWaitMs(connection.budget);
		if (pause > 0 && !(await waitFor(pause))) {
			throw fail(
				'notSent',
				`Not sent: the API's rate limit allows no request for another ${waitText(pause)}`,
				`${where()} was not sent: the API's last answer said its limit is spent until ${new Date(Date.now() + pause).toISOString()}, and waiting that long would pass ${passedLimit(pause)}. Raise it under Request Options, or run the items again after that time.`,
			);
		}
		let response: FullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
				method,
				url,
				qs,
				headers,
				body: request.body,
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: retry.timeoutMs,
			} as IHttpRequestOptions)) as FullResponse;
		} catch (error) {
			const block = ssrfBlockOf(error);
			if (block) {
				// n8n refused it before anything left: the row can go again, unchanged, once allowed.
				throw withOutcome(
					new NodeApiError(this.getNode(), { code: null } as JsonObject, {
						...ssrfMessage(block, baseUrl),
						itemIndex,
					}),
					'notSent',
				);
			}
			const message = redact(error instanceof Error ? error.message : String(error), token);
			const retriable = method === 'GET' && isConnectionFault(error);
			if (retriable && attempt < retry.maxAttempts && (await waitFor(backoffMs(retry, attempt))))
				continue;
			// A refused connection sent nothing; any other fault may have come after the request arrived.
			const unsent = neverConnected(error);
			const lost = method !== 'GET' && !unsent;
			const nodeError = new NodeApiError(this.getNode(), { message, code: null } as JsonObject, {
				message: lost
					? `The API's answer to ${where()} was lost: ${plainText(message.replace(/\.$/, ''))}. ${mayHaveBeenWritten(method)}`
					: `Could not reach the API: ${plainText(message)}`,
				description:
					method === 'GET'
						? `The connection to ${plainText(baseUrl)} failed after ${attempt} attempt(s). Check the base URL in the credential and the network.`
						: unsent
							? `The connection to ${plainText(baseUrl)} could not be made, so the ${method} request was not sent. Check the base URL in the credential and the network, then run it again.`
							: `The connection to ${plainText(baseUrl)} failed after the ${method} request was sent (a dropped connection, or no answer within the Timeout). It was not retried, so that nothing is created or changed twice.`,
				itemIndex,
			});
			throw withOutcome(nodeError, unsent ? 'notSent' : 'unknown');
		}
		const { statusCode } = response;
		connection.budget = budgetOf(statusCode, response.headers) ?? connection.budget;
		const location = header(response.headers, 'location');
		if (statusCode >= 300 && statusCode < 400 && location) {
			const target = new URL(location, url);
			const keepsMethod = statusCode === 307 || statusCode === 308;
			if (target.origin !== connection.origin) {
				throw answerLost(
					`The API redirected to another address (${plainText(target.origin)}), which the node does not follow`,
					`${where()} answered HTTP ${statusCode} with Location ${plainText(target.origin)}${shownPath(target.pathname)}. The request was not sent there, so the access token stays with ${plainText(connection.origin)}. Check the base URL in the credential.`,
				);
			}
			if (redirects++ >= MAX_REDIRECTS || (method !== 'GET' && !keepsMethod)) {
				throw answerLost(
					redirects > MAX_REDIRECTS
						? `The API redirected ${where()} more than the node follows`
						: `The API answered ${where()} with a redirect (${statusCode}), which the node does not follow for a ${method}`,
					`It answered HTTP ${statusCode} with Location ${shownPath(target.pathname)}. The node follows at most ${MAX_REDIRECTS} redirects within the API, and redirects a ${method} only with 307 or 308. Check the base URL in the credential.`,
				);
			}
			url = target.toString();
			qs = undefined;
			attempt--;
			continue;
		}
		if (statusCode >= 200 && statusCode < 300) {
			if (isEnvelope(response.body)) {
				const given = Array.isArray(response.body.data) ? 'a list of records' : 'one record';
				if (request.answers && given !== request.answers) {
					throw answerLost(
						`The API answered ${where()} with ${given}, where the spec gives ${request.answers}`,
						`Nothing was output for it, so an answer of another shape passes neither for a record nor for a list. Check that the base URL in the credential points at the Maintenance Management API, version 3.`,
					);
				}
				return connection.redaction.answer(ownFieldsOnly(response.body));
			}
			const type = header(response.headers, 'content-type');
			const typed = type ? `Content-Type ${quoted(type, QUOTE_LIMITS.name)}` : 'no content type';
			throw answerLost(
				`The API answered HTTP ${statusCode} with ${typed} instead of its JSON envelope`,
				`${where()} returned a body without the "data" the API always sends (for example a maintenance page, a cut-off answer or an empty body). Nothing was output for it; check the base URL in the credential, and try again later.`,
			);
		}
		const retriable =
			statusCode === 429 ||
			(method === 'GET' &&
				(TRANSIENT_STATUSES.has(statusCode) ||
					(statusCode === 500 && attempt < MAX_ATTEMPTS_ON_500)));
		let refusedWait: string | undefined;
		if (retriable && attempt < retry.maxAttempts) {
			const asked = statusCode === 429 ? rateLimitWaitMs(response.headers) : undefined;
			const wait = asked ?? backoffMs(retry, attempt);
			if (await waitFor(wait)) continue;
			refusedWait = `The next wait (${waitText(wait)}) would pass ${passedLimit(wait)}.`;
		}
		throw apiError(
			this.getNode(),
			statusCode,
			redactDeep(response.body, token),
			{
				method,
				path: requestPath(),
				environment,
				attempts: attempt,
				waitedMs: waitedHere,
				refusedWait,
			},
			itemIndex,
		);
	}
}

export interface PageOptions {
	returnAll: boolean;
	/** Records wanted when not returning all. */
	limit?: number;
}

const pageKey = (data: ApiResource[]): string =>
	`${data.length}:${data[0]?.type}:${data[0]?.id}:${data[data.length - 1]?.id}`;

/**
 * Pages through a collection. The first request asks for `page=1` and a page size (the spec's largest
 * for Return All, or what a Limit needs); after that the node follows the server's `links.next`, whatever
 * page size the server chose. It stops when there is no next link, on an empty page, or on a page or a
 * next link already seen in this run; a next link to another address, or more pages than Max Pages,
 * is an error rather than a silent cut. Each page is turned into output records as it arrives
 * (`toRecords`, with that page's `included`), so the raw pages do not pile up in memory.
 */
export async function apiRequestAllItems(
	this: Context,
	request: ApiRequest,
	pages: PageOptions,
	toRecords: (data: ApiResource[], included: ApiResource[] | undefined) => IDataObject[],
	retry: RequestPolicy = DEFAULT_POLICY,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const { baseUrl, token } = await getConnection.call(this, itemIndex);
	const wanted = pages.returnAll ? Infinity : Math.max(1, Math.floor(pages.limit ?? 50));
	// The fewest pages that can hold the records wanted, then the smallest page size that fills them.
	const pageSize = pages.returnAll
		? MAX_PAGE_SIZE
		: Math.ceil(wanted / Math.ceil(wanted / MAX_PAGE_SIZE));
	const records: IDataObject[] = [];
	const seenPages = new Set<string>();
	const seenLinks = new Set<string>();
	const listRequest: ApiRequest = { ...request, answers: 'a list of records' };
	let next: ApiRequest | undefined = {
		...listRequest,
		qs: { ...request.qs, page: 1, limit: pageSize },
	};
	const fail = (message: string, description: string) =>
		transportError(this.getNode(), token, itemIndex, 'unknown', message, description);
	for (let page = 1; next && records.length < wanted; page++) {
		if (page > retry.maxPages) {
			throw fail(
				`Stopped after ${retry.maxPages} pages: the API kept offering more`,
				`${records.length} records were read, and the API still gave a next page. Nothing was output, so no partial list passes for the whole one. Narrow the request with Filters or a Limit, or raise Max Pages under Request Options.`,
			);
		}
		const envelope: ApiEnvelope = await apiRequest.call(this, next, retry, itemIndex);
		const pageData = recordsOf(envelope);
		if (pageData.length === 0) break;
		const key = pageKey(pageData);
		if (seenPages.has(key)) break;
		seenPages.add(key);
		const take = Math.min(pageData.length, wanted - records.length);
		for (const record of toRecords(
			take < pageData.length ? pageData.slice(0, take) : pageData,
			envelope.included,
		)) {
			records.push(record);
		}
		next = undefined;
		const link: string | undefined = envelope.links?.next;
		if (link) {
			const path = pathWithinApi(link, baseUrl);
			if (path === undefined) {
				const target = URL.canParse(link, `${baseUrl}/`) ? new URL(link, `${baseUrl}/`) : undefined;
				throw fail(
					`The API's next page link points outside the API (${target ? `${plainText(target.origin)}${shownPath(target.pathname)}` : 'not a web address'})`,
					`The node does not follow it, so the access token stays with ${plainText(baseUrl)}. ${records.length} records were read before it; nothing was output.`,
				);
			}
			if (!seenLinks.has(path)) {
				seenLinks.add(path);
				next = { method: request.method, path, answers: listRequest.answers };
			}
		} else if (envelope.links === undefined && pageData.length >= pageSize) {
			// An answer without links at all: the spec's rule, a full page means there may be more.
			next = { ...listRequest, qs: { ...request.qs, page: page + 1, limit: pageSize } };
		}
	}
	return records;
}
