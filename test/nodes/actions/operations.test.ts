import { resources } from '../../../nodes/MaintenanceManagement/actions/resources';
import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { runNode } from '../helpers/harness';
import { SandboxFixture } from '../helpers/sandbox';
import { operationCases } from '../../cases/operations';

const fixture = new SandboxFixture();

beforeAll(async () => await fixture.start());

const CASES = operationCases(
	(method, path) => fixture.control(method, path),
	async (_collection, id) => {
		const { output } = await fixture.run({
			resource: 'location',
			operation: 'get',
			id: { __rl: true, mode: 'id', value: id },
		});
		return output[0].json;
	},
);
afterAll(async () => await fixture.stop());

describe('every operation against the sandbox', () => {
	const OPERATIONS = Object.entries(resources).flatMap(([resource, { operations }]) =>
		Object.keys(operations).map((operation) => `${resource} ${operation}`),
	);

	it('has one case per operation of the registry, each a different endpoint', () => {
		// One operation per endpoint of the spec: requestContract.test.ts names an endpoint without one.
		expect(CASES.map((c) => `${c.resource} ${c.operation}`).sort()).toEqual([...OPERATIONS].sort());
		expect(
			new Set(CASES.map((c) => `${c.request.method} ${c.request.path.replace(/\/\d+/g, '/{id}')}`))
				.size,
		).toBe(OPERATIONS.length);
	});

	it.each(CASES.map((c) => [`${c.resource} ${c.operation}`, c] as const))(
		'%s',
		async (_name, testCase) => {
			await fixture.clear();
			const { output, error } = await fixture.run({
				resource: testCase.resource,
				operation: testCase.operation,
				...testCase.parameters,
			});
			expect(error).toBeUndefined();
			const [logged, ...more] = await fixture.requests();
			expect(more).toHaveLength(0);
			expect(logged).toMatchObject({
				method: testCase.request.method,
				path: testCase.request.path,
				env: 'sandbox',
			});
			expect(logged.status).toBeLessThan(300);
			if (testCase.request.query) expect(logged.query).toEqual(testCase.request.query);
			if (testCase.request.body !== undefined) expect(logged.body).toEqual(testCase.request.body);
			else expect(logged.body).toBeNull();
			output.forEach((item) => expect(item.pairedItem).toEqual({ item: 0 }));
			await testCase.check(output.map((item) => item.json));
		},
	);

	it.each(
		CASES.filter((c) => c.request.method !== 'GET').map(
			(c) => [`${c.resource} ${c.operation}`, c] as const,
		),
	)('%s is refused for a read-only token with 403, without the token', async (_name, testCase) => {
		await fixture.clear();
		const { output, error, requests } = await fixture.run(
			{ resource: testCase.resource, operation: testCase.operation, ...testCase.parameters },
			{ readOnly: true },
		);
		expect(output).toHaveLength(0);
		expect(requests).toHaveLength(1);
		expect(error?.message).toMatch(
			new RegExp(
				`^The token's user is not allowed to ${testCase.request.method} /\\S+ \\(403\\)\\. Use a token of a user with that permission\\.$`,
			),
		);
		expect(error?.httpCode).toBe('403');
		expect(error?.description).toMatch(/permission/);
		expect(`${error?.message}\n${error?.description}`).not.toContain(
			fixture.readOnlyCredentials.accessToken,
		);
		const [logged, ...more] = await fixture.requests();
		expect(more).toHaveLength(0);
		expect(logged).toMatchObject({ method: testCase.request.method, status: 403 });
	});

	it.each(CASES.map((c) => [`${c.resource} ${c.operation}`, c] as const))(
		'%s with the token of the other environment fails with 401, naming the environment, without the token',
		async (_name, testCase) => {
			const token = fixture.sandbox.environments.production.token;
			const { output, error } = await runNode({
				node: new MaintenanceManagement(),
				credentials: { ...fixture.credentials, accessToken: token },
				parameters: {
					resource: testCase.resource,
					operation: testCase.operation,
					...testCase.parameters,
				},
			});
			expect(output).toEqual([]);
			expect(error?.message).toBe(
				'The access token was rejected (401). Check the token in the credential, and that it was issued in the sandbox environment.',
			);
			expect(error?.httpCode).toBe('401');
			expect(error?.description).toMatch(/sandbox environment/);
			expect(`${error?.message}\n${error?.description}`).not.toContain(token);
		},
	);
});

/** Null or an empty list or object anywhere in a record. */
const emptyValues = (value: unknown, path = ''): string[] =>
	value === null
		? [path]
		: Array.isArray(value)
			? value.length === 0
				? [path]
				: value.flatMap((inner, index) => emptyValues(inner, `${path}[${index}]`))
			: typeof value === 'object'
				? Object.keys(value as object).length === 0
					? [path]
					: Object.entries(value as object).flatMap(([name, inner]) =>
							emptyValues(inner, `${path}.${name}`),
						)
				: [];

describe('every operation at version 2, Simplified', () => {
	it.each(CASES.map((c) => [`${c.resource} ${c.operation}`, c] as const))(
		'%s sends the same request and outputs records with an ID and no empty values',
		async (_name, testCase) => {
			await fixture.reset();
			await fixture.clear();
			const { output, error } = await fixture.run(
				{ resource: testCase.resource, operation: testCase.operation, ...testCase.parameters },
				{ typeVersion: 2 },
			);
			expect(error).toBeUndefined();
			const [logged] = await fixture.requests();
			expect(logged).toMatchObject({
				method: testCase.request.method,
				path: testCase.request.path,
			});
			if (testCase.request.body !== undefined) expect(logged.body).toEqual(testCase.request.body);
			expect(output.length).toBeGreaterThan(0);
			for (const { json } of output) {
				expect(json.id).toEqual(expect.any(String));
				expect(emptyValues(json)).toEqual([]);
			}
		},
	);
});
