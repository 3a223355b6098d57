import { readFileSync } from 'node:fs';

import {
	DETAILS_PATH,
	END,
	EVENT_MARKERS,
	OUTPUT_PATH,
	README_PATH,
	START,
	TABLES,
	detailRows,
	operationRows,
	operationsTable,
	splitAtTable,
	tableRows,
	WEBHOOKS_PATH,
} from '../../scripts/operationsTable';

describe('the Operations tables', () => {
	it.each(
		TABLES().map(({ path, table, markers }) => [
			path.split('/').slice(-2).join('/'),
			path,
			table,
			markers,
		]),
	)(
		'of %s hold the rows the operations registry or the spec makes',
		(_name, path, table, markers) => {
			const [, written] = splitAtTable(readFileSync(path, 'utf8'), path, markers);
			if (JSON.stringify(tableRows(written)) !== JSON.stringify(tableRows(table))) {
				throw new Error(
					`${path}'s table differs from the operations registry or spec/openapi.yaml: run \`npm run build\`, which writes it.`,
				);
			}
			expect(tableRows(written)).toEqual(tableRows(table));
		},
	);

	it("keep README's notes short and give each operation's filters, relations and options in docs/", () => {
		const notes = operationRows().map((row) => row[3]);
		expect(notes.filter((note) => /Filters:|Include:|Options:/.test(note))).toEqual([]);
		const longest = Math.max(...notes.map((note) => note.split(/\s+/).length));
		expect(longest).toBeLessThanOrEqual(30);
		const details = detailRows();
		expect(details.map((row) => row.slice(0, 3))).toEqual(
			operationRows().map((row) => row.slice(0, 3)),
		);
		const workOrders = details.find((row) => row[0] === 'Work Order' && row[1] === 'Get Many');
		expect(workOrders?.[3]).toContain('Location ID');
		expect(workOrders?.[4]).toContain('`assignees`');
		expect(TABLES().map(({ path }) => path)).toEqual([
			README_PATH,
			DETAILS_PATH,
			OUTPUT_PATH,
			WEBHOOKS_PATH,
		]);
	});

	it('read back every cell they write, a | inside a cell included', () => {
		const rows = [['Resource', 'Get', 'GET /a/{id}', 'Sort: `name|code`, then `id`.']];
		expect(tableRows(operationsTable(rows))).toEqual(rows);
	});

	it('name the file whose markers are missing', () => {
		expect(() => splitAtTable('# Operations\n', '/x/docs/operations.md')).toThrow(
			"/x/docs/operations.md lacks the table's markers",
		);
		expect(() => splitAtTable(`${START}\n${END}`, '/x/docs/webhooks.md', EVENT_MARKERS)).toThrow(
			`/x/docs/webhooks.md lacks the table's markers: ${EVENT_MARKERS.start}`,
		);
	});
});
