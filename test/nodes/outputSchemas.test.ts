import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { CURRENT_VERSION } from '../../nodes/shared/properties';
import {
	operationSchema,
	schemaFolder,
	Spec,
	type OutputSchema,
} from '../../scripts/outputSchemas';
import { operationCases } from '../cases/operations';
import { SandboxFixture } from './helpers/sandbox';

const fixture = new SandboxFixture();

beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

const CASES = operationCases(
	(method, path) => fixture.control(method, path),
	async () => ({}),
);
const spec = Spec.load();
/**
 * Each operation's schema, as the build writes it, or what kept it from being made: an operation the
 * document lacks fails one test naming it, while the others still run.
 */
const SCHEMAS = Object.entries(resources).flatMap(([resource, { operations }]) =>
	Object.keys(operations).map((operation) => {
		try {
			return { resource, operation, schema: operationSchema(spec, resource, operation) };
		} catch (error) {
			return { resource, operation, schema: {} as OutputSchema, problem: (error as Error).message };
		}
	}),
);

/** A JSON value's type as JSON Schema names it. */
const jsonType = (value: unknown): string =>
	Array.isArray(value)
		? 'array'
		: value === null
			? 'null'
			: Number.isInteger(value)
				? 'integer'
				: typeof value;

/**
 * What in a value its schema does not describe, as "path: problem": a key of an object whose schema
 * lists its properties and allows no others, or a value of another type.
 */
function undescribed(value: unknown, schema: OutputSchema, path: string): string[] {
	if (schema.type === undefined) return [];
	const allowed = [schema.type].flat();
	const type = jsonType(value);
	if (!allowed.includes(type) && !(type === 'integer' && allowed.includes('number'))) {
		// A relation to many is a list of the records its schema describes.
		if (!(type === 'array' && allowed.includes('object')))
			return [`${path}: ${type}, the schema says ${allowed.join(' or ')}`];
		return (value as unknown[]).flatMap((entry, index) =>
			undescribed(entry, schema, `${path}[${index}]`),
		);
	}
	if (type === 'array' && schema.items)
		return (value as unknown[]).flatMap((entry, index) =>
			undescribed(entry, schema.items!, `${path}[${index}]`),
		);
	if (type !== 'object' || !schema.properties) return [];
	return Object.entries(value as IDataObject).flatMap(([key, inner]) => {
		const property = schema.properties![key];
		if (property) return undescribed(inner, property, `${path}.${key}`);
		return schema.additionalProperties ? [] : [`${path}.${key}: not in the schema`];
	});
}

describe('output schemas', () => {
	it('has one schema per operation of the registry, in the folder of the current version', () => {
		expect(SCHEMAS.map(({ resource, operation }) => `${resource} ${operation}`)).toEqual(
			Object.entries(resources).flatMap(([resource, { operations }]) =>
				Object.keys(operations).map((operation) => `${resource} ${operation}`),
			),
		);
		expect(CURRENT_VERSION).toBe(2);
		expect(schemaFolder(CURRENT_VERSION)).toBe('v2.0.0');
		expect(schemaFolder(1.1)).toBe('v1.1.0');
	});

	it("makes each operation's schema from the document", () => {
		const problems = SCHEMAS.flatMap(({ resource, operation, problem }) =>
			problem ? [`${resource} ${operation}: ${problem}`] : [],
		);
		expect(problems).toEqual([]);
	});

	it.each(SCHEMAS.map((entry) => [`${entry.resource} ${entry.operation}`, entry] as const))(
		'%s: an object whose fields each name their Raw source, the record ID first',
		(_name, { schema }) => {
			expect(schema.type).toBe('object');
			expect(schema.description).toMatch(/With Output set to Raw/);
			const names = Object.keys(schema.properties ?? {});
			expect(names[0]).toBe('id');
			for (const name of names)
				expect(`${name}: ${schema.properties![name].description}`).toMatch(/Raw: |Made from/);
		},
	);

	it('leads Material Create with the fields a person knows a material by', () => {
		const { schema } = SCHEMAS.find(
			({ resource, operation }) => resource === 'material' && operation === 'create',
		)!;
		expect(Object.keys(schema.properties!).slice(0, 3)).toEqual(['id', 'code', 'name']);
	});

	it.each(CASES.map((c) => [`${c.resource} ${c.operation}`, c] as const))(
		'%s: every field of the Simplified output is in its schema',
		async (name, testCase) => {
			await fixture.reset();
			const { output, error } = await fixture.run(
				{ resource: testCase.resource, operation: testCase.operation, ...testCase.parameters },
				{ typeVersion: CURRENT_VERSION },
			);
			expect(error).toBeUndefined();
			expect(output.length).toBeGreaterThan(0);
			const { schema } = SCHEMAS.find(
				({ resource, operation }) =>
					resource === testCase.resource && operation === testCase.operation,
			)!;
			const problems = output.flatMap(({ json }, index) =>
				undescribed(json, schema, `${name} item ${index}`),
			);
			expect(problems).toEqual([]);
		},
	);
});
