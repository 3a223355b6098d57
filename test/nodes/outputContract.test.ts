import { readFileSync } from 'node:fs';

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { CURRENT_VERSION } from '../../nodes/shared/properties';
import type { ResourceModule } from '../../nodes/shared/types';
import { isEmpty } from '../../nodes/shared/values';
import {
	OUTPUT_MARKERS,
	OUTPUT_PATH,
	operationFacts,
	splitAtTable,
	tableRows,
} from '../../scripts/operationsTable';
import { Spec } from '../../scripts/outputSchemas';
import { operationCases } from '../cases/operations';
import { SandboxFixture } from './helpers/sandbox';

/**
 * The output contract: every operation whose answer holds records offers the Output choice, and its
 * Simplified output holds each field docs/output.md promises, whenever the record has a value for it.
 * The promise is the table the build wrote and the commit holds, not one made again from the code:
 * a change to the Simplified shaping that drops a field fails here, naming the operation and the field.
 */
const fixture = new SandboxFixture();

beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

const spec = Spec.load();

/** The fields docs/output.md promises for each operation, by "resource operation" (the selectors' values). */
const PROMISED: Record<string, string[]> = (() => {
	const [, table] = splitAtTable(readFileSync(OUTPUT_PATH, 'utf8'), OUTPUT_PATH, OUTPUT_MARKERS);
	const rows = tableRows(table);
	const names = (cell: string) =>
		cell.split(',').flatMap((name) => name.match(/`([^`]+)`/)?.[1] ?? []);
	return Object.fromEntries(
		operationFacts(resources).map(({ values, resource, operation }) => {
			const row = rows.find(([label, name]) => label === resource && name === operation);
			return [values.join(' '), row ? row.slice(2).flatMap(names) : []];
		}),
	);
})();
const CASES = operationCases(
	(method, path) => fixture.control(method, path),
	async () => ({}),
);

/** Whether spec/openapi.yaml's successful answer of an endpoint holds records (a JSON `data`). */
const returnsRecords = (method: string, path: string): boolean => {
	try {
		return Boolean(spec.properties(spec.answer(method, path)).data);
	} catch {
		return false;
	}
};

/** The properties of a resource shown for one of its operations. */
const shownFor = (resource: ResourceModule, operation: string): INodeProperties[] =>
	resource.description.filter((property) =>
		(property.displayOptions?.show?.operation ?? []).includes(operation),
	);

/**
 * Each operation whose Output choice disagrees with its answer: one that returns records without the
 * choice (or with it twice), or one that returns nothing with it.
 */
function outputChoiceProblems(
	registry: Record<string, ResourceModule>,
	holdsRecords: (method: string, path: string) => boolean,
): string[] {
	return Object.entries(registry).flatMap(([name, resource]) =>
		Object.entries(resource.operations).flatMap(([operation, { endpoint }]) => {
			const shown = shownFor(resource, operation);
			const count = (property: string) => shown.filter((entry) => entry.name === property).length;
			const records = holdsRecords(endpoint.method, endpoint.path);
			const expected = records ? 1 : 0;
			if (count('output') === expected && count('simplify') === expected) return [];
			return [
				records
					? `${name} ${operation} returns records but has ${count('output')} Output choices and ${count('simplify')} Simplify switches, not one of each`
					: `${name} ${operation} returns no records but has an Output choice`,
			];
		}),
	);
}

describe('the Output choice', () => {
	it('is offered, once, by every operation whose answer holds records, and by no other', () => {
		expect(outputChoiceProblems(resources, returnsRecords)).toEqual([]);
	});

	it('names an operation that returns records without it, and one that returns nothing with it', () => {
		const supplier = resources.supplier;
		const withoutChoice: ResourceModule = {
			...supplier,
			description: supplier.description.filter(
				(property) =>
					!['output', 'simplify'].includes(property.name) ||
					!(property.displayOptions?.show?.operation ?? []).includes('update'),
			),
		};
		expect(outputChoiceProblems({ supplier: withoutChoice }, returnsRecords)).toEqual([
			'supplier update returns records but has 0 Output choices and 0 Simplify switches, not one of each',
		]);
		const answersNothing = (method: string, path: string) =>
			method === 'GET' ? returnsRecords(method, path) : false;
		expect(outputChoiceProblems({ supplier }, answersNothing)).toEqual([
			'supplier update returns no records but has an Output choice',
		]);
	});
});

/** A promised field a record of the real output has a value for, but its Simplified output lacks. */
const missingFields = (simplified: IDataObject[], selected: IDataObject[], promised: string[]) =>
	selected.flatMap((values, index) =>
		promised
			.filter((field) => !isEmpty(values[field]) && !Object.hasOwn(simplified[index] ?? {}, field))
			.map((field) => `item ${index}: ${field}`),
	);

describe('the Simplified output, against the sandbox', () => {
	it.each(CASES.map((c) => [`${c.resource} ${c.operation}`, c] as const))(
		'%s holds every field it promises that the record has a value for',
		async (name, testCase) => {
			const promised = PROMISED[name];
			if (!promised.includes('id'))
				throw new Error(`${name}: docs/output.md has no row of fields for it: run npm run build`);
			const run = async (output: IDataObject) => {
				await fixture.reset();
				const result = await fixture.run(
					{
						resource: testCase.resource,
						operation: testCase.operation,
						...testCase.parameters,
						...output,
					},
					{ typeVersion: CURRENT_VERSION },
				);
				expect(result.error).toBeUndefined();
				return result.output.map(({ json }) => json);
			};
			const simplified = await run({});
			// The same records with every promised field by name: a field the record lacks is left out,
			// a null one stays null.
			const fields = promised.filter((field) => field !== 'id');
			const selected = await run({ output: 'selected', fields: fields.join(', ') });
			expect(simplified.length).toBeGreaterThan(0);
			expect(selected.map(({ id }) => id)).toEqual(simplified.map(({ id }) => id));
			const missing = missingFields(simplified, selected, promised);
			if (missing.length)
				throw new Error(
					`${name}: the Simplified output lacks fields it promises (docs/output.md), which the record has:\n${missing.join('\n')}`,
				);
			expect(simplified.every((item) => typeof item.id === 'string')).toBe(true);
		},
	);

	it('names the item and the field a Simplified output left out, and not a field without a value', () => {
		const selected = [
			{ id: '1', code: 'WO-1', external_id: 'ERP-1', observations: null },
			{ id: '2', code: 'WO-2', external_id: null },
		];
		const simplified = [
			{ id: '1', code: 'WO-1' },
			{ id: '2', code: 'WO-2' },
		];
		expect(
			missingFields(simplified, selected, ['id', 'code', 'external_id', 'observations']),
		).toEqual(['item 0: external_id']);
	});
});
