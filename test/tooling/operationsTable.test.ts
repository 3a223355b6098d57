import { readFileSync } from 'node:fs';

import {
	README_PATH,
	operationRows,
	operationsTable,
	splitAtTable,
	tableRows,
} from '../../scripts/operationsTable';

describe("README's Operations table", () => {
	it('holds the rows the operations registry makes', () => {
		const [, table] = splitAtTable(readFileSync(README_PATH, 'utf8'));
		const rows = operationRows();
		if (JSON.stringify(tableRows(table)) !== JSON.stringify(rows)) {
			throw new Error(
				"README.md's Operations table differs from the operations registry: run `npm run build`, which writes it.",
			);
		}
		expect(tableRows(table)).toEqual(rows);
	});

	it('reads back every cell it writes, a | inside a cell included', () => {
		const rows = [['Resource', 'Get', 'GET /a/{id}', 'Sort: `name|code`, then `id`.']];
		expect(tableRows(operationsTable(rows))).toEqual(rows);
	});
});
