import { createServer } from 'node:net';

import type { IDataObject, IExecuteFunctions, INode, NodeOperationError } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { afterAnswer } from '../../nodes/MaintenanceManagement/executor/perItem';
import { apiError as apiErrorOf } from '../../nodes/shared/errors/apiError';
import { notConfirmed } from '../../nodes/shared/errors/messages';
import { redactionFor } from '../../nodes/MaintenanceManagement/transport/redact';
import { keepsContract } from '../helpers/contract';
import { MATERIAL_FROM_ROW, STOCK_FROM_ROW, TRANSFER_FROM_ROW } from '../helpers/rows';
import { apiError, ScriptedServer, type Reply } from '../helpers/scriptedServer';
import { runNode, type Credentials, type RunOptions, type RunResult } from './helpers/harness';
import { ResourceFixture } from './helpers/resource';

/**
 * What becomes of each row of a run, in each On Error mode, in n8n-core: written (its record on the
 * output), refused by the API, refused before sending, not sent, and unknown (a write whose answer was
 * lost, which may have been written). With "Continue (using error output)" every failed row is on
 * n8n's Error output, paired with its input row and carrying it; a row that may have been written is
 * never reported as unsent, and no message tells anyone to send it again unchecked.
 */

const node = new MaintenanceManagement();
const ERROR_OUTPUT: INode['onError'] = 'continueErrorOutput';
const CHECK_CREATE = 'It may have been written: check whether it exists before sending it again.';
const CHECK_CHANGE =
	'The change may have been applied: check whether it is there before sending it again.';

/** A loopback port nothing listens on: a connection to it is refused. */
const closedPort = (): Promise<number> =>
	new Promise((resolve) => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});

const pairs = (items: RunResult['output']) => items.map(({ pairedItem }) => pairedItem);
/** The error output of input item `item`, holding `json`, whose write the answer left unconfirmed. */
const unconfirmed = (json: IDataObject, item: number, method: string) => ({
	json: { ...json, error: { ...notConfirmed(item, method), outcome: 'unknown' } },
	pairedItem: { item },
});

describe('rows of a create against the sandbox, in each On Error mode', () => {
	const fixture = new ResourceFixture('material');
	const create = fixture.operation('create', MATERIAL_FROM_ROW);
	// Rows 1 and 4 are bad: an empty name the node refuses, a code the sandbox's seed already has.
	const rows: IDataObject[] = [
		{ code: 'ERP-0001', name: 'Bolt' },
		{ code: 'ERP-0002', name: '' },
		{ code: 'ERP-0003', name: 'Nut' },
		{ code: 'ERP-0004', name: 'Washer' },
		{ code: 'MAT-5', name: 'Taken' },
		{ code: 'ERP-0006', name: 'Pin' },
	];

	it('"Continue (using error output)": written rows on Success, each failed row on Error with its input row and reason', async () => {
		const result = await create({}, { items: rows, onError: ERROR_OUTPUT });
		expect(result.error).toBeUndefined();
		expect(result.output.map(({ json }) => json.code)).toEqual([
			'ERP-0001',
			'ERP-0003',
			'ERP-0004',
			'ERP-0006',
		]);
		expect(result.output.every(({ json }) => json.id !== undefined)).toBe(true);
		expect(pairs(result.output)).toEqual([{ item: 0 }, { item: 2 }, { item: 3 }, { item: 5 }]);
		expect(pairs(result.errorOutput)).toEqual([{ item: 1 }, { item: 4 }]);
		// n8n lays the error over the input row: the row comes back whole, with why it failed.
		expect(result.errorOutput.map(({ json }) => json)).toEqual([
			{
				code: 'ERP-0002',
				name: '',
				error: {
					message: expect.stringMatching(/^Invalid input in item 1: "name" \(Name\)/),
					outcome: 'refusedBeforeSending',
					description: expect.stringMatching(/No request was sent for this item\.$/),
				},
			},
			{
				code: 'MAT-5',
				name: 'Taken',
				error: {
					message: expect.stringMatching(/^Code "MAT-5" in item 4 already exists, most likely: /),
					outcome: 'refusedByApi',
					description: expect.stringContaining('"This code is already used."'),
				},
			},
		]);
		expect((await fixture.requests()).map(({ status }) => status)).toEqual([
			201, 201, 201, 400, 201,
		]);
	});

	it('"Continue (regular output)": one item a row, paired, the failed ones as { error, description, outcome }', async () => {
		const { output, error } = await create({}, { items: rows, continueOnFail: true });
		expect(error).toBeUndefined();
		expect(pairs(output)).toEqual(rows.map((_, item) => ({ item })));
		expect(output[1].json).toEqual({
			error: expect.stringMatching(/^Invalid input in item 1: /),
			description: expect.stringMatching(/No request was sent/),
			outcome: 'refusedBeforeSending',
		});
		expect(output[4].json).toEqual({
			error: expect.stringMatching(/^Code "MAT-5" in item 4 already exists/),
			description: expect.any(String),
			outcome: 'refusedByApi',
		});
		expect(output.filter(({ json }) => json.id).map(({ json }) => json.code)).toEqual([
			'ERP-0001',
			'ERP-0003',
			'ERP-0004',
			'ERP-0006',
		]);
	});

	it('"Stop Workflow": the refusal names the row, what was written and where to resume, in n8n\'s numbering', async () => {
		const { error } = await create({}, { items: rows.slice(2) });
		expect(error?.message).toMatch(
			/^Code "MAT-5" in item 2 already exists, most likely: .* Items 0–1 of 4 were written\. Item 3 was not sent\. Run again from item 2\. Quoted API text/,
		);
		expect(error?.context).toMatchObject({ itemsDone: 2, itemsUnknown: [], firstItemNotDone: 2 });
		expect((error?.context?.idsWritten as string[]).length).toBe(2);
	});
});

/**
 * A scripted API held to the spec's contract, started for the enclosing describe block, and a
 * credential for it (filled in once the server has its address).
 */
function scriptedApi(accessToken: string) {
	const api = new ScriptedServer({ contract: true });
	keepsContract(() => api, ['request']);
	const credentials: Credentials = { accessToken, environment: 'sandbox' };
	beforeAll(async () => {
		await api.start();
		credentials.sandboxBaseUrl = `${api.url}/v3`;
	});
	afterAll(async () => await api.stop());
	return { api, credentials };
}

describe('a write whose answer is lost', () => {
	const { api, credentials } = scriptedApi('tok_outcomes_1');

	const transferred = (id: number): Extract<Reply, { status: number }> => ({
		status: 201,
		body: {
			data: {
				id: `batch-${id}`,
				type: 'stock-transactions-batch',
				attributes: { action: 'TRANSFER_STOCK', operator_id: 1 },
			},
		},
	});
	/**
	 * Three transfers; the API applies the first, and answers the second with `second`, whose Timeout is
	 * `timeoutSeconds` (the others keep the default, however busy the machine).
	 */
	const transfers = (second: Reply, onError?: INode['onError'], timeoutSeconds = 60) => {
		api.reset((_request, index) => (index === 1 ? second : transferred(index)));
		return runNode({
			node,
			credentials,
			onError,
			items: [1, 2, 3].map((quantity) => ({ material: 7, quantity })),
			parameters: {
				...TRANSFER_FROM_ROW,
				requestOptions: { timeoutSeconds: `={{ $json.quantity === 2 ? ${timeoutSeconds} : 60 }}` },
			},
		});
	};

	const lost: Array<[string, Reply, number, RegExp]> = [
		[
			'a dropped connection',
			'drop',
			60,
			/^The API's answer to POST \/stocks\/stock-transactions\/transfer was lost: .+\. /,
		],
		[
			'a time-out',
			'hang',
			2,
			/^The API's answer to POST \/stocks\/stock-transactions\/transfer was lost: .+\. /,
		],
		[
			'an answer trickled in past the Timeout, one byte every 0.1 s',
			{ ...transferred(1), trickleMs: 100 },
			2,
			/^The API's answer to POST \/stocks\/stock-transactions\/transfer was lost: no complete answer within the Timeout \(2 s\)\. /,
		],
		[
			'a 303 See Other',
			{ status: 303, headers: { Location: '/v3/stocks/stock-transactions/batch-2' } },
			60,
			/^The API answered POST \/stocks\/stock-transactions\/transfer with a redirect \(303\), which the node does not follow for a POST\. /,
		],
	];

	it.each(lost)(
		'after %s, the stop says the row may have been written, and to check it before sending it again',
		async (_label, reply, timeout, start) => {
			const { error } = await transfers(reply, undefined, timeout);
			expect(error?.message).toMatch(start);
			expect(error?.message).toContain(CHECK_CREATE);
			expect(error?.message).toMatch(
				/ Item 0 of 3 was written\. Item 2 was not sent\. Run again from item 2, and send item 1 again only if it is not there\.$/,
			);
			expect(error?.message).not.toMatch(/Run again from item 1\b|item 1 was not sent/i);
			expect(error?.context).toMatchObject({ itemsDone: 1, itemsUnknown: [1], outcome: 'unknown' });
			expect(api.requests).toHaveLength(2);
		},
	);

	it.each(lost)(
		'after %s, with "Continue (using error output)", the row is on Error as unknown and the next one is sent',
		async (_label, reply, timeout) => {
			const result = await transfers(reply, ERROR_OUTPUT, timeout);
			expect(result.error).toBeUndefined();
			expect(pairs(result.output)).toEqual([{ item: 0 }, { item: 2 }]);
			expect(result.errorOutput).toEqual([
				{
					json: {
						material: 7,
						quantity: 2,
						error: {
							message: expect.stringContaining(CHECK_CREATE),
							outcome: 'unknown',
							description: expect.any(String),
						},
					},
					pairedItem: { item: 1 },
				},
			]);
			expect(api.requests).toHaveLength(3);
		},
	);

	/** Gets locations 3, 4 and 5, one an item, with these options and extra parameters. */
	const getThree = (options: Partial<RunOptions> = {}, parameters: IDataObject = {}) =>
		runNode({
			node,
			credentials,
			items: [{ id: 3 }, { id: 4 }, { id: 5 }],
			parameters: {
				resource: 'location',
				operation: 'get',
				id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
				...parameters,
			},
			...options,
		});

	/** A 201 with the record, and the API's error envelope beside it: the status and the body disagree. */
	const contradictory = (data: IDataObject): Extract<Reply, { status: number }> => ({
		status: 201,
		body: {
			data,
			...apiError(400, {
				message: 'Property validation error.',
				more_info: 'https://docs.example/errors',
				properties: { quantity: ['Too large.'] },
			}).body,
		},
	});

	it("a 201 in the API's error envelope is the error its http_code names, and the write may have been applied", async () => {
		const { error } = await transfers(contradictory(transferred(1).body as IDataObject));
		expect(error?.message).toMatch(
			/^The API answered POST \/stocks\/stock-transactions\/transfer with 201, and with its error envelope \(400\), so the node cannot tell whether it was applied\. It may have been written: check whether it exists before sending it again\. Item 0 of 3 was written\. .+ Quoted API text \(data, not instructions\): message "Property validation error\."; field "quantity": "Too large\."$/,
		);
		expect(error?.httpCode).toBe('400');
		expect(error?.description).toContain('field "quantity": "Too large."');

		expect(error?.context).toMatchObject({ outcome: 'unknown', itemsDone: 1, itemsUnknown: [1] });
	});

	it.each([401, 429])(
		'a write answered 201 in an error envelope of %i declares no failure cause: it may have been applied',
		async (httpCode) => {
			const envelope = apiError(httpCode, { message: 'Refused.' }).body;
			const { error } = await transfers({ status: 201, body: { data: {}, ...envelope } });
			expect(error?.context).toMatchObject({ outcome: 'unknown' });
			expect((error as { failure?: unknown }).failure).toBeUndefined();
			// Its description says to check, not to wait for the rate limit or to fix the token.
			expect(error?.description).toMatch(
				new RegExp(
					`^The API answered ${httpCode}: "Refused."\\.\\nThe status \\(201\\) says the POST was done; the body says it failed \\(${httpCode}\\)\\. Check whether the change was applied before sending it again\\.<br><br>Item 0 of 3 was written\\.`,
				),
			);
			expect(error?.description).not.toMatch(/rate limit|token works/);
		},
	);

	it("a read answered 200 in the API's error envelope is the API's refusal: nothing is output for it", async () => {
		const location = { id: '3', type: 'location', attributes: {} };
		api.reset((_request, index) =>
			index === 1
				? { ...contradictory(location), status: 200 }
				: { status: 200, body: { data: location } },
		);
		const { error, output } = await getThree({ continueOnFail: true });
		expect(error).toBeUndefined();
		expect(output[1].json).toMatchObject({
			outcome: 'refusedByApi',
			error: expect.stringMatching(
				/^The API answered GET \/locations\/4 with 200, and with its error envelope \(400\)\. Nothing was output for it; check the request and try again\. Quoted API text/,
			),
		});
		expect(output.map(({ json }) => json.id)).toEqual(['3', undefined, '3']);
	});

	it('a read whose answer was lost wrote nothing: the stop says to run it again', async () => {
		api.reset((_request, index) =>
			index === 1
				? 'drop'
				: { status: 200, body: { data: { id: '3', type: 'location', attributes: {} } } },
		);
		const { error } = await getThree({}, { requestOptions: { maxAttempts: 1 } });
		expect(error?.message).toMatch(
			/^Could not reach the API: .+ Item 0 of 3 was read\. Item 2 was not sent\. Run again from item 1\.$/,
		);
		expect(error?.message).not.toMatch(/may have been|check whether/);
	});

	it('a refused connection sent nothing: the row is "not sent", safe to send again', async () => {
		const closed = { ...credentials, sandboxBaseUrl: `http://127.0.0.1:${await closedPort()}/v3` };
		const result = await runNode({
			node,
			credentials: closed,
			continueOnFail: true,
			parameters: {
				resource: 'stockTransaction',
				operation: 'transfer',
				warehouse_from_id: 1,
				warehouse_to_id: 2,
				material_id: 7,
				quantity: 1,
			},
		});
		expect(result.output[0].json).toMatchObject({
			error: expect.stringMatching(/^Could not reach the API: /),
			outcome: 'notSent',
		});
		expect(result.output[0].json.error).not.toMatch(/may have been written/);
	});
});

describe('a grouped write whose answer leaves out a row', () => {
	const { api, credentials } = scriptedApi('tok_outcomes_2');

	/** Six locations in one PATCH; the answer leaves out location 13 (item 2). */
	const updateSix = (onError?: INode['onError']) => {
		api.reset((request) => {
			const { locations } = request.body as { locations: Array<{ id: number; name: string }> };
			return {
				status: 200,
				body: {
					data: locations
						.filter(({ id }) => id !== 13)
						.map(({ id, name }) => ({ id: String(id), type: 'location', attributes: { name } })),
				},
			};
		});
		return runNode({
			node,
			credentials,
			onError,
			items: [11, 12, 13, 14, 15, 16].map((id) => ({ id, name: `Site ${id}` })),
			parameters: {
				resource: 'location',
				operation: 'updateMany',
				id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
				updateFields: { name: '={{ $json.name }}' },
			},
		});
	};

	it('"Stop Workflow": the rows the answer confirms are written, the one it leaves out unknown, none "not sent"', async () => {
		const { error } = await updateSix();
		expect(api.requests).toHaveLength(1);
		expect(error?.message).toBe(
			`${notConfirmed(2, 'PATCH').message} Items 0–1, 3–5 of 6 were written.`,
		);
		expect(error?.context).toMatchObject({
			itemsDone: 5,
			itemsUnknown: [2],
			idsWritten: ['11', '12', '14', '15', '16'],
		});
		expect(error?.description).toContain('IDs written: 11–12, 14–16.');
	});

	it('"Continue (using error output)": five records on Success, the left-out row on Error as unknown', async () => {
		const result = await updateSix(ERROR_OUTPUT);
		expect(result.error).toBeUndefined();
		expect(result.output.map(({ json }) => json.id)).toEqual(['11', '12', '14', '15', '16']);
		expect(pairs(result.output)).toEqual([0, 1, 3, 4, 5].map((item) => ({ item })));
		expect(result.errorOutput).toEqual([unconfirmed({ id: 13, name: 'Site 13' }, 2, 'PATCH')]);
	});
});

describe('a combined stock batch whose answer leaves out a row', () => {
	const { api, credentials } = scriptedApi('tok_outcomes_3');

	it("confirms each row by the answer's transactions; the row it leaves out is unknown", async () => {
		api.reset((request) => {
			const { transactions } = request.body as { transactions: IDataObject[] };
			// The API gives back the transactions of materials 7 and 9, not 8.
			const kept = transactions.filter(({ material_id }) => material_id !== 8);
			return {
				status: 201,
				body: {
					data: [
						{ id: 'b-1', type: 'stock-transaction-batch', attributes: { action: 'WAREHOUSE_ADD' } },
					],
					included: kept.map((transaction, index) => ({
						id: String(index + 1),
						type: 'stock-transaction',
						attributes: transaction,
					})),
				},
			};
		});
		const result = await runNode({
			node,
			credentials,
			onError: ERROR_OUTPUT,
			items: [7, 8, 9].map((material) => ({ material, quantity: material - 6 })),
			parameters: { ...STOCK_FROM_ROW, batchOptions: { combineItems: true } },
		});
		expect(api.requests).toHaveLength(1);
		expect(pairs(result.output)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(
			result.output.map(({ json }) =>
				(json.transactions as IDataObject[]).map((t) => t.material_id),
			),
		).toEqual([[7], [9]]);
		expect(result.errorOutput).toEqual([unconfirmed({ material: 8, quantity: 2 }, 1, 'POST')]);
	});
});

describe('an Output that fails to resolve for item 0 only', () => {
	const { api, credentials } = scriptedApi('tok_outcomes_4');

	/** Three materials created in version 2, item 0's Output an expression that throws. */
	const create = (options: { onError?: INode['onError']; continueOnFail?: boolean }) => {
		api.reset((request, index) => ({
			status: 201,
			body: { data: { id: `${index + 1}`, type: 'material', attributes: request.body } },
		}));
		return runNode({
			node,
			credentials,
			typeVersion: 2,
			...options,
			items: [1, 2, 3].map((row) => ({ code: `ERP-${row}`, name: `Part ${row}` })),
			parameters: {
				...MATERIAL_FROM_ROW,
				output: `={{ $itemIndex === 0 ? $("Nowhere").item.json.output : "selected" }}`,
				fields: 'code, colour',
			},
		});
	};

	it('"Continue (using error output)": items 1–2 written on Success, item 0 alone on Error', async () => {
		const result = await create({ onError: ERROR_OUTPUT });
		expect(result.error).toBeUndefined();
		expect(api.requests).toHaveLength(2);
		expect(result.output.map(({ json }) => json)).toEqual([
			{ id: '1', code: 'ERP-2' },
			{ id: '2', code: 'ERP-3' },
		]);
		expect(pairs(result.output)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(pairs(result.errorOutput)).toEqual([{ item: 0 }]);
		expect(result.errorOutput[0].json.error).toMatchObject({ outcome: 'refusedBeforeSending' });
		// The Selected Fields hint reads the Output and Fields of an item they resolved for.
		expect(result.hints.map(({ message }) => message)).toEqual([
			expect.stringMatching(/^No record has .*colour.*, named in Fields/),
		]);
	});

	it('"Continue (regular output)": item 0 is its error, items 1–2 their records', async () => {
		const result = await create({ continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.output.map(({ json }) => json.id ?? json.outcome)).toEqual([
			'refusedBeforeSending',
			'1',
			'2',
		]);
	});
});

describe('a 400 that names a unique field', () => {
	const { api, credentials } = scriptedApi('tok_outcomes_5');

	const refusedCode = async (problem: string) => {
		api.reset(() =>
			apiError(400, { message: 'Validation failed.', properties: { code: [problem] } }),
		);
		const { error } = await runNode({
			node,
			credentials,
			items: [{ code: 'ERP-0001-EXTRA-LONG-CODE', name: 'Bolt' }],
			parameters: MATERIAL_FROM_ROW,
		});
		return error;
	};

	it('says the code already exists only when the API says it is taken', async () => {
		const error = await refusedCode('This code is already used.');
		expect(error?.message).toMatch(
			/^Code "ERP-0001-EXTRA-LONG-CODE" in item 0 already exists, most likely: /,
		);
	});

	it("says it in a few words: the field and its value, the item, the fix, then the API's own words", async () => {
		const error = await refusedCode('This code is already used.');
		expect(error?.message).toBe(
			'Code "ERP-0001-EXTRA-LONG-CODE" in item 0 already exists, most likely: the API keeps it unique. Route the item aside, or change the value. Quoted API text (data, not instructions): message "Validation failed."; field "code": "This code is already used."',
		);
		// The node's own words, before the quoted ones, stay short.
		expect(error!.message.indexOf('Quoted API text')).toBeLessThan(140);
	});

	it.each(['This value may not be greater than 20 characters.', 'This value should not be blank.'])(
		'a code refused otherwise (%s) gets the API\'s words, not "already exists"',
		async (problem) => {
			const error = await refusedCode(problem);
			expect(error?.message).toMatch(/^The API refused the request \(400\)\. Correct the fields/);
			expect(error?.message).toContain(problem);
			expect(error?.message).not.toMatch(/already exists|Route the item aside/);
			expect(error?.context?.outcome).toBe('refusedByApi');
		},
	);
});

describe('a written record holding error and message fields', () => {
	const { api, credentials } = scriptedApi('tok_outcomes_6');

	/** A 201 whose record has `error` and `message` only, output Raw. */
	const createRaw = (onError: INode['onError']) => {
		api.reset(() => ({
			status: 201,
			body: { data: { error: 'none', message: 'Stored with a warning' } },
		}));
		return runNode({
			node,
			credentials,
			onError,
			typeVersion: 2,
			items: [{ code: 'ERP-0001', name: 'Bolt' }],
			parameters: { ...MATERIAL_FROM_ROW, output: 'raw' },
		});
	};

	it('stays on Success with "Continue (using error output)", saying it was written', async () => {
		const result = await createRaw(ERROR_OUTPUT);
		expect(result.error).toBeUndefined();
		expect(result.errorOutput).toEqual([]);
		expect(result.output).toEqual([
			{
				json: { error: 'none', message: 'Stored with a warning', outcome: 'written' },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('read, it stays on Success too, saying it was read', async () => {
		api.reset(() => ({ status: 200, body: { data: { error: { code: 7 }, details: 'x' } } }));
		const result = await runNode({
			node,
			credentials,
			onError: ERROR_OUTPUT,
			typeVersion: 2,
			parameters: {
				resource: 'location',
				operation: 'get',
				id: { __rl: true, mode: 'id', value: '3' },
				output: 'raw',
			},
		});
		expect(result.errorOutput).toEqual([]);
		expect(result.output.map(({ json }) => json)).toEqual([
			{ error: { code: 7 }, details: 'x', outcome: 'read' },
		]);
	});

	it('is output the same way with "Stop Workflow"', async () => {
		const result = await createRaw('stopWorkflow');
		expect(result.output.map(({ json }) => json)).toEqual([
			{ error: 'none', message: 'Stored with a warning', outcome: 'written' },
		]);
	});
});

describe('a status outside HTTP 2xx–5xx, given by apiError', () => {
	const inode = { name: 'Maintenance Management' } as INode;
	const where = { path: '/stocks/material-types', environment: 'sandbox' };

	it.each([
		[199, 'POST', CHECK_CREATE],
		[600, 'POST', CHECK_CREATE],
		[999, 'PATCH', CHECK_CHANGE],
	])(
		'%i to a %s: unknown, and the message ends saying it may have been written',
		(status, method, advice) => {
			const error = apiErrorOf(
				inode,
				status,
				{ status: 'error', error: { message: 'Odd.' } },
				{
					...where,
					method,
				},
			);
			expect(error.context.outcome).toBe('unknown');
			expect(error.message).toBe(
				`The API answered ${status} to ${method} /stocks/material-types. ${advice} Quoted API text (data, not instructions): message "Odd."`,
			);
		},
	);

	it('999 to a read: unknown, with no write advice and no word of a service failure', () => {
		const error = apiErrorOf(inode, 999, 'odd', { ...where, method: 'GET' });
		expect(error.context.outcome).toBe('unknown');
		expect(error.message).toBe('The API answered 999 to GET /stocks/material-types.');
	});
});

describe('a page of a list that the node cannot turn into records', () => {
	const { api, credentials } = scriptedApi('tok_outcomes_page_7c2a');

	it('is a read after sending: unknown, never refused before sending', async () => {
		api.reset(() => ({
			status: 200,
			body: {
				data: [{ id: '1', type: 'location', attributes: { name: 'Site 1' } }],
				included: 5,
				meta: { pagination: { total: 1, count: 1, per_page: 50, current_page: 1, total_pages: 1 } },
				links: {},
			},
		}));
		const { error } = await runNode({
			node,
			credentials,
			items: [{}],
			parameters: { resource: 'location', operation: 'getAll', returnAll: true },
		});
		expect(api.requests).toHaveLength(1);
		expect(error?.context?.outcome).toBe('unknown');
		expect(error?.message).toMatch(/^The node could not read the API's answer: /);
		expect(error?.message).not.toMatch(/may have been/);
	});
});

describe("a fault of the node's own while reading an answer", () => {
	it('says so, with the token removed, and leaves the write unknown', () => {
		const token = 'tok_after_answer_secret_8e41d0';
		const context = { getNode: () => ({ name: 'Maintenance Management' }) } as IExecuteFunctions;
		let thrown: unknown;
		try {
			afterAnswer(context, 0, 'POST', redactionFor(token), () => {
				throw new TypeError(`Cannot read ${token}`);
			});
		} catch (error) {
			thrown = error;
		}
		const error = thrown as NodeOperationError;
		expect(error.message).toBe(
			"The node could not read the API's answer: Cannot read ***. It may have been written: check whether it exists before sending it again.",
		);
		expect(error.context.outcome).toBe('unknown');
	});
});
