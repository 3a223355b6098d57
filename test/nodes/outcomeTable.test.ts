import { createServer } from 'node:net';

import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import type { Outcome } from '../../nodes/shared/errors/outcome';
import { followingRedirects } from '../../nodes/MaintenanceManagement/transport/exchange';
import {
	apiError,
	ScriptedServer,
	type ReceivedRequest,
	type Reply,
} from '../helpers/scriptedServer';
import { TRANSFER_FROM_ROW } from '../helpers/rows';
import {
	connectionsFailing,
	FAULTS_AFTER_SENDING,
	FAULTS_BEFORE_SENDING,
	type SocketFault,
} from '../helpers/socketFaults';
import { runNode, type Credentials, type RunOptions, type RunResult } from './helpers/harness';

/**
 * The outcome of a request, over every way it can end, in n8n-core against a scripted API on loopback:
 * `written` only where a 2xx confirms it, `refusedByApi` only for a 4xx refusal, `notSent` only where
 * nothing went out (a 429 included), `refusedBeforeSending` only for the node's own checks, and
 * `unknown` for everything else once the request may have left. Each ending is run for a write sent
 * per item (Stock Transaction → Transfer, item 1 of 3 failing), a grouped write (Location → Update
 * Many, three rows in one PATCH) and, where it applies, a read (Location → Get, item 1 of 3 failing).
 * No stop tells anyone to send again a row that may have been written.
 */

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

jest.mock('../../nodes/MaintenanceManagement/transport/exchange', () => {
	const actual = jest.requireActual('../../nodes/MaintenanceManagement/transport/exchange');
	return { ...actual, followingRedirects: jest.fn(actual.followingRedirects) };
});

const redirectsMock = followingRedirects as jest.MockedFunction<typeof followingRedirects>;
const actualRedirects = jest.requireActual<{ followingRedirects: typeof followingRedirects }>(
	'../../nodes/MaintenanceManagement/transport/exchange',
).followingRedirects;

const node = new MaintenanceManagement();
const api = new ScriptedServer();
const elsewhere = new ScriptedServer();
const credentials: Credentials = { accessToken: 'tok_outcome_table_5d1e', environment: 'sandbox' };
let closedPort = 0;

/** A loopback port nothing listens on: a connection to it is refused. */
const unusedPort = (): Promise<number> =>
	new Promise((resolve) => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});

beforeAll(async () => {
	await api.start();
	await elsewhere.start();
	credentials.sandboxBaseUrl = `${api.url}/v3`;
	closedPort = await unusedPort();
});
afterAll(async () => {
	await api.stop();
	await elsewhere.stop();
});
beforeEach(() => {
	(sleep as jest.Mock).mockClear();
	redirectsMock.mockImplementation(actualRedirects);
});

/** Where a same-origin redirect of the table points: answered as the failing request is. */
const REDIRECTED = '/v3/redirected';

/** A fault of the node's own thrown around the failing request's exchange, whatever its type. */
interface Thrown {
	when: 'before sending' | 'after sending';
	error: () => Error;
}

interface Ending {
	label: string;
	/** The failing request's answer (and that of any request it is redirected to). */
	reply?: Reply;
	thrown?: Thrown;
	/** What the failing request comes to: for a write, and for a read where the ending applies to one. */
	write: Outcome;
	read?: Outcome;
	/** Request Options of the run; one attempt unless given. */
	options?: IDataObject;
	/** The failing request's Timeout, in seconds; the others keep the default, however busy the machine. */
	timeout?: number;
	/** The failing item's quantity, for a check of the node's own; 2 unless given. */
	quantity?: unknown;
	/**
	 * The base URL is a closed port: every request of the run fails to connect, refused (`true`) or
	 * with the fault given, raised before the refusal comes.
	 */
	closed?: true | SocketFault;
	/** An answer to the request before the failing one, instead of a success. */
	before?: Reply;
	/** What the items after the failing one come to, with Continue On Fail: written unless given. */
	later?: Outcome;
}

const FAKE_NODE = { name: 'x', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} };

const errorBody = (status: number, message: string) =>
	apiError(status, { message, more_info: 'https://docs.example/errors' });

/** Faults of a connection that had sent the request, once the API has read all of it. */
function faultsAfterWriting(): Ending[] {
	return FAULTS_AFTER_SENDING.map((fault): Ending => ({
		label: `${fault.syscall} ${fault.code} once the API has read the request`,
		reply: { fault },
		write: 'unknown',
		read: 'unknown',
	}));
}

/** Faults of the connect step, and of the host name's lookup before it: nothing was sent. */
function connectStepFaults(): Ending[] {
	return FAULTS_BEFORE_SENDING.map((fault) => ({
		label: `${fault.syscall} ${fault.code}`,
		closed: fault,
		write: 'notSent',
		read: 'notSent',
	}));
}

const endings: Ending[] = [
	{ label: '201 with the record', reply: { status: 201 }, write: 'written', read: 'written' },
	{
		label: '200 with X-Ratelimit-Remaining unreadable',
		reply: { status: 200, headers: { 'X-Ratelimit-Remaining': 'lots' } },
		write: 'written',
		read: 'written',
	},
	{
		label: '201 with an HTML page',
		reply: { status: 201, headers: { 'Content-Type': 'text/html' }, raw: '<h1>OK</h1>' },
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: '201 with a cut-off JSON body',
		reply: { status: 201, raw: '{"data":{"id":"1"' },
		write: 'unknown',
		read: 'unknown',
	},
	{
		// The status says written, the body refused: a write may have been applied.
		label: "201 with a record and the API's error envelope (http_code 400)",
		reply: {
			status: 201,
			body: { data: { id: '1', type: 'x' }, ...apiError(400, { message: 'Invalid.' }).body },
		},
		write: 'unknown',
		read: 'refusedByApi',
	},
	{
		label: '201 whose included cannot be read',
		reply: { status: 201, body: { data: { id: '1', type: 'x' }, included: 5 } },
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: '301 to another origin',
		reply: { status: 301, headers: { Location: 'ELSEWHERE/v3/x' } },
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: '302 within the API (a write is not redirected with 302)',
		reply: { status: 302, headers: { Location: REDIRECTED } },
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: '303 See Other within the API',
		reply: { status: 303, headers: { Location: REDIRECTED } },
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: '307 looping within the API (too many redirects)',
		reply: { status: 307, headers: { Location: REDIRECTED } },
		write: 'unknown',
		read: 'unknown',
	},
	{ label: '303 with no Location', reply: { status: 303 }, write: 'unknown', read: 'unknown' },
	{
		label: '302 with an empty Location',
		reply: { status: 302, headers: { Location: '' } },
		write: 'unknown',
		read: 'unknown',
	},
	{ label: '300 with no Location', reply: { status: 300 }, write: 'unknown', read: 'unknown' },
	{
		label: '302 with the Location "http://[::1"',
		reply: { status: 302, headers: { Location: 'http://[::1' } },
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: '303 with the Location "http://exa mple/"',
		reply: { status: 303, headers: { Location: 'http://exa mple/' } },
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: '400 with the fields it refuses',
		reply: apiError(400, { message: 'Invalid.', properties: { quantity: ['Too large.'] } }),
		write: 'refusedByApi',
		read: 'refusedByApi',
	},
	{
		label: '404',
		reply: errorBody(404, 'Not found.'),
		write: 'refusedByApi',
		read: 'refusedByApi',
	},
	{
		label: '429 at Max Attempts',
		reply: errorBody(429, 'Too Many Requests.'),
		write: 'notSent',
		read: 'notSent',
	},
	{
		label: '429 with an unreadable Retry-After, at Max Attempts',
		reply: { ...errorBody(429, 'Too Many Requests.'), headers: { 'Retry-After': 'soon' } },
		write: 'notSent',
		read: 'notSent',
		options: { maxAttempts: 3 },
	},
	{
		label: '429 asking a wait past Max Wait per Request',
		reply: { ...errorBody(429, 'Too Many Requests.'), headers: { 'Retry-After': '3600' } },
		write: 'notSent',
		read: 'notSent',
		later: 'notSent',
		options: { maxAttempts: 5, maxRequestWaitSeconds: 60 },
	},
	{
		label: "the limit spent, by the last answer's word, past Max Wait per Request",
		before: {
			status: 201,
			headers: { 'X-Ratelimit-Remaining': '0', 'X-RateLimit-Reset': '3600' },
		},
		write: 'notSent',
		read: 'notSent',
		later: 'notSent',
		options: { maxRequestWaitSeconds: 60 },
	},
	{
		label: '500',
		reply: errorBody(500, 'Server Error.'),
		write: 'unknown',
		read: 'unknown',
		options: { maxAttempts: 3 },
	},
	{
		label: '503',
		reply: errorBody(503, 'Unavailable.'),
		write: 'unknown',
		read: 'unknown',
	},
	{ label: 'a dropped connection', reply: 'drop', write: 'unknown', read: 'unknown' },
	...faultsAfterWriting(),
	{
		label: 'no answer within the Timeout',
		reply: 'hang',
		write: 'unknown',
		read: 'unknown',
		timeout: 0.2,
	},
	{
		// A byte every 0.1 s: no wait for a byte passes the Timeout, and the record's answer takes seconds.
		label: 'an answer trickled in past the Timeout, one byte every 0.1 s',
		reply: { status: 201, trickleMs: 100 },
		write: 'unknown',
		read: 'unknown',
		timeout: 0.5,
	},
	{ label: 'a refused connection', closed: true, write: 'notSent', read: 'notSent' },
	...connectStepFaults(),
	{
		label: "a check of the node's own (a quantity that is no number)",
		quantity: 'two',
		write: 'refusedBeforeSending',
	},
	{
		label: 'a TypeError before sending',
		thrown: { when: 'before sending', error: () => new TypeError('x is not a function') },
		write: 'notSent',
		read: 'notSent',
	},
	{
		label: 'a TypeError after sending',
		thrown: { when: 'after sending', error: () => new TypeError('Invalid URL') },
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: 'a NodeOperationError after sending',
		thrown: {
			when: 'after sending',
			error: () => new NodeOperationError(FAKE_NODE as INode, 'Something failed'),
		},
		write: 'unknown',
		read: 'unknown',
	},
	{
		label: 'a NodeApiError after sending',
		thrown: {
			when: 'after sending',
			error: () => new NodeApiError(FAKE_NODE as INode, { message: 'Something failed' }),
		},
		write: 'unknown',
		read: 'unknown',
	},
];

const record = (id: number, type: string): IDataObject => ({
	data: { id: String(id), type, attributes: { name: `Record ${id}` } },
});

/** A reply with the elsewhere server's address, and a success of the operation's record type. */
function replyOf(reply: Reply, success: IDataObject): Reply {
	if (typeof reply === 'string' || 'fault' in reply) return reply;
	const location = reply.headers?.Location?.replace('ELSEWHERE', elsewhere.url);
	return {
		...reply,
		...(location === undefined ? {} : { headers: { ...reply.headers, Location: location } }),
		...(reply.body === undefined && reply.raw === undefined ? { body: success } : {}),
	};
}

/** Which request of a run fails: as the API receives it, and as the transport sends it (by its turn). */
interface Failing {
	request: (request: ReceivedRequest) => boolean;
	call: (index: number, path: string) => boolean;
}

/**
 * Scripts the API for one ending: the failing request and any request redirected within the API
 * answer `reply`; the first request answers `before` when given; the others succeed. A thrown fault
 * is thrown around the failing request's exchange, before or after it.
 */
function script(ending: Ending, failing: Failing, type: string) {
	api.reset((request, index) => {
		const success = replyOf({ status: 200 }, record(index + 1, type));
		if (failing.request(request) || request.path === REDIRECTED)
			return ending.reply ? replyOf(ending.reply, record(index + 1, type)) : success;
		return index === 0 && ending.before ? replyOf(ending.before, record(1, type)) : success;
	});
	if (!ending.thrown) return;
	const { when, error } = ending.thrown;
	let calls = 0;
	redirectsMock.mockImplementation(async (target, origin, method, send, refuse) => {
		if (!failing.call(calls++, new URL(target.url).pathname))
			return await actualRedirects(target, origin, method, send, refuse);
		if (when === 'after sending') await send();
		throw error();
	});
}

/** Runs the node for an ending: against a closed port, where every connection fails, when it says so. */
async function run(ending: Ending, options: Omit<RunOptions, 'node' | 'credentials'>) {
	const { closed } = ending;
	const go = () =>
		runNode({
			node,
			credentials: closed
				? { ...credentials, sandboxBaseUrl: `http://127.0.0.1:${closedPort}/v3` }
				: credentials,
			...options,
		});
	return typeof closed === 'object' ? await connectionsFailing(closed, go) : await go();
}

/** The Timeout option of a run: the ending's for the items `failing` (an expression) holds, else the default. */
const timeoutOf = (ending: Ending, failing: string): IDataObject =>
	ending.timeout === undefined
		? {}
		: { timeoutSeconds: `={{ ${failing} ? ${ending.timeout} : 60 }}` };

/** Three transfers; item 1 is the failing one. */
function transfers(ending: Ending, onError?: INode['onError']): Promise<RunResult> {
	const second = (request: ReceivedRequest) => (request.body as IDataObject)?.quantity === 2;
	script(ending, { request: second, call: (index) => index === 1 }, 'stock-transactions-batch');
	return run(ending, {
		onError,
		items: [1, ending.quantity ?? 2, 3].map((quantity) => ({ material: 7, quantity })),
		parameters: {
			...TRANSFER_FROM_ROW,
			requestOptions: {
				maxAttempts: 1,
				...ending.options,
				...timeoutOf(ending, '$json.quantity === 2'),
			},
		},
	});
}

/** The request to a path `fails` matches is the failing one. */
const byPath = (fails: (path: string) => boolean): Failing => ({
	request: ({ path }) => fails(path),
	call: (_index, path) => fails(path),
});

/** Three locations renamed in one PATCH, the failing request. */
function updateMany(ending: Ending, onError?: INode['onError']): Promise<RunResult> {
	script(
		ending,
		byPath((path) => path === '/v3/locations'),
		'location',
	);
	return run(ending, {
		onError,
		items: [11, 12, 13].map((id) => ({ id, name: `Site ${id}` })),
		parameters: {
			resource: 'location',
			operation: 'updateMany',
			id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
			updateFields: { name: '={{ $json.name }}' },
			requestOptions: { maxAttempts: 1, ...ending.options, ...timeoutOf(ending, 'true') },
		},
	});
}

/** Three reads of a location; item 1 (location 4) is the failing one. */
function reads(ending: Ending): Promise<RunResult> {
	script(
		ending,
		byPath((path) => path.endsWith('/locations/4')),
		'location',
	);
	return run(ending, {
		continueOnFail: true,
		items: [3, 4, 5].map((id) => ({ id })),
		parameters: {
			resource: 'location',
			operation: 'get',
			id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
			requestOptions: { maxAttempts: 1, ...ending.options, ...timeoutOf(ending, '$json.id === 4') },
		},
	});
}

/** Advice to send a row again, or to run the node again from it, without checking it first. */
const RESEND =
	/\b(run|send) (it|them|the items?) again\b|\brun again from item 1\b|\btry again\b|\bsend again\b/i;
const CHECK = /check whether (it|they) (exists?|is|are) there|check whether it exists/;

/** What a stop says, in its message and description, checked against the row's outcome. */
function expectAdvice(error: RunResult['error'], outcome: Outcome, firstFailed: number): void {
	const text = `${error?.message}\n${error?.description}`;
	if (outcome === 'unknown') {
		expect(text).not.toMatch(RESEND);
		expect(error?.message).toMatch(CHECK);
	} else {
		expect(text).not.toMatch(/may have been (written|applied)/);
		if (firstFailed > 0) expect(error?.message).toMatch(`Run again from item ${firstFailed}.`);
	}
}

/** Every request of a run with a closed port fails: the per-item tables leave it to the others. */
const perItem = endings.filter((ending) => !ending.closed);
const perItemFailing = perItem.filter((ending) => ending.write !== 'written');
const readEndings = endings.filter((ending) => ending.read !== undefined);

describe('Stock Transaction → Transfer, one POST an item, item 1 failing', () => {
	it.each(perItem.map((ending) => [ending.label, ending] as const))(
		'%s, "Stop Workflow"',
		async (_label, ending) => {
			const { error, output } = await transfers(ending);
			if (ending.write === 'written') {
				expect(error).toBeUndefined();
				expect(output).toHaveLength(3);
				return;
			}
			expect(error?.context?.outcome).toBe(ending.write);
			expect(error?.context?.itemsDone).toBe(1);
			expectAdvice(error, ending.write, 1);
			if (ending.write === 'unknown') {
				expect(error?.context?.itemsUnknown).toEqual([1]);
				expect(error?.message).toMatch(
					/Run again from item 2, and send item 1 again only if it is not there\./,
				);
			} else {
				expect(error?.context?.itemsUnknown).toEqual([]);
			}
		},
	);

	it.each(perItemFailing.map((ending) => [ending.label, ending] as const))(
		'%s, "Continue (using error output)": item 1 on Error with its outcome, the others go on',
		async (_label, ending) => {
			const { error, output, errorOutput } = await transfers(ending, 'continueErrorOutput');
			const later = ending.later ?? 'written';
			expect(error).toBeUndefined();
			expect(output.map(({ pairedItem }) => pairedItem)).toEqual(
				later === 'written' ? [{ item: 0 }, { item: 2 }] : [{ item: 0 }],
			);
			expect(errorOutput.map(({ json }) => (json.error as IDataObject).outcome)).toEqual(
				later === 'written' ? [ending.write] : [ending.write, later],
			);
			const failed = errorOutput[0].json.error as IDataObject;
			if (ending.write === 'unknown') {
				expect(`${failed.message}\n${failed.description}`).not.toMatch(RESEND);
				expect(failed.message).toMatch(CHECK);
			}
		},
	);
});

describe('Location → Update Many, three rows in one PATCH', () => {
	const grouped = endings.filter(
		(ending) => ending.write !== 'written' && !ending.before && ending.quantity === undefined,
	);

	it.each(grouped.map((ending) => [ending.label, ending] as const))(
		'%s, "Stop Workflow": every row of the request has its outcome',
		async (_label, ending) => {
			const { error } = await updateMany(ending);
			// One PATCH the API may have processed; a 429 is refused unprocessed, and tried again.
			const refusedUnprocessed =
				typeof ending.reply === 'object' && 'status' in ending.reply && ending.reply.status === 429;
			expect(
				api.requests.filter(({ path }) => path === '/v3/locations').length,
			).toBeLessThanOrEqual(refusedUnprocessed ? Number(ending.options?.maxAttempts ?? 1) : 1);
			expect(error?.context?.outcome).toBe(ending.write);
			expectAdvice(error, ending.write, 0);
			if (ending.write === 'unknown') {
				expect(error?.context?.itemsUnknown).toEqual([0, 1, 2]);
				expect(error?.message).not.toMatch(/Run again/i);
			}
		},
	);

	it.each(grouped.map((ending) => [ending.label, ending] as const))(
		'%s, "Continue (using error output)": the three rows on Error, each with the outcome',
		async (_label, ending) => {
			const { error, output, errorOutput } = await updateMany(ending, 'continueErrorOutput');
			expect(error).toBeUndefined();
			expect(output).toEqual([]);
			expect(errorOutput.map(({ pairedItem }) => pairedItem)).toEqual(
				[0, 1, 2].map((item) => ({ item })),
			);
			for (const { json } of errorOutput)
				expect((json.error as IDataObject).outcome).toBe(ending.write);
		},
	);
});

describe('Location → Get, a read, item 1 failing', () => {
	it.each(readEndings.map((ending) => [ending.label, ending] as const))(
		'%s, "Continue (regular output)"',
		async (_label, ending) => {
			const { error, output } = await reads(ending);
			expect(error).toBeUndefined();
			expect(output).toHaveLength(3);
			if (ending.read === 'written') expect(output[1].json.id).toBeDefined();
			else expect(output[1].json.outcome).toBe(ending.read);
		},
	);
});

describe('the words of the endings the node did not word before', () => {
	const named = (label: string) => endings.find((ending) => ending.label === label)!;

	it('a Location that is no web address is quoted as data, and the write may have been applied', async () => {
		const { error } = await transfers(named('302 with the Location "http://[::1"'));
		expect(error?.message).toMatch(
			/^The API answered POST \/stocks\/stock-transactions\/transfer with a redirect \(302\) to a Location that is not a web address \("http:\/\/\[::1"\), which the node cannot follow\. It may have been written: check whether it exists before sending it again\. /,
		);
		expect(error?.message).not.toMatch(/Invalid URL/);
	});

	it('a redirect without a Location says so', async () => {
		const { error } = await transfers(named('303 with no Location'));
		expect(error?.message).toMatch(
			/^The API answered POST \/stocks\/stock-transactions\/transfer with a redirect \(303\) without a Location, which the node cannot follow\. It may have been written/,
		);
	});

	it('a fault of the node before sending names the request and says nothing went out', async () => {
		const { error } = await transfers(named('a TypeError before sending'));
		expect(error?.message).toMatch(
			/^The node failed before sending POST \/stocks\/stock-transactions\/transfer, so nothing went out: x is not a function\. Item 0 of 3 was written\. Item 2 was not sent\. Run again from item 1\.$/,
		);
		expect(error?.description).toMatch(/^Nothing was sent for this item\./);
	});

	it('a fault of the node after sending says the write may have been applied', async () => {
		const { error } = await transfers(named('a TypeError after sending'));
		expect(error?.message).toMatch(
			/^The node failed on the API's answer to POST \/stocks\/stock-transactions\/transfer: Invalid URL\. It may have been written: check whether it exists before sending it again\. /,
		);
	});
});
