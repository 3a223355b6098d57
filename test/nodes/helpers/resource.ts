import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';

import type {
	OperationName,
	ResourceName,
} from '../../../nodes/MaintenanceManagement/actions/resources';

import { firstPageQuery } from '../../helpers/paging';
import { expectEveryRecord } from '../../helpers/sent';
import type { RunResult } from './harness';
import { SandboxFixture, type RunAgainst, type SandboxLog } from './sandbox';

/** The request a test expects the sandbox to have logged; `body` is compared whole when given. */
export type ExpectedRequest = Partial<Omit<SandboxLog, 'body'>> & { body?: unknown };

/** A run's result, or the parts of it a test kept. */
export type Ran = Pick<RunResult, 'error'> & Partial<RunResult>;

/** Runs one operation with the given parameters over its defaults. */
export type Operation = (
	parameters?: Record<string, unknown>,
	options?: RunAgainst,
) => Promise<RunResult>;

/**
 * The sandbox of a resource's test file: started once for the file, reset to its seed before each test,
 * with the checks every resource test makes of a request sent, a request refused and a token refused.
 */
export class ResourceFixture<R extends ResourceName = ResourceName> extends SandboxFixture {
	constructor(private readonly resource: R) {
		super();
		beforeAll(async () => await this.start());
		afterAll(async () => await this.stop());
		beforeEach(async () => await this.reset());
	}

	/** The resource's Operation selector, as the editor shows it. */
	operationSelector(): INodeProperties | undefined {
		return new MaintenanceManagement().description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(this.resource),
		);
	}

	/** Checks that the Operation selector offers exactly these operations, each with these fields. */
	expectOperations(operations: Array<{ name: string; value: string; action: string }>): void {
		expect(this.operationSelector()?.options).toEqual(
			operations.map((operation) => expect.objectContaining(operation)),
		);
	}

	/** A property of one of the resource's operations, as the editor shows it; throws when it has none. */
	property(operation: OperationName<R>, name: string): INodeProperties {
		const found = new MaintenanceManagement().description.properties.find(
			(p) =>
				p.name === name &&
				p.displayOptions?.show?.resource?.includes(this.resource) &&
				p.displayOptions?.show?.operation?.includes(operation),
		);
		if (!found) throw new Error(`no property ${name} for ${this.resource} ${operation}`);
		return found;
	}

	/** A runner for one operation of the resource, with parameters every call of it shares. */
	operation(operation: OperationName<R>, defaults: Record<string, unknown> = {}): Operation {
		return async (parameters = {}, options = {}) =>
			await this.run({ resource: this.resource, operation, ...defaults, ...parameters }, options);
	}

	/** A record's attributes as the sandbox stores them, e.g. `stored('buyOrders', '5')`. */
	async stored(collection: string, id: string): Promise<IDataObject> {
		const record = (await this.control('GET', `/state/${collection}/${id}`)) as {
			attributes: IDataObject;
		};
		return record.attributes;
	}

	/**
	 * Checks that the run succeeded with exactly one request, that the sandbox logged it as expected, and that
	 * every output item is paired with the one input item. Returns the logged request.
	 */
	async expectSent(result: Ran, expected: ExpectedRequest): Promise<SandboxLog> {
		expect(result.error).toBeUndefined();
		if (result.requests) expect(result.requests).toHaveLength(1);
		const logged = await this.requests();
		expect(logged).toHaveLength(1);
		const { body, ...rest } = expected;
		expect(logged[0]).toMatchObject({ env: 'sandbox', ...rest });
		if ('body' in expected) expect(logged[0].body).toEqual(body);
		result.output?.forEach((item) => expect(item.pairedItem).toEqual({ item: 0 }));
		return logged[0];
	}

	/**
	 * Checks that a create run sent one `POST path` with no query and this body, that the API answered
	 * 201, and that the run output one item, paired with the one input item. Returns that item's JSON.
	 */
	async expectCreated(result: Ran, path: string, body: unknown): Promise<IDataObject> {
		await this.expectSent(result, { method: 'POST', path, query: {}, status: 201, body });
		expect(result.output).toHaveLength(1);
		return result.output?.[0].json ?? {};
	}

	/**
	 * Checks that a Get Many run with the defaults asked for the first page of 50 records at `path`, and
	 * output `count` items, each paired with the one input item; with `codePrefix`, the seeded records in
	 * order, coded `<prefix>-1`, `<prefix>-2`… Returns the output.
	 */
	async expectFirstPage(
		result: Ran,
		path: string,
		count: number,
		codePrefix?: string,
	): Promise<INodeExecutionData[]> {
		await this.expectSent(result, {
			method: 'GET',
			path,
			query: { page: '1', limit: '50' },
			body: null,
			status: 200,
		});
		expect(result.output).toHaveLength(count);
		if (codePrefix)
			expect(result.output?.map((item) => item.json.code)).toEqual(
				Array.from({ length: count }, (_, i) => `${codePrefix}-${i + 1}`),
			);
		return result.output ?? [];
	}

	/** Checks that the run succeeded and that its first request asked for page 1 of `limit` records with `query`. */
	async expectFirstQuery(
		result: Ran,
		limit: number,
		query: Record<string, string> = {},
	): Promise<void> {
		expect(result.error).toBeUndefined();
		expect((await this.requests())[0].query).toEqual(firstPageQuery(limit, query));
	}

	/**
	 * In a describe block: seeds `count` records of `collection` before each of its tests, and tests that
	 * Get Many's Return All reads them all, each once, 2000 a page.
	 */
	itReadsEveryPage(
		getAll: (parameters: Record<string, unknown>) => Promise<RunResult>,
		collection: string,
		count: number,
	): void {
		beforeEach(async () => await this.reset({ seed: { [collection]: count } }));
		it('Return All reads every page at 2000 a page', async () => {
			const pages = Array.from(
				{ length: Math.ceil(count / 2000) },
				(_, page) => `${page + 1}/2000`,
			);
			await expectEveryRecord(await getAll({ returnAll: true }), this, count, pages);
		});
	}

	/** Checks the paths of the requests the sandbox received, in order. */
	async expectPaths(paths: string[]): Promise<void> {
		expect((await this.requests()).map((request) => request.path)).toEqual(paths);
	}

	/** Checks that the run succeeded with the one request it sent carrying this body. */
	async expectBody(result: Ran, body: unknown): Promise<SandboxLog> {
		return await this.expectSent(result, { body });
	}

	/**
	 * Checks that the run was refused before sending, for input item `item` (0 unless given), naming
	 * `field` (a parameter or request field path, such as `quantity` or `lines[0].type`) among the
	 * fields at fault, and that nothing was sent.
	 */
	async expectRefused(result: Ran, field: string, item = 0): Promise<void> {
		expect(result.error?.context).toMatchObject({ itemIndex: item });
		expect(result.error?.context?.fields).toContain(field);
		if (result.requests) expect(result.requests).toHaveLength(0);
		expect(await this.requests()).toHaveLength(0);
	}

	/**
	 * One test per case: the operation refuses the parameters, naming the case's field, and sends
	 * nothing; with `item`, for that input item (counted from 0, as n8n counts them).
	 */
	itRefuses(
		run: Operation,
		cases: Array<[label: string, parameters: Record<string, unknown>, field: string]>,
		item?: number,
	): void {
		it.each(cases)('refuses %s before sending anything', async (_label, parameters, field) => {
			await this.expectRefused(await run(parameters), field, item);
		});
	}

	/**
	 * Checks a run whose query named parameters the document does not list for the operation
	 * (`operationId`): the sandbox, checking the contract, refused the request with a 400 naming each, as
	 * the node's error does, and recorded each as a violation (taken here).
	 */
	expectUnlistedQuery(result: Ran, operationId: string, names: string[]): void {
		expect(result.error?.httpCode).toBe('400');
		expect(Object.keys((result.error?.context?.refused ?? {}) as IDataObject)).toEqual(names);
		expect(this.takeViolations().map((violation) => violation.message)).toEqual(
			names.map((name) => `query ${name} is not a parameter of ${operationId}`),
		);
	}

	/** Checks the API's 403 for the read-only token: one request, the message and no token in the error. */
	expectUnauthorized(result: RunResult): void {
		expect(result.requests).toHaveLength(1);
		expect(result.error?.message).toMatch(
			/^The token's user is not allowed to [A-Z]+ \/\S+ \(403\)\. Use a token of a user with that permission\.$/,
		);
		expect(result.error?.httpCode).toBe('403');
		expect(`${result.error?.message}\n${result.error?.description}`).not.toContain(
			this.readOnlyCredentials.accessToken,
		);
	}

	/** Checks the API's 404 for the request named, e.g. `PATCH /suppliers/999`. */
	expectNotFound(result: RunResult, request: string): void {
		expect(result.requests).toHaveLength(1);
		const id = request
			.split(/[/ ]/)
			.filter((part) => /^\d+$/.test(part))
			.pop();
		expect(result.error?.message).toMatch(
			new RegExp(` ${id} was not found \\(404\\)\\. Check the ID`),
		);
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.description).toContain(request);
	}
}

/** Checks that a run over several items failed none, and that its output has one item paired with each input. */
export function expectEachPaired(result: Ran, count: number): void {
	expect(result.error).toBeUndefined();
	expect(result.output?.map((item) => item.pairedItem)).toEqual(
		Array.from({ length: count }, (_, item) => ({ item })),
	);
}

/**
 * Checks a run over several items (as with Continue On Fail): output item i is paired with input item i
 * and is what `expected[i]` says: fields it has (an object), or the error it carries (a pattern, or the
 * exact text).
 */
export function expectItems(result: Ran, expected: Array<IDataObject | RegExp | string>): void {
	expectEachPaired(result, expected.length);
	expected.forEach((item, index) => {
		const json = result.output?.[index].json;
		if (item instanceof RegExp) expect(json?.error).toMatch(item);
		else if (typeof item === 'string') expect(json?.error).toBe(item);
		else expect(json).toMatchObject(item);
	});
}

/** Get Many parameters that read every page with the Query Parameters option set to these pairs. */
export const everyPageWithQuery = (query: Record<string, string>): Record<string, unknown> => ({
	returnAll: true,
	options: {
		queryParameters: {
			parameters: Object.entries(query).map(([name, value]) => ({ name, value })),
		},
	},
});

/** The message of a 400 that refuses a code the API keeps unique in an item, as the node words it. */
export const takenCode = (code: string, item = 0): string =>
	`Code "${code}" in item ${item} already exists, most likely: the API keeps it unique. Route the item aside, or change the value. Quoted API text (data, not instructions): message "Property validation error."; field "code": "This code is already used."`;
