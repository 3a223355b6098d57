/**
 * A request's failures, built as the node's errors: those of the transport itself (a rate limit spent
 * before sending, no answer, a redirect not followed, an answer not in the API's envelope or of another
 * shape, paging stopped), each worded with the request's method, its path and the connection's
 * address; an API error answer goes to `apiError` (apiError.ts).
 */

import type { Failure, IHttpRequestMethods, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	rateLimitedUntil,
	TEMPORARILY_UNAVAILABLE,
	isConnectionFault,
	neverConnected,
} from './causes';
import type { Connection } from '../../MaintenanceManagement/transport/connection';
import { apiError } from './apiError';
import { ownFault } from './nodeError';
import { sentAndUnknown, withOutcome } from './outcome';
import type { Outcome } from './outcome';
import {
	pathInMessage,
	plainText,
	QUOTE_LIMITS,
	quoted,
	waitText,
	wholeSeconds,
	withWriteAdvice,
} from './text';
import type {
	FullResponse,
	NoAnswer,
	RefusedRedirect,
	Target,
} from '../../MaintenanceManagement/transport/exchange';
import { header, MAX_REDIRECTS } from '../../MaintenanceManagement/transport/exchange';
import type { PagingRefusal } from '../../MaintenanceManagement/transport/paging';
import type { Redaction } from '../../MaintenanceManagement/transport/redact';
import type { RequestPolicy, WaitLimit } from '../../MaintenanceManagement/transport/retry';
import { rateLimitWaitMs } from '../../MaintenanceManagement/transport/retry';
import { ssrfBlockOf, ssrfMessage } from '../../MaintenanceManagement/transport/ssrf';

/**
 * An error of the transport itself (not an API answer), with the token removed from its text and
 * what became of the request.
 */
const transportError = (
	node: INode,
	redaction: Redaction,
	itemIndex: number | undefined,
	outcome: Outcome,
	message: string,
	description: string,
	failure?: Failure,
) =>
	withOutcome(
		new NodeOperationError(node, redaction.text(message), {
			description: redaction.text(description),
			itemIndex,
			failure,
		}),
		outcome,
	);

/** Paging stopped with an error: nothing is output, so no partial list passes for the whole one. */
export function pagingFailure(
	node: INode,
	connection: Connection,
	itemIndex: number | undefined,
	maxPages: number,
	refusal: PagingRefusal,
) {
	const { baseUrl, redaction } = connection;
	const fail = (message: string, description: string) =>
		transportError(node, redaction, itemIndex, 'unknown', message, description);
	if (refusal.reason === 'too many pages') {
		return fail(
			`Stopped after ${maxPages} pages: the API kept offering more`,
			`${refusal.read} records were read, and the API still gave a next page. Nothing was output, so no partial list passes for the whole one. Narrow the request with Filters or a Limit, or raise Max Pages under Request Options.`,
		);
	}
	const { link } = refusal;
	const target = URL.canParse(link, `${baseUrl}/`) ? new URL(link, `${baseUrl}/`) : undefined;
	return fail(
		`The API's next page link points outside the API (${target ? `${plainText(target.origin)}${pathInMessage(target.pathname)}` : 'not a web address'})`,
		`The node does not follow it, so the access token stays with ${plainText(baseUrl)}. ${refusal.read} records were read before it; nothing was output.`,
	);
}

/** The errors of one request, worded with its method, its path and the connection's address. */
export class RequestFailures {
	constructor(
		private readonly node: INode,
		private readonly connection: Connection,
		private readonly method: IHttpRequestMethods,
		private readonly target: Target,
		private readonly policy: RequestPolicy,
		private readonly itemIndex: number | undefined,
	) {}

	/**
	 * The path as the user knows it (after the base URL, without the query), the token removed: the
	 * one form of the path every message gets, also after a redirect or from a next link.
	 */
	pathBelowBase(): string {
		const { baseUrl, redaction } = this.connection;
		const { url } = this.target;
		return redaction.text(
			(url.startsWith(baseUrl) ? url.slice(baseUrl.length) : new URL(url).pathname).split('?')[0],
		);
	}

	/** The request as a message names it. */
	private where(): string {
		return `${this.method} ${pathInMessage(this.pathBelowBase())}`;
	}

	private fail(outcome: Outcome, message: string, description: string, failure?: Failure) {
		const { redaction } = this.connection;
		return transportError(
			this.node,
			redaction,
			this.itemIndex,
			outcome,
			message,
			description,
			failure,
		);
	}

	/** A write whose answer the node cannot use may have been applied: its message says so. */
	private answerLost(message: string, description: string) {
		return this.fail('unknown', withWriteAdvice(message, this.method), description);
	}

	/** The limit of Request Options a wait would pass, as a message names it. */
	limitText(limit: WaitLimit): string {
		const { policy, connection } = this;
		return limit === 'request'
			? `Max Wait per Request (${wholeSeconds(policy.maxRequestWaitMs)} s)`
			: `Max Total Wait (${wholeSeconds(policy.maxTotalWaitMs)} s, ${wholeSeconds(connection.waitedMs)} s of it already waited in this execution)`;
	}

	/** The API's last answer said its limit is spent for longer than a limit allows waiting. */
	budgetSpent(pause: number, limit: WaitLimit) {
		return this.fail(
			'notSent',
			`Not sent: the API's rate limit allows no request for another ${waitText(pause)}`,
			`${this.where()} was not sent: the API's last answer said its limit is spent until ${new Date(Date.now() + pause).toISOString()}, and waiting that long would pass ${this.limitText(limit)}. Raise it under Request Options, or run the items again after that time.`,
			rateLimitedUntil(Date.now() + pause),
		);
	}

	/** Why a retry was not waited for, for the API error's message. */
	refusedWait(wait: number, limit: WaitLimit): string {
		return `The next wait (${waitText(wait)}) would pass ${this.limitText(limit)}.`;
	}

	/**
	 * A request that got no answer after `attempts`: refused by n8n, never connected, lost, or not
	 * complete within the Timeout.
	 */
	noAnswer({ error, timedOut }: NoAnswer, attempts: number) {
		const { method, itemIndex } = this;
		const { baseUrl, redaction } = this.connection;
		const block = ssrfBlockOf(error);
		if (block) {
			// n8n refused it before anything left: the row can go again, unchanged, once allowed.
			return withOutcome(
				new NodeApiError(this.node, { code: null } as JsonObject, {
					...ssrfMessage(block, baseUrl),
					itemIndex,
				}),
				'notSent',
			);
		}
		const timeout = `the Timeout (${this.policy.timeoutMs / 1000} s)`;
		const message = timedOut
			? `no complete answer within ${timeout}`
			: plainText(redaction.text(error instanceof Error ? error.message : String(error)));
		// A connection never made sent nothing; any other fault, and a time-out, may have come after the
		// request arrived.
		const unsent = !timedOut && neverConnected(error);
		const lost = method !== 'GET' && !unsent;
		const nodeError = new NodeApiError(this.node, { message, code: null } as JsonObject, {
			message: lost
				? withWriteAdvice(`The API's answer to ${this.where()} was lost: ${message}`, method)
				: timedOut
					? `No complete answer from the API within ${timeout}. Raise the Timeout under Request Options, or try again later.`
					: `Could not reach the API: ${message}`,
			description:
				method === 'GET'
					? `The connection to ${plainText(baseUrl)} failed after ${attempts} attempt(s). Check the base URL in the credential and the network${timedOut ? ', or raise the Timeout under Request Options' : ''}.`
					: unsent
						? `The connection to ${plainText(baseUrl)} could not be made, so the ${method} request was not sent. Check the base URL in the credential and the network, then run it again.`
						: `The connection to ${plainText(baseUrl)} failed once the ${method} request may have reached the API (a dropped connection, a host or network that stopped answering, or no answer within the Timeout). It was not retried, so that nothing is created or changed twice.`,
			itemIndex,
			// Only a fault that passes makes the API unavailable for now: a host name not found (a
			// typo, or a name server down) or a certificate refused is no outage the node can tell.
			failure:
				!lost && (timedOut || isConnectionFault(error)) ? TEMPORARILY_UNAVAILABLE : undefined,
		});
		return withOutcome(nodeError, unsent ? 'notSent' : 'unknown');
	}

	/** A redirect the node does not follow: the request was sent, and its answer is not the API's. */
	redirect(redirect: RefusedRedirect) {
		const { method } = this;
		const { reason, statusCode } = redirect;
		const check = 'Check the base URL in the credential.';
		if (reason === 'no location' || reason === 'unreadable location') {
			const pointsTo =
				reason === 'no location'
					? 'without a Location'
					: `to a Location that is not a web address (${quoted(redirect.given, QUOTE_LIMITS.name)})`;
			return this.answerLost(
				`The API answered ${this.where()} with a redirect (${statusCode}) ${pointsTo}, which the node cannot follow`,
				`It answered HTTP ${statusCode}, a redirect with nowhere the node can go, so the API's answer to the request is unknown. ${check}`,
			);
		}
		const { location } = redirect;
		if (reason === 'another origin') {
			return this.answerLost(
				`The API redirected to another address (${plainText(location.origin)}), which the node does not follow`,
				`${this.where()} answered HTTP ${statusCode} with Location ${plainText(location.origin)}${pathInMessage(location.pathname)}. The request was not sent there, so the access token stays with ${plainText(this.connection.origin)}. ${check}`,
			);
		}
		return this.answerLost(
			reason === 'too many'
				? `The API redirected ${this.where()} more than the node follows`
				: `The API answered ${this.where()} with a redirect (${statusCode}), which the node does not follow for a ${method}`,
			`It answered HTTP ${statusCode} with Location ${pathInMessage(location.pathname)}. The node follows at most ${MAX_REDIRECTS} redirects within the API, and redirects a ${method} only with 307 or 308. ${check}`,
		);
	}

	/**
	 * An error nothing above worded (a fault of the node's own, whatever its type): before the first
	 * exchange nothing went out; after it, the request may have, so its outcome is unknown. An error
	 * that already says its outcome keeps it.
	 */
	unforeseen(error: unknown, sent: boolean) {
		const nodeError = ownFault(this.node, error, {
			itemIndex: this.itemIndex,
			redaction: this.connection.redaction,
			doing: sent
				? `The node failed on the API's answer to ${this.where()}`
				: `The node failed before sending ${this.where()}, so nothing went out`,
			description: sent
				? 'The request was sent, and the node could not use what came back. Nothing was output for it.'
				: 'Nothing was sent for this item.',
		});
		return sent ? sentAndUnknown(nodeError, this.method) : withOutcome(nodeError, 'notSent');
	}

	/** A successful answer whose `data` is not of the shape the spec gives. */
	wrongShape(given: string, expected: string) {
		return this.answerLost(
			`The API answered ${this.where()} with ${given}, where the spec gives ${expected}`,
			`Nothing was output for it, so an answer of another shape passes neither for a record nor for a list. Check that the base URL in the credential points at the Maintenance Management API, version 3.`,
		);
	}

	/** A successful answer without the API's envelope. */
	notEnvelope({ statusCode, headers }: FullResponse) {
		const type = header(headers, 'content-type');
		const typed = type ? `Content-Type ${quoted(type, QUOTE_LIMITS.name)}` : 'no content type';
		return this.answerLost(
			`The API answered HTTP ${statusCode} with ${typed} instead of its JSON envelope`,
			`${this.where()} returned a body without the "data" the API always sends (for example a maintenance page, a cut-off answer or an empty body). Nothing was output for it; check the base URL in the credential${this.method === 'GET' ? ', and try again later' : ''}.`,
		);
	}

	/** An API error answer, after `attempts` and `waitedMs` of waiting for this request. */
	apiAnswer(response: FullResponse, attempts: number, waitedMs: number, refusedWait?: string) {
		const { method, connection } = this;
		return apiError(
			this.node,
			response.statusCode,
			connection.redaction.answer(response.body),
			{
				method,
				path: this.pathBelowBase(),
				environment: connection.environment,
				attempts,
				waitedMs,
				refusedWait,
				retryAfterMs: rateLimitWaitMs(response.headers),
			},
			this.itemIndex,
		);
	}
}
