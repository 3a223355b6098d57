import { readFileSync } from 'node:fs';

import { Contract } from '../../sandbox/contract';

/** What to do about a generated table that differs from spec/openapi.yaml. */
export const REGENERATE =
	'run `npm run endpoints` (or `npm run build`), which rewrites it from spec/openapi.yaml';

/**
 * The entries of a table generated from spec/openapi.yaml (endpoints.generated.ts, for one)
 * that differ from what the document gives now, each named: missing, extra or different.
 */
export function staleEntries(
	written: Record<string, unknown>,
	current: Record<string, unknown>,
): string[] {
	const names = [...new Set([...Object.keys(current), ...Object.keys(written)])];
	return names
		.filter((name) => JSON.stringify(written[name]) !== JSON.stringify(current[name]))
		.map((name) =>
			!(name in written)
				? `${name}: in the document, not in the table`
				: !(name in current)
					? `${name}: in the table, not in the document`
					: `${name}: the table has ${JSON.stringify(written[name])}, the document ${JSON.stringify(current[name])}`,
		);
}

/** A table generated from spec/openapi.yaml, as its tests see it. */
export interface GeneratedTable<Document, Facts extends Record<string, unknown>> {
	/** What the table holds one of for each entry, as the tests' names say it: `operation`, `webhook event`. */
	entry: string;
	/** The table as the package holds it. */
	written: Record<string, unknown>;
	/** The generator's reading of the document, and the file's text it writes from it. */
	facts: (document: Document) => Facts;
	source: (document: Document) => string;
	/** The file the table is written in, and its first line. */
	path: string;
	header: string;
}

/**
 * The tests every generated table gets: it holds what spec/openapi.yaml gives now, and says it is
 * generated, and from what. Returns the document and the generator's reading of it, for the table's
 * other tests.
 */
export function itIsGenerated<Document, Facts extends Record<string, unknown>>(
	table: GeneratedTable<Document, Facts>,
): { document: Document; facts: Facts } {
	const document = Contract.shared().document as unknown as Document;
	const facts = table.facts(document);

	it(`holds each ${table.entry} of spec/openapi.yaml as the document has it`, () => {
		const problems = staleEntries(table.written, facts);
		if (problems.length) throw new Error(`${problems.join('\n')}\n\n${REGENERATE}.`);
	});

	it('says it is generated, and from what', () => {
		expect(readFileSync(table.path, 'utf8').split('\n')[0]).toBe(table.header);
		expect(table.source(document).startsWith(`${table.header}\n`)).toBe(true);
	});

	return { document, facts };
}
