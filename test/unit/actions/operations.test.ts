import { resources } from '../../../nodes/MaintenanceManagement/actions/resources';
import { Contract } from '../../../sandbox/contract';
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
		// One operation per endpoint of the spec.
		expect(OPERATIONS).toHaveLength(Contract.load().operationNames.length);
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
