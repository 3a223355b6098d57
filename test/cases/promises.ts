/**
 * Every promise that docs/requests.md, docs/bulk-writes.md and SECURITY.md make about what the node
 * sends, retries, paces or reports, quoted word for word, each with the tests that hold it: tests named
 * by file and title (for a table, with the label of one row), and, where no other test holds it, a check
 * of its own, named here and run by test/nodes/promises.test.ts. That test also checks the list: a quote
 * its doc no longer holds, or a test no longer in its file, fails, naming both. Figures measured once
 * (the minutes a bulk run takes) are the benchmark's (BENCHMARKS.md), not promises kept here.
 */

/** The checks of test/nodes/promises.test.ts, by name. */
export type CheckName =
	| 'anotherExecutionSpentTheLimit'
	| 'backOffWithJitter'
	| 'fiveAttemptsByDefault'
	| 'httpDateRetryAfter'
	| 'idsFirst200AllInContext'
	| 'moreThanAYear'
	| 'ownErrorColumnReplaced'
	| 'panelDefaults'
	| 'resetSecondsOrEpoch'
	| 'timeoutDefaultAndFloor'
	| 'tokenInNoErrorOutputOrLog'
	| 'totalWaitAcrossPages'
	| 'writesFollowOnly307And308';

export type Doc = 'docs/requests.md' | 'docs/bulk-writes.md' | 'SECURITY.md';

/** A test of a file, by its title (a `describe`, `it` or `it.each` title); for a table, one row's label. */
export interface HeldBy {
	file: string;
	test: string;
	row?: string;
}

export interface Promised {
	doc: Doc;
	/** The promise, word for word as its doc writes it (white space aside). */
	says: string;
	heldBy?: HeldBy[];
	/** A check of its own, run by test/nodes/promises.test.ts. */
	check?: CheckName;
}

const T = {
	transport: 'test/nodes/transport.test.ts',
	hostile: 'test/nodes/hostile.test.ts',
	outcomes: 'test/nodes/outcomes.test.ts',
	outcomeTable: 'test/nodes/outcomeTable.test.ts',
	causes: 'test/nodes/causes.test.ts',
	bulk: 'test/nodes/bulk.test.ts',
	progress: 'test/nodes/progress.test.ts',
	location: 'test/nodes/actions/location.test.ts',
	credentialTest: 'test/nodes/credentialTest.test.ts',
	markup: 'test/nodes/markup.test.ts',
	redact: 'test/nodes/redact.test.ts',
	protection: 'test/nodes/trigger/protection.test.ts',
	headerSecrets: 'test/nodes/trigger/headerSecrets.test.ts',
	webhook: 'test/nodes/trigger/webhook.test.ts',
	requestLog: 'test/sandbox/requestLog.test.ts',
	bulkE2e: 'test/e2e/bulk.e2e.test.ts',
	queue: 'test/queue/queue.test.ts',
	causesE2e: 'test/e2e/causes.e2e.test.ts',
	simplify: 'test/nodes/simplify.test.ts',
	retryOnFail: 'test/nodes/retryOnFail.test.ts',
};
const by = (file: string, test: string, row?: string): HeldBy => ({ file, test, row });
const retryRule = by(
	'test/nodes/promises.test.ts',
	'the retry rule, method × fault: a POST or PATCH is tried again only after a 429; a read also after a fault that passes',
);

const REQUESTS: Promised[] = [
	{
		doc: 'docs/requests.md',
		says: 'An invalid item fails with the field, how to fix it and the item index, and nothing is sent for it.',
		heldBy: [
			by(
				T.outcomes,
				'"Continue (using error output)": written rows on Success, each failed row on Error with its input row and reason',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'each output item is paired with its input item; with **Continue On Fail**, a failing item becomes an error item and the others go on.',
		heldBy: [
			by(
				T.outcomes,
				'"Continue (regular output)": one item a row, paired, the failed ones as { error, description, outcome }',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'when none is left and the reset time is known, the next request waits for the reset before it is sent, not after a 429.',
		heldBy: [
			by(
				T.transport,
				"waits for the limit's reset before sending when the API said none is left, so no 429 comes",
			),
			by(
				T.transport,
				"waits for the limit's reset before sending when the API said none is left, so no 429 comes",
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: "Since the API's count is shared, executions and queue-mode workers that use the same token are paced by one count: one may send a request into a limit another has just spent, and that 429 is retried as below.",
		heldBy: [
			by(
				T.queue,
				'two bulk creates with one token, on both workers at once, share the rate limit and lose no item',
			),
		],
		check: 'anotherExecutionSpentTheLimit',
	},
	{
		doc: 'docs/requests.md',
		says: 'A 429 is retried for every method (the API did not process it)',
		heldBy: [
			retryRule,
			by(T.transport, 'retries a PATCH on 429, since the request was not processed'),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'the wait is what `Retry-After` says (seconds, or an HTTP date)',
		heldBy: [by(T.transport, 'waits as Retry-After says, then succeeds')],
		check: 'httpDateRetryAfter',
	},
	{
		doc: 'docs/requests.md',
		says: 'else what `X-RateLimit-Reset` says (a UNIX time in seconds, or, below 10⁹, seconds from now)',
		heldBy: [
			by(T.hostile, 'reads X-RateLimit-Reset as a UNIX time or as seconds from now'),
			by(T.transport, 'reads X-RateLimit-Reset (UNIX time) when there is no Retry-After'),
		],
		check: 'resetSecondsOrEpoch',
	},
	{
		doc: 'docs/requests.md',
		says: 'a value that is zero, negative, in the past or unreadable counts as absent, and then the node backs off exponentially with jitter (1 s, 2 s, 4 s… each between half and all of that)',
		heldBy: [
			by(T.hostile, '%s falls back to back-off'),
			by(T.hostile, 'waits out a negative Retry-After with back-off, not a burst'),
		],
		check: 'backOffWithJitter',
	},
	{
		doc: 'docs/requests.md',
		says: 'Answers without these headers get that 429 handling alone.',
		heldBy: [by(T.transport, 'does not wait when the answers say nothing of the limit')],
	},
	{
		doc: 'docs/requests.md',
		says: '**Max Wait per Request** (default 300 s): the most one request waits, for the reset and between its attempts.',
		heldBy: [
			by(
				T.transport,
				'gives up at once with a clear error when the asked wait exceeds Max Wait per Request',
			),
		],
		check: 'panelDefaults',
	},
	{
		doc: 'docs/requests.md',
		says: 'A long run whose requests keep succeeding is never stopped by the sum of its waits',
		heldBy: [
			by(
				T.transport,
				'bounds the waiting of one request, not the sum over a run whose requests keep succeeding',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'When the API asks for a longer wait, the item fails without being sent, and, with Continue On Fail, so does every item after it until the limit resets: no request is sent into a spent limit.',
		heldBy: [
			by(
				T.bulk,
				'with Continue On Fail, fails the items left without sending one more request into the spent limit',
			),
			by(
				T.outcomeTable,
				'%s, "Continue (using error output)": item 1 on Error with its outcome, the others go on',
				'429 asking a wait past Max Wait per Request',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: '**Max Attempts on Rate Limit** (default 5, at most 10 whatever an expression gives): the tries of one request.',
		heldBy: [by(T.hostile, 'bounds Max Attempts whatever an expression gives')],
		check: 'fiveAttemptsByDefault',
	},
	{
		doc: 'docs/requests.md',
		says: '**Max Total Wait** (default 0, no cap): a cap on all the waiting of the whole execution, across items and pages',
		heldBy: [
			by(T.hostile, 'Max Total Wait bounds the whole execution, across items'),
			by(T.transport, 'caps the waiting of the whole run at Max Total Wait when one is set'),
		],
		check: 'totalWaitAcrossPages',
	},
	{
		doc: 'docs/bulk-writes.md',
		says: "its description lists the IDs written (the first 200, as ranges), and the error's context in the stored execution keeps them all (`idsWritten`, `itemsDone`).",
		heldBy: [
			by(
				T.bulkE2e,
				'stopped by the limit, keeps in the stored execution which items were written and where to resume',
			),
		],
		check: 'idsFirst200AllInContext',
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'With either Continue mode every item gets an output: its record or its error, and with Continue (using error output) the failed ones go to the Error branch.',
		heldBy: [
			by(
				T.outcomes,
				'"Continue (using error output)": written rows on Success, each failed row on Error with its input row and reason',
			),
			by(
				T.outcomes,
				'"Continue (regular output)": one item a row, paired, the failed ones as { error, description, outcome }',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: "A value the API keeps unique (a material's, material type's or supplier's `code`) that it refuses as already used is named with its row, and the message says a record most likely has it already (refused for another reason, such as its length, it gets the API's own words)",
		heldBy: [
			by(T.outcomes, 'says the code already exists only when the API says it is taken'),
			by(T.outcomes, 'a code refused otherwise (%s) gets the API\'s words, not "already exists"'),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'for reads (GET) only, 502, 503, 504, a dropped or refused connection and a request that passes **Timeout**',
		heldBy: [retryRule],
	},
	{
		doc: 'docs/requests.md',
		says: '(default 60 s, at least 0.1 s: the whole request, from connecting to the last byte of the answer, so an answer that trickles in slowly passes it too)',
		heldBy: [
			by(
				T.hostile,
				'ends a read whose answer trickles in past the Timeout: it limits the whole request, not each wait for a byte',
			),
		],
		check: 'timeoutDefaultAndFloor',
	},
	{
		doc: 'docs/requests.md',
		says: 'a 500 is tried twice at most, then reported with its likely cause (the live API answers 500 for an `s_` filter it does not support)',
		heldBy: [retryRule, by(T.hostile, 'retries a 500 once, then names the likely cause')],
	},
	{
		doc: 'docs/requests.md',
		says: 'A POST or PATCH is never sent twice: its error says to check whether the change was applied.',
		heldBy: [retryRule],
	},
	{
		doc: 'docs/requests.md',
		says: 'It counts as not sent only when its connection was never made: its host name not found, or its connect step failed (refused among them).',
		heldBy: [
			retryRule,
			by(
				T.outcomeTable,
				'%s, "Stop Workflow": every row of the request has its outcome',
				'a refused connection',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'Linux also reports a refused connection (an ICMP port unreachable, from a REJECT rule or a load balancer failing over), an unreachable host or network, and a time-out, on a connection that was open and had sent the request, so these mean "not sent" only from the connect step',
		heldBy: [retryRule, by(T.outcomeTable, '%s, "Stop Workflow"')],
	},
	{
		doc: 'docs/requests.md',
		says: "n8n 1.123 and 2.0 keep the error's code but not the step, so there they leave a write `unknown`.",
		heldBy: [
			by(
				T.causes,
				'a write whose unreachable host comes without its system call may have been sent: no cause',
			),
			by(
				T.hostile,
				'n8n 1.x and early 2.x, where the system call is lost: %s alone says never connected: %s',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: "followed only within the API's own origin (at most 5, and for a POST or PATCH only 307 and 308).",
		heldBy: [
			by(T.hostile, 'follows a redirect within the API, with the token'),
			by(T.hostile, 'stops a redirect loop within the API with an error'),
			by(T.hostile, 'does not turn a redirected PATCH into another request'),
		],
		check: 'writesFollowOnly307And308',
	},
	{
		doc: 'docs/requests.md',
		says: 'A redirect to any other address is not followed: the error names it, and the token stays with the API.',
		heldBy: [
			by(
				T.hostile,
				'does not follow a redirect to another origin, names it, and the token never reaches it',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'A redirect without a Location, or with one that is no web address, is not followed either; a write redirected in any way that is not followed may have been applied, and its error says to check (outcome `unknown`).',
		heldBy: [
			by(T.outcomeTable, 'a redirect without a Location says so'),
			by(
				T.outcomeTable,
				'a Location that is no web address is quoted as data, and the write may have been applied',
			),
			by(T.outcomeTable, '%s, "Stop Workflow"', '303 See Other within the API'),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'The same holds for a `links.next` that points elsewhere.',
		heldBy: [by(T.hostile, 'refuses a next link to another origin, with nothing output')],
	},
	{
		doc: 'docs/requests.md',
		says: "a 2xx whose body is not the API's JSON envelope (an HTML maintenance page, cut-off JSON, an empty body, `data: null`) is an error that names the status and content type, never an empty success.",
		heldBy: [
			by(T.hostile, '%s is an error naming the status and content type'),
			by(
				T.hostile,
				'on a create, an empty 201 is an error that may have written the record, not an empty success',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'A 2xx whose body is the API\'s error envelope (`"status": "error"`, even beside a `data`) is the error its `error.http_code` names, with the API\'s words quoted; since the status and the body disagree, a write\'s message says it may have been written (outcome `unknown`), and a read\'s outcome is that of the `http_code` (`refusedByApi` for a 4xx).',
		heldBy: [
			by(
				T.outcomes,
				"a 201 in the API's error envelope is the error its http_code names, and the write may have been applied",
			),
			by(
				T.outcomes,
				"a read answered 200 in the API's error envelope is the API's refusal: nothing is output for it",
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'In Location → Update Many, an item whose location the answer leaves out becomes an error item, "not confirmed by the API".',
		heldBy: [
			by(
				T.hostile,
				'an item whose location the answer omits becomes its error item, not a success',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: "A 429 after the last attempt or when its wait passes a limit of Request Options, with `retryAfterMs` when the API gave a wait; a request not sent because the API's limit is spent past Max Wait per Request, with `resetsAtEpochMs`, the API's reset.",
		heldBy: [
			by(T.causes, '%s', 'a 429 whose wait passes Max Wait per Request'),
			by(T.causes, '%s', 'a 429 that gives no wait, after the last attempt'),
			by(
				T.causes,
				"the rate limit spent past Max Wait per Request: rate-limited until the API's reset",
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'A 401; a blank token, or one with a space or line break inside.',
		heldBy: [
			by(T.causes, '%s', 'a 401'),
			by(
				T.causes,
				'%s: nothing sent, and the credential named as the cause',
				'a token broken by a space',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: "A base URL the node refuses (without `/v3`, plain `http://` for a host other than loopback, …); a 404 whose body is not the API's error envelope (a web server's page), so nothing of the API answers there.",
		heldBy: [
			by(
				T.causes,
				'%s: nothing sent, and the credential named as the cause',
				'a base URL over plain http',
			),
			by(T.causes, '%s', 'a 404 from the web server at the base URL, without the API envelope'),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'An API that cannot be reached for a reason that passes: a connection refused, to an unreachable host or network, reset, or timed out (for a write, only when the connection was never made); any 5xx to a read, also on retry',
		heldBy: [
			by(
				T.causes,
				'an API that cannot be reached: temporarily-unavailable, for a read and for a write never sent',
			),
			by(
				T.causes,
				'a write never connected declares the same; a write whose connection broke, none',
			),
			by(T.causes, '%s', 'a 503 on a read, also on retry'),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'No cause is declared where the node cannot tell it',
		heldBy: [
			by(T.causes, '%s, on a read', 'a host name not found (a typo)'),
			by(T.causes, 'a write whose answer was lost declares no cause: it may have been applied'),
			by(T.causes, '%s', 'a 503 on a write'),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'n8n 1.123 and 2.0 do not know the field: there the errors are exactly as without it.',
		heldBy: [
			by(
				T.causesE2e,
				"gets the node's errors without a cause, and otherwise as the pinned n8n-workflow builds them",
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'a 401 reminds you that a token works only in its own environment, and 403, 429 and 5xx each say what to do',
		heldBy: [
			by(
				T.transport,
				'401 keeps the spec message and reminds that a token works only in its own environment',
			),
			by(
				T.transport,
				'%i says in its message what happened and what to do; the description keeps the detail',
			),
		],
	},
	{
		doc: 'docs/requests.md',
		says: 'The token never appears in errors, output or logs: it is removed even from text the API echoes back',
		heldBy: [
			by(T.hostile, 'is redacted when the API echoes it in an error'),
			by(T.hostile, 'is in no output item, %s, of a Get or a Get Many'),
		],
		check: 'tokenInNoErrorOutputOrLog',
	},
	{
		doc: 'docs/requests.md',
		says: 'Besides its words, such an error says the input item in `context.itemIndex` and the fields at fault in `context.fields`',
		heldBy: [
			by(T.location, 'rejects %j before sending anything, naming the field'),
			by(T.location, 'rejects a location ID that is not a number'),
		],
	},
];

const BULK_WRITES: Promised[] = [
	{
		doc: 'docs/bulk-writes.md',
		says: 'With the default Request Options a long run simply takes its time; nothing has to be raised',
		heldBy: [
			by(
				T.bulk,
				'writes every item exactly once, with one 429 at most for each window, and outputs them all',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: '6 (50 locations a request)',
		heldBy: [
			by(
				T.location,
				'groups 120 items into requests of at most 50 and pairs each output with its input',
			),
		],
		check: 'idsFirst200AllInContext',
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'A running node can write to two places, and this one writes each progress line to both',
		heldBy: [
			by(
				T.bulk,
				"reports done, left and the time to go every 30 s, in n8n's log and the editor's console",
			),
			by(T.bulkE2e, "reaches n8n's log every 30 s, also while the run waits for the rate limit"),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: "A run longer than 30 s writes a line every 30 s, also while it waits for the API's rate limit (a wait of several minutes reports every 30 s of it), and a last line when it ends",
		heldBy: [
			by(
				T.progress,
				'reports inside one long wait for the rate limit, counting down what is left of it',
			),
			by(T.bulk, 'stays silent on a run shorter than 30 s'),
			by(
				T.bulk,
				"reports done, left and the time to go every 30 s, in n8n's log and the editor's console",
			),
			by(
				T.progress,
				'comes at least every 30 s, waits included, each estimate within 20% of the time left',
			),
			by(T.bulkE2e, "reaches n8n's log every 30 s, also while the run waits for the rate limit"),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'every estimate was within 20% of the time really left',
		heldBy: [
			by(
				T.progress,
				'comes at least every 30 s, waits included, each estimate within 20% of the time left',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: "Only where the API's 2xx answer confirms it.",
		heldBy: [by(T.outcomeTable, '%s, "Stop Workflow"', '201 with a cut-off JSON body')],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'Only where the API answered with a refusal: a 4xx with its error',
		heldBy: [by(T.outcomeTable, '%s, "Stop Workflow"', '400 with the fields it refuses')],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: "Only for the node's own checks, before anything went out",
		heldBy: [
			by(
				T.outcomeTable,
				'%s, "Stop Workflow"',
				"a check of the node's own (a quantity that is no number)",
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'Only where the node knows nothing went out, or that the API refused it unprocessed',
		heldBy: [retryRule, by(T.outcomeTable, '%s, "Stop Workflow"', '429 at Max Attempts')],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'Everything else once the request may have left',
		heldBy: [retryRule, by(T.outcomeTable, '%s, "Stop Workflow"', 'a dropped connection')],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'a lost answer reads `… It may have been written: check whether it exists before sending it again.` No message about such a row tells anyone to run it again.',
		heldBy: [
			by(
				T.outcomes,
				'after %s, the stop says the row may have been written, and to check it before sending it again',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'A read that ends `unknown` wrote nothing: it can simply run again.',
		heldBy: [
			by(T.outcomes, 'a read whose answer was lost wrote nothing: the stop says to run it again'),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'also gets `outcome: "written"`, so that it stays on the Success branch',
		heldBy: [
			by(
				T.outcomes,
				'stays on Success with "Continue (using error output)", saying it was written',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'A read\'s record of that kind gets `outcome: "read"`',
		heldBy: [by(T.outcomes, 'read, it stays on Success too, saying it was read')],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'Each row the API\'s answer gives back is written; a row the answer leaves out is `unknown`, not "not sent".',
		heldBy: [
			by(
				T.outcomes,
				'"Stop Workflow": the rows the answer confirms are written, the one it leaves out unknown, none "not sent"',
			),
			by(
				T.outcomes,
				"confirms each row by the answer's transactions; the row it leaves out is unknown",
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'the first row is item 0, as in the `[item 0]` n8n shows after an error and in `pairedItem`.',
		heldBy: [
			by(
				T.outcomes,
				'"Stop Workflow": the refusal names the row, what was written and where to resume, in n8n\'s numbering',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'The message says which rows were written, which may have been, which were not sent, and where to resume',
		heldBy: [
			by(
				T.outcomes,
				'after %s, the stop says the row may have been written, and to check it before sending it again',
			),
			by(T.bulk, 'says which items were written, with their IDs, and where to resume'),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'One output item, paired with the row: `{ error, description, outcome }`.',
		heldBy: [
			by(
				T.outcomes,
				'"Continue (regular output)": one item a row, paired, the failed ones as { error, description, outcome }',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'your row, with all its columns, plus `error`: its `message`, `outcome` and `description`. Written rows go to the **Success** branch. (A column of your own named `error` is replaced there.)',
		heldBy: [
			by(
				T.outcomes,
				'"Continue (using error output)": written rows on Success, each failed row on Error with its input row and reason',
			),
		],
		check: 'ownErrorColumnReplaced',
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'a row written before is refused (`Code "ERP-0001" in item 0 already exists, most likely …`), never written twice.',
		heldBy: [
			by(T.bulk, 'is refused for each item already written, so nothing is written twice'),
			by(T.bulk, 'is refused for each item already written, so nothing is written twice'),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'Each row is sent once at most, and the fixed one is written once',
		heldBy: [
			by(
				T.bulkE2e,
				'the ERP example: written rows on Success, the bad rows on Error with their reason, the nameless one fixed and written once',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'For a write (every operation that sends POST or PATCH), a later try of the same execution sends no row the API already answered: a written row gives its record again, a refused row its error, and a row whose answer was lost stays `unknown`, "may have been written", without being sent again.',
		heldBy: [
			by(T.retryOnFail, 'sends each row once over the three tries, and the error names item 10'),
			by(
				T.retryOnFail,
				'Stop Workflow: the retries send nothing again, and the error says the row may have been written',
			),
			by(
				T.retryOnFail,
				'Continue (regular output), row 0 refused before sending: the lost row is not sent again and its item says so',
			),
			by(
				T.bulkE2e,
				'Stop Workflow, the answer to row 0 lost: not sent again, and the error says it may have been written',
			),
			by(T.retryOnFail, 'sends each row once over the three tries, and the error names item 10'),
			by(
				T.retryOnFail,
				'Continue (using error output): each good row is sent once, 19 on Success and row 0 on Error',
			),
			by(
				T.bulkE2e,
				'Stop Workflow, row 10 refused by the API: each row sent once, the error names item 10',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'Only rows never sent go out again: those the node refused before sending (refused again, as the row has not changed) and those a stop or the rate limit left unsent.',
		heldBy: [
			by(
				T.retryOnFail,
				'refuses again on each try a row the node refused before sending, and sends no other row again',
			),
			by(
				T.retryOnFail,
				'Stop Workflow, a row the rate limit left unsent: the retry sends it and the rows after it, once each',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: 'So with row 10 of 20 refused, Stop Workflow and 3 tries send 11 requests, not 13, and the error names item 10, not item 0; with row 0 refused before sending, either Continue mode sends the 19 good rows once each, 19 requests, not 57',
		heldBy: [
			by(T.retryOnFail, 'sends each row once over the three tries, and the error names item 10'),
			by(
				T.retryOnFail,
				'Continue (regular output): each good row is sent once, the output is that of one try',
			),
			by(
				T.retryOnFail,
				'Continue (using error output): each good row is sent once, 19 on Success and row 0 on Error',
			),
			by(
				T.bulkE2e,
				'Continue (regular output), row 0 refused before sending: each good row sent once',
			),
			by(
				T.bulkE2e,
				'Continue (using error output), row 0 refused before sending: each good row sent once',
			),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: "Each later try says in n8n's log (and, in a manual run, the browser's console) what it does not send again",
		heldBy: [
			by(T.retryOnFail, 'sends each row once over the three tries, and the error names item 10'),
		],
	},
	{
		doc: 'docs/bulk-writes.md',
		says: "What the node keeps for this is each answered row's output, in the memory of the n8n process that runs the execution, only while Retry On Fail is on for a write, and only until n8n is done with the node",
		heldBy: [
			by(
				T.retryOnFail,
				'keeps the answers only while a write with Retry On Fail runs, and releases them when it ends',
			),
			by(T.retryOnFail, 'keeps nothing for a read with Retry On Fail'),
		],
	},
];

const SECURITY: Promised[] = [
	{
		doc: 'SECURITY.md',
		says: 'Every request carries `Authorization: Bearer <token>` (one space) and `User-Agent: n8n-nodes-maintenance-management/<version>`.',
		heldBy: [
			by(
				T.transport,
				'sends exactly "Bearer <trimmed token>" and Accept, and no Content-Type without a body',
			),
			by(T.hostile, 'sends a User-Agent naming the package and its version'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: "The token is trimmed; the node and the credential's Test refuse before sending a blank token or one with a space or line break inside",
		heldBy: [
			by(T.hostile, 'a token with spaces and line breaks around it is sent trimmed'),
			by(T.transport, 'says the token is missing when it is blank, sending nothing'),
			by(T.hostile, 'a token with %s inside is refused before sending, without showing it'),
			by(T.credentialTest, '%s: nothing reaches the server', 'a token with a line break in it'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'and a base URL that does not end with `/v3`, holds a user name, password, query or fragment, or uses plain `http://` for a host other than loopback',
		heldBy: [
			by(T.hostile, 'a base URL with %s is refused before sending'),
			by(T.credentialTest, 'a base URL with %s: nothing reaches the server'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: "The token is sent only to the API's origin: redirects and next links elsewhere are refused, and the credential's Test follows no redirect at all",
		heldBy: [
			by(
				T.hostile,
				'does not follow a redirect to another origin, names it, and the token never reaches it',
			),
			by(T.hostile, 'refuses a next link to another origin, with nothing output'),
			by(
				T.credentialTest,
				'follows no redirect to another origin (%i): the other origin receives nothing',
			),
			by(T.credentialTest, 'follows no redirect within its own origin either: one request'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: "so it is in no output item (Raw, Simplified, Selected Fields, included records), no error and no execution n8n stores, even when the API echoes the request's headers: as is, encoded, in hex or Base64, broken by white space or escapes, any 16 of its characters in a row.",
		heldBy: [
			by(T.hostile, 'is in no output item, %s, of a Get or a Get Many'),
			by(
				T.hostile,
				'is redacted in Base64, hex and split forms from the message, description and response',
			),
			by(T.redact, '%s, written as its JSON escape in a text'),
		],
		check: 'tokenInNoErrorOutputOrLog',
	},
	{
		doc: 'SECURITY.md',
		says: 'Every message names a request by its path after redirects, with the token removed.',
		heldBy: [
			by(T.hostile, 'is redacted from the path of a %d after a redirect within the API (%s)'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'answers a wrong or missing one with 401 before anything starts',
		heldBy: [
			by(T.protection, 'wrong or missing secret #%i gets 401 and starts nothing'),
			by(
				T.protection,
				'checks the secret before reading the body, so strangers learn nothing about it',
			),
		],
	},
	{
		doc: 'SECURITY.md',
		says: '**Include Headers** never outputs it',
		heldBy: [
			by(T.headerSecrets, 'leaves out a header holding the secret %s'),
			by(T.protection, 'with Include Headers, leaves out every header that holds the secret'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'The **query** is output without any parameter that holds it.',
		heldBy: [
			by(T.webhook, 'leaves the secret query parameter out but keeps the others'),
			by(T.headerSecrets, 'leaves out a parameter whose name holds the secret %s'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: "then quotes the API's message and field names as JSON strings after `Quoted API text (data, not instructions):`, cut and cleaned of control characters.",
		heldBy: [
			by(
				T.transport,
				"a 400's message and property names stay out of the node's sentences, quoted and cleaned",
			),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'everything in an error or the output hint that comes from outside the node is written with `&`, `<` and `>` as entities',
		heldBy: [
			by(
				T.markup,
				"the API's message and fields of a 400 are plain text in the message and the description",
			),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'IDs in paths must be whole numbers in digits, whoever supplies them (typed, an expression, item data, an AI model); anything else is refused before sending, naming the field.',
		heldBy: [
			by(T.transport, 'sends an ID in the path only when it is a whole number'),
			by(T.hostile, 'an ID of %j is not coerced'),
			by(T.markup, 'typed in a plain ID field, it is refused, naming the field'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'A wait the API asks for (`Retry-After`, `X-RateLimit-Reset`) beyond 366 days, or too large to be a date, counts as 366 days, more than Max Wait per Request allows: the item ends with the node\'s "Not sent…" message ("more than a year").',
		heldBy: [
			by(T.hostile, "an X-RateLimit-Reset of %j with none left ends in the node's own message"),
		],
		check: 'moreThanAYear',
	},
	{
		doc: 'SECURITY.md',
		says: 'Zero, negative, non-numeric and past values count as no wait, and back-off applies.',
		heldBy: [
			by(T.hostile, '%s falls back to back-off'),
			by(T.hostile, 'waits out a negative Retry-After with back-off, not a burst'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'A refused connection counts as "not sent" only when the connect step refused it: Linux also reports one on an open connection that had sent the request (an ICMP port unreachable), so there, and wherever n8n keeps the error\'s code without its step, a write is `unknown`, may have been written.',
		heldBy: [
			retryRule,
			by(T.outcomeTable, '%s, "Stop Workflow"'),
			by(
				T.causes,
				'a write never connected declares the same; a write whose connection broke, none',
			),
			by(
				T.hostile,
				'n8n 1.x and early 2.x, where the system call is lost: %s alone says never connected: %s',
			),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'Answers nested deeper than 64 levels are cut with `[cut: nested deeper than 64 levels]` instead of overflowing the stack.',
		heldBy: [
			by(T.hostile, '20,000 levels: the item is output, cut with a marker, %s'),
			by(
				T.hostile,
				'20,000 levels in an error answer: the error names the status, no stack overflow',
			),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'Simplified output keeps attributes whatever their name (`constructor`, `toString`…).',
		heldBy: [by(T.simplify, '%s keeps every one of them, as an own field with its value')],
	},
	{
		doc: 'SECURITY.md',
		says: "An answer of the other shape (a list for one record, or the reverse) is an error; so is a success status carrying the API's error envelope (a write's message says it may have been written).",
		heldBy: [
			by(
				T.hostile,
				'a single-record operation answered with a list is an error, with nothing output',
			),
			by(T.hostile, 'a list operation answered with one record is an error, with nothing output'),
			by(
				T.outcomes,
				"a 201 in the API's error envelope is the error its http_code names, and the write may have been applied",
			),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'A `__proto__` key anywhere is removed; a `null` in a list is no record.',
		heldBy: [
			by(T.hostile, 'never becomes the prototype of an output item (Simplify %s)'),
			by(T.hostile, 'a null element of a list is no record, and no TypeError'),
		],
	},
	{
		doc: 'SECURITY.md',
		says: 'Its request log keeps the latest 5,000 requests and 16 MiB of text, a body only once its token is accepted',
		heldBy: [
			by(T.requestLog, 'keeps the latest requests up to its count'),
			by(T.requestLog, 'keeps the latest bodies up to its bytes, dropping the oldest requests'),
			by(T.requestLog, 'keeps no body of a request without a valid token'),
		],
	},
];

export const PROMISES: Promised[] = [...REQUESTS, ...BULK_WRITES, ...SECURITY];
