import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import * as ts from 'typescript';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { requestOptions } from '../../nodes/shared/properties';
import type { Outcome } from '../../nodes/shared/errors/outcome';
import {
	DEFAULT_POLICY,
	LONGEST_WAIT_MS,
	rateLimitWaitMs,
} from '../../nodes/MaintenanceManagement/transport/retry';
import { MATERIAL_FROM_ROW } from '../helpers/rows';
import { apiError, collectionPage, ScriptedServer, type Reply } from '../helpers/scriptedServer';
import {
	connectionsFailing,
	FAULTS_AFTER_SENDING,
	FAULTS_BEFORE_SENDING,
	type SocketFault,
} from '../helpers/socketFaults';
import { PROMISES, type CheckName, type Doc } from '../cases/promises';
import { runNode, type Credentials, type RunOptions, type RunResult } from './helpers/harness';

/**
 * The promises of docs/requests.md, docs/bulk-writes.md and SECURITY.md about what the node sends,
 * retries, paces or reports (test/cases/promises.ts lists them, each with the tests that hold it): the
 * list checked against the docs and the test files it names, and the checks of the promises no other
 * test holds. First among them, the rule that keeps a write from being sent twice, run in n8n-core
 * against a scripted API on loopback for each method and each way a request can fail, counting the
 * tries n8n-core made and the requests that arrived.
 */

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const sleepMock = sleep as jest.MockedFunction<typeof sleep>;
const ROOT = join(__dirname, '..', '..');
const TOKEN = 'tok_promises_3b7e1c9d5a2f';
const node = new MaintenanceManagement();
const api = new ScriptedServer();
const credentials: Credentials = { accessToken: TOKEN, environment: 'sandbox' };
let closedPort = 0;

beforeAll(async () => {
	await api.start();
	credentials.sandboxBaseUrl = `${api.url}/v3`;
	closedPort = await new Promise<number>((resolve) => {
		const probe = createServer().listen(0, '127.0.0.1', () => {
			const { port } = probe.address() as { port: number };
			probe.close(() => resolve(port));
		});
	});
});
afterAll(async () => await api.stop());
beforeEach(() => sleepMock.mockClear());

/** Runs the node in n8n-core against the scripted API. */
const run = (options: Omit<RunOptions, 'node' | 'credentials'>, creds = credentials) =>
	runNode({ node, credentials: creds, ...options });

const showsToken = (value: unknown) => JSON.stringify(value ?? null).includes(TOKEN);

type Method = 'POST' | 'PATCH' | 'GET';

/** An answer with a status, as opposed to a dropped or hung connection. */
type Answer = Extract<Reply, { status: number }>;

/** One operation of each method, with one input item and the API's answer when it succeeds. */
const OPERATIONS: Record<
	Method,
	{ path: string; parameters: IDataObject; item: IDataObject; success: Answer }
> = {
	POST: {
		path: '/stocks/materials',
		parameters: MATERIAL_FROM_ROW,
		item: { code: 'ERP-0001', name: 'Bolt' },
		success: {
			status: 201,
			body: { data: { id: '1', type: 'material', attributes: { code: 'ERP-0001' } } },
		},
	},
	PATCH: {
		path: '/locations',
		parameters: {
			resource: 'location',
			operation: 'updateMany',
			id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
			updateFields: { name: '={{ $json.name }}' },
		},
		item: { id: 3, name: 'Hall' },
		success: {
			status: 200,
			body: { data: [{ id: '3', type: 'location', attributes: { name: 'Hall' } }] },
		},
	},
	GET: {
		path: '/locations/3',
		parameters: {
			resource: 'location',
			operation: 'get',
			id: { __rl: true, mode: 'id', value: '3' },
		},
		item: {},
		success: { status: 200, body: { data: { id: '3', type: 'location', attributes: {} } } },
	},
};

/** The attempts a request is allowed in the table below (Max Attempts on Rate Limit). */
const ATTEMPTS = 3;

/** A way a request fails, and what each method comes to: how often it is tried, and its outcome. */
interface Fault {
	label: string;
	/**
	 * The API's answer to every attempt, or to the first alone (`firstOnly`), the others succeeding;
	 * `trickle`: the operation's success, a byte every 0.1 s.
	 */
	reply?: Reply | 'trickle';
	firstOnly?: true;
	/** The connection is never made: refused (a closed port), or failing at this step. */
	connect?: 'refused' | SocketFault;
	/** The Timeout of the run, for a fault that passes it; the default otherwise. */
	timeoutSeconds?: number;
	/** How often a read is tried; a write is tried once, unless `write` says otherwise. */
	read: number;
	write?: number;
	/** What the request comes to: a read's and a write's outcome, or written (no error). */
	outcome: { read: Outcome | 'written'; write: Outcome | 'written' };
}

const UNKNOWN = { read: 'unknown', write: 'unknown' } as const;
const NOT_SENT = { read: 'notSent', write: 'notSent' } as const;

const serviceError = (status: number): Answer => apiError(status, { message: 'It failed.' });
/** A gateway's own page, not the API's envelope. */
const gatewayPage = (status: number): Answer => ({
	status,
	headers: { 'Content-Type': 'text/html' },
	raw: `<html><h1>${status}</h1></html>`,
});

/** Faults once the request may have reached the API: a write is never tried again after any of them. */
const AFTER_SENDING: Fault[] = [
	{ label: 'a 500', reply: serviceError(500), read: 2, outcome: UNKNOWN },
	{ label: 'a 501', reply: serviceError(501), read: 1, outcome: UNKNOWN },
	{ label: "a 502, a gateway's page", reply: gatewayPage(502), read: ATTEMPTS, outcome: UNKNOWN },
	{ label: 'a 503', reply: serviceError(503), read: ATTEMPTS, outcome: UNKNOWN },
	{ label: "a 504, a gateway's page", reply: gatewayPage(504), read: ATTEMPTS, outcome: UNKNOWN },
	{ label: 'a 505', reply: serviceError(505), read: 1, outcome: UNKNOWN },
	{ label: 'a 520', reply: gatewayPage(520), read: 1, outcome: UNKNOWN },
	{
		label: 'a 408',
		reply: serviceError(408),
		read: 1,
		outcome: { read: 'refusedByApi', write: 'refusedByApi' },
	},
	{ label: 'a dropped connection', reply: 'drop', read: ATTEMPTS, outcome: UNKNOWN },
	...FAULTS_AFTER_SENDING.map((fault): Fault => ({
		label: `${fault.syscall} ${fault.code} once the API has read the request`,
		reply: { fault },
		read: ATTEMPTS,
		outcome: UNKNOWN,
	})),
	{
		label: 'no answer within the Timeout (0.2 s)',
		reply: 'hang',
		timeoutSeconds: 0.2,
		read: ATTEMPTS,
		outcome: UNKNOWN,
	},
	{
		label: 'an answer trickling in past the Timeout (0.5 s), a byte every 0.1 s',
		reply: 'trickle',
		timeoutSeconds: 0.5,
		read: ATTEMPTS,
		outcome: UNKNOWN,
	},
];

/** Connections never made: nothing was sent. A read is tried again where the fault may pass. */
const NEVER_CONNECTED: Fault[] = [
	{ label: 'a refused connection', connect: 'refused', read: ATTEMPTS, outcome: NOT_SENT },
	...FAULTS_BEFORE_SENDING.map((fault): Fault => ({
		label: `${fault.syscall} ${fault.code}, before connecting`,
		connect: fault,
		// A host name not found is a typo as likely as a name server down: it is not tried again.
		read: fault.code === 'ENOTFOUND' ? 1 : ATTEMPTS,
		outcome: NOT_SENT,
	})),
];

/** A 429: the API refused the request unprocessed, so every method is tried again. */
const RATE_LIMITED: Fault[] = [
	{
		label: 'a 429, then the answer',
		reply: { ...serviceError(429), headers: { 'Retry-After': '1' } },
		firstOnly: true,
		read: 2,
		write: 2,
		outcome: { read: 'written', write: 'written' },
	},
	{
		label: 'a 429 at every attempt',
		reply: serviceError(429),
		read: ATTEMPTS,
		write: ATTEMPTS,
		outcome: NOT_SENT,
	},
];

const answerOf = (method: Method, reply: Reply | 'trickle'): Reply => {
	const { success } = OPERATIONS[method];
	return reply === 'trickle' ? { ...success, trickleMs: 100 } : reply;
};

/** Runs one method's operation over one item, the API failing as `fault` says. */
async function tryOnce(method: Method, fault: Fault): Promise<RunResult> {
	const { parameters, item, success } = OPERATIONS[method];
	api.reset((_request, index) =>
		fault.reply !== undefined && !(fault.firstOnly && index > 0)
			? answerOf(method, fault.reply)
			: success,
	);
	const creds =
		fault.connect === 'refused'
			? { ...credentials, sandboxBaseUrl: `http://127.0.0.1:${closedPort}/v3` }
			: credentials;
	const timeout =
		fault.timeoutSeconds === undefined ? {} : { timeoutSeconds: fault.timeoutSeconds };
	const go = () =>
		run(
			{
				items: [item],
				parameters: { ...parameters, requestOptions: { maxAttempts: ATTEMPTS, ...timeout } },
			},
			creds,
		);
	return typeof fault.connect === 'object'
		? await connectionsFailing(fault.connect, go)
		: await go();
}

describe('the retry rule, method × fault: a POST or PATCH is tried again only after a 429; a read also after a fault that passes', () => {
	const methods: Method[] = ['POST', 'PATCH', 'GET'];
	const times = (count: number) => (count === 1 ? 'once' : `${count} times`);
	const cases = [...AFTER_SENDING, ...NEVER_CONNECTED, ...RATE_LIMITED].flatMap((fault) =>
		methods.map((method) => {
			const tries = method === 'GET' ? fault.read : (fault.write ?? 1);
			return [
				`${method} ${OPERATIONS[method].path} after ${fault.label}: tried ${times(tries)}`,
				method,
				fault,
				tries,
			] as const;
		}),
	);

	it.each(cases)('%s', async (_title, method, fault, tries) => {
		const result = await tryOnce(method, fault);
		// n8n-core's tries (each request it authenticated to send), and those that reached the API.
		const arrivals = fault.connect ? 0 : tries;
		expect(
			`${method} after ${fault.label}: tried ${result.requests.length}, arrived ${api.requests.length}`,
		).toBe(`${method} after ${fault.label}: tried ${tries}, arrived ${arrivals}`);
		const outcome = method === 'GET' ? fault.outcome.read : fault.outcome.write;
		if (outcome === 'written') {
			expect(result.error).toBeUndefined();
			expect(result.output).toHaveLength(1);
			return;
		}
		expect(result.error?.context?.outcome).toBe(outcome);
		// A write that may have been applied says to check it; one that was not sent says nothing of it.
		if (method !== 'GET')
			expect(result.error?.message).toMatch(
				outcome === 'unknown' ? /check whether/ : /^(?![\s\S]*may have been)/,
			);
	});
});

/** A 429 in the API's envelope, with the wait it asks for when one is given. */
const tooMany = (retryAfter?: string): Answer => ({
	...serviceError(429),
	...(retryAfter === undefined ? {} : { headers: { 'Retry-After': retryAfter } }),
});
const locationRecord = (id: string) => ({
	id,
	type: 'location',
	attributes: { name: `Site ${id}` },
});
const slept = () => sleepMock.mock.calls.map(([ms]) => ms);

/** Checks of promises no other test holds, each run for the promises of the list that name it. */
const checks: Record<CheckName, () => unknown> = {
	async httpDateRetryAfter() {
		const now = Date.UTC(2026, 0, 1, 12, 0, 0);
		expect(rateLimitWaitMs({ 'retry-after': new Date(now + 7000).toUTCString() }, now)).toBe(7000);
		expect(rateLimitWaitMs({ 'retry-after': '7' }, now)).toBe(7000);
		// In a run: the wait a 429 asks for is the one slept before the request goes again.
		api.reset((_request, index) => (index === 0 ? tooMany('4') : OPERATIONS.GET.success));
		const { error } = await run({ parameters: OPERATIONS.GET.parameters });
		expect(error).toBeUndefined();
		expect(slept()).toEqual([4000]);
	},

	resetSecondsOrEpoch() {
		const now = Date.UTC(2026, 0, 1);
		const reset = (value: string) => rateLimitWaitMs({ 'x-ratelimit-reset': value }, now);
		expect(reset('9')).toBe(9000);
		expect(reset(String(now / 1000 + 9))).toBe(9000);
		// Just below 10⁹: seconds from now, more than a year; at 10⁹: a UNIX time, long past.
		expect(reset('999999999')).toBe(LONGEST_WAIT_MS);
		expect(reset('1000000000')).toBeUndefined();
	},

	async backOffWithJitter() {
		api.reset(() => tooMany());
		await run({ parameters: { ...OPERATIONS.GET.parameters, requestOptions: { maxAttempts: 4 } } });
		expect(api.requests).toHaveLength(4);
		const steps = [1000, 2000, 4000];
		expect(slept().map((ms, index) => ms >= steps[index] / 2 && ms <= steps[index])).toEqual([
			true,
			true,
			true,
		]);
	},

	panelDefaults() {
		const defaults = Object.fromEntries(
			(requestOptions.options ?? []).map((option) => [
				option.name,
				(option as { default?: unknown }).default,
			]),
		);
		expect(defaults).toMatchObject({
			maxRequestWaitSeconds: 300,
			maxAttempts: 5,
			maxWaitSeconds: 0,
			timeoutSeconds: 60,
		});
		expect(DEFAULT_POLICY).toMatchObject({
			maxRequestWaitMs: 300_000,
			maxAttempts: 5,
			maxTotalWaitMs: Infinity,
			timeoutMs: 60_000,
		});
	},

	async fiveAttemptsByDefault() {
		api.reset(() => tooMany());
		const { error } = await run({
			parameters: OPERATIONS.POST.parameters,
			items: [OPERATIONS.POST.item],
		});
		expect(api.requests).toHaveLength(5);
		expect(error?.context?.outcome).toBe('notSent');
	},

	async totalWaitAcrossPages() {
		api.reset((request, index) =>
			index === 0 || index === 2
				? tooMany('30')
				: {
						status: 200,
						body: collectionPage(4000, Number(request.query.page), 2000, {
							type: 'location',
							path: 'locations',
						}),
					},
		);
		const { error, output } = await run({
			parameters: {
				resource: 'location',
				operation: 'getAll',
				returnAll: true,
				requestOptions: { maxWaitSeconds: 50 },
			},
		});
		expect(api.requests.map(({ query }) => query.page)).toEqual(['1', '1', '2']);
		expect(slept()).toEqual([30_000]);
		expect(output).toEqual([]);
		expect(error?.message).toMatch(
			/The next wait \(30 s\) would pass Max Total Wait \(50 s, 30 s of it already waited in this execution\)/,
		);
	},

	async writesFollowOnly307And308() {
		for (const method of ['POST', 'PATCH'] as const)
			for (const status of [307, 308]) {
				const { path, parameters, item, success } = OPERATIONS[method];
				api.reset((request) =>
					request.path === `/v3${path}`
						? { status, headers: { Location: `/v3/moved${path}` } }
						: success,
				);
				const { error, output } = await run({ parameters, items: [item] });
				expect(error).toBeUndefined();
				expect(output).toHaveLength(1);
				// The same request, sent on to the new address once: the first answer was only a redirect.
				const [first, second, ...more] = api.requests;
				expect({ method: second?.method, path: second?.path, body: second?.body }).toEqual({
					method,
					path: `/v3/moved${path}`,
					body: first.body,
				});
				expect([first.method, more.length]).toEqual([method, 0]);
			}
	},

	async idsFirst200AllInContext() {
		const ids = Array.from({ length: 300 }, (_, index) => index + 1);
		api.reset((request, index) => {
			const { locations } = request.body as { locations: Array<{ id: number; name: string }> };
			return index === 5
				? apiError(400, { message: 'Invalid.', properties: { 'locations[0].name': ['Bad.'] } })
				: { status: 200, body: { data: locations.map(({ id }) => locationRecord(String(id))) } };
		});
		const { error } = await run({
			items: ids.map((id) => ({ id, name: `Site ${id}` })),
			parameters: OPERATIONS.PATCH.parameters,
		});
		expect(
			api.requests.map(({ body }) => (body as { locations: unknown[] }).locations.length),
		).toEqual([50, 50, 50, 50, 50, 50]);
		expect(error?.description).toContain(
			"IDs written: 1–200 and 50 more (all in the error's context).",
		);
		expect(error?.context).toMatchObject({
			itemsDone: 250,
			idsWritten: ids.slice(0, 250).map(String),
		});
	},

	async tokenInNoErrorOutputOrLog() {
		// Minutes pass as the node waits, so that its progress lines come; the API echoes the token.
		let now = Date.UTC(2026, 0, 1);
		sleepMock.mockImplementation(async (ms) => {
			now += ms;
		});
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
		try {
			const echo = `Token Bearer ${TOKEN} is not allowed`;
			api.reset((_request, index) =>
				index === 0
					? { ...apiError(429, { message: echo }), headers: { 'Retry-After': '90' } }
					: index === 2
						? apiError(400, { message: echo, properties: { [TOKEN]: [echo] } })
						: { status: 200, body: { data: { ...locationRecord('3'), meta: { note: echo } } } },
			);
			const lines: string[] = [];
			const result = await run({
				continueOnFail: true,
				items: [{}, {}, {}],
				parameters: { ...OPERATIONS.GET.parameters, simplify: false },
				sendDataToUI: (type, data) => {
					if (type === 'sendConsoleMessage')
						lines.push(...(data as { messages: string[] }).messages);
				},
			});
			// Each line goes to n8n's log and the editor's console alike (see ItemLoop).
			expect(lines.length).toBeGreaterThanOrEqual(3);
			expect(result.output).toHaveLength(3);
			expect(JSON.stringify(result.output)).toContain('Token Bearer *** is not allowed');
			expect({
				output: showsToken(result.output),
				error: showsToken(result.error),
				lines: showsToken(lines),
			}).toEqual({ output: false, error: false, lines: false });
		} finally {
			clock.mockRestore();
			sleepMock.mockImplementation(async () => undefined);
		}
	},

	async ownErrorColumnReplaced() {
		api.reset(() => OPERATIONS.POST.success);
		const { errorOutput } = await run({
			onError: 'continueErrorOutput',
			items: [{ code: 'ERP-0001', name: '', error: 'a column of my own' }],
			parameters: MATERIAL_FROM_ROW,
		});
		expect(api.requests).toHaveLength(0);
		expect(errorOutput.map(({ json }) => [json.code, typeof json.error])).toEqual([
			['ERP-0001', 'object'],
		]);
		expect((errorOutput[0].json.error as IDataObject).outcome).toBe('refusedBeforeSending');
	},

	async timeoutDefaultAndFloor() {
		checks.panelDefaults();
		// A Timeout of 0, from an expression (the panel offers 0.1 at least), is 0.1 s.
		api.reset(() => 'hang');
		const { error } = await run({
			parameters: {
				...OPERATIONS.GET.parameters,
				requestOptions: { timeoutSeconds: '={{ 0 }}', maxAttempts: 1 },
			},
		});
		expect(error?.message).toBe(
			'No complete answer from the API within the Timeout (0.1 s). Raise the Timeout under Request Options, or try again later.',
		);
	},

	async moreThanAYear() {
		api.reset(() => ({
			status: 200,
			headers: { 'X-Ratelimit-Remaining': '0', 'X-RateLimit-Reset': '9'.repeat(40) },
			body: { data: locationRecord('3') },
		}));
		// The clock moves on a millisecond each time it is read, as it does between two requests.
		let now = Date.UTC(2026, 0, 1);
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now++);
		try {
			const { error } = await run({ items: [{}, {}], parameters: OPERATIONS.GET.parameters });
			expect(api.requests).toHaveLength(1);
			expect(error?.message).toMatch(
				/^Not sent: the API's rate limit allows no request for another more than a year\b/,
			);
			expect(error?.context?.outcome).toBe('notSent');
		} finally {
			clock.mockRestore();
		}
	},

	async anotherExecutionSpentTheLimit() {
		// One count for both executions: 2 requests a window; a wait for the API's reset renews it.
		let left = 2;
		api.reset(() => {
			if (left === 0) return tooMany('30');
			left--;
			return {
				...OPERATIONS.POST.success,
				headers: { 'X-Ratelimit-Remaining': String(left), 'X-RateLimit-Reset': '30' },
			} as Answer;
		});
		sleepMock.mockImplementation(async () => {
			left = 2;
		});
		try {
			const first = await run({
				items: [
					{ code: 'A-1', name: 'A' },
					{ code: 'A-2', name: 'A' },
				],
				parameters: MATERIAL_FROM_ROW,
			});
			const second = await run({
				items: [{ code: 'B-1', name: 'B' }],
				parameters: MATERIAL_FROM_ROW,
			});
			expect([first.error, second.error]).toEqual([undefined, undefined]);
			// The second execution knew nothing of the spent limit: its request met a 429, and went again.
			expect(api.requests.map(({ body }) => (body as IDataObject).code)).toEqual([
				'A-1',
				'A-2',
				'B-1',
				'B-1',
			]);
			expect(slept()).toEqual([30_000]);
		} finally {
			sleepMock.mockImplementation(async () => undefined);
		}
	},
};

/** Text as a doc writes it, its white space (line breaks, a table's padding) as one space. */
const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();
const readText = (file: string) => readFileSync(join(ROOT, file), 'utf8');

const TEST_FUNCTIONS = new Set(['it', 'test', 'describe']);

/** Whether a call is a test's or a describe's: `it(…)`, `it.each(table)(…)`; not a skipped one. */
function declaresTest(callee: ts.Expression): boolean {
	if (ts.isIdentifier(callee)) return TEST_FUNCTIONS.has(callee.text);
	if (!ts.isCallExpression(callee) || !ts.isPropertyAccessExpression(callee.expression))
		return false;
	const { expression, name } = callee.expression;
	return ts.isIdentifier(expression) && TEST_FUNCTIONS.has(expression.text) && name.text === 'each';
}

/** A test file's titles, as written (a table's with its `%s`), and every string it holds (its tables' labels). */
function declared(file: string): { titles: Set<string>; strings: Set<string> } {
	const source = ts.createSourceFile(file, readText(file), ts.ScriptTarget.Latest, true);
	const titles = new Set<string>();
	const strings = new Set<string>();
	const text = (node: ts.Node | undefined) =>
		node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
			? node.text
			: undefined;
	const visit = (node: ts.Node): void => {
		const literal = text(node);
		if (literal !== undefined) strings.add(literal);
		if (ts.isCallExpression(node) && declaresTest(node.expression)) {
			const title = text(node.arguments[0]);
			if (title !== undefined) titles.add(title);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return { titles, strings };
}

describe('the promises of the docs, each held by a test', () => {
	const docs = new Map<string, string>();
	const docText = (doc: Doc) => {
		if (!docs.has(doc)) docs.set(doc, spaced(readText(doc)));
		return docs.get(doc)!;
	};

	it('quotes each promise word for word from its doc', () => {
		const gone = PROMISES.filter(({ doc, says }) => !docText(doc).includes(spaced(says))).map(
			({ doc, says }) => `${doc} no longer says: "${says}" (update the promise here with its doc)`,
		);
		expect(gone).toEqual([]);
	});

	it('names only tests that are in their files, and every promise has one or a check of its own', () => {
		const files = new Map<string, ReturnType<typeof declared>>();
		const missing: string[] = [];
		for (const { doc, says, heldBy = [], check } of PROMISES) {
			if (heldBy.length === 0 && !check) missing.push(`${doc}: "${says}" is held by no test`);
			for (const { file, test, row } of heldBy) {
				if (!files.has(file)) files.set(file, declared(file));
				const { titles, strings } = files.get(file)!;
				if (!titles.has(test)) missing.push(`${file} has no test "${test}" (for "${says}")`);
				if (row !== undefined && !strings.has(row))
					missing.push(`${file} has no row "${row}" in "${test}" (for "${says}")`);
			}
		}
		expect(missing).toEqual([]);
	});

	it('quotes each promise once', () => {
		const quotes = PROMISES.map(({ doc, says }) => `${doc}: ${spaced(says)}`);
		expect(quotes.filter((quote, index) => quotes.indexOf(quote) !== index)).toEqual([]);
	});
});

describe('the promises no other test holds, checked here', () => {
	const own = PROMISES.filter(({ check }) => check).map(
		({ doc, says, check }) => [`${doc}: "${says}"`, check!] as const,
	);

	it.each(own)('%s', async (_promise, check) => {
		await checks[check]();
	});
});
