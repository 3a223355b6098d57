/**
 * The README's Operations table, made from the operations registry (`actions/resources.ts` and each
 * resource's `defineResource`): one row per operation in the registry's order, with the editor's
 * names, the endpoint, and notes taken from what the editor shows. `npm run build` (gulpfile.js)
 * writes it between the markers below; `test/tooling/operationsTable.test.ts` fails while the README
 * holds another table.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resources } from '../nodes/MaintenanceManagement/actions/resources';
import type { ResourceModule } from '../nodes/MaintenanceManagement/actions/types';

export const README_PATH = join(__dirname, '..', 'README.md');

export const START =
	'<!-- Operations table: written by `npm run build` from the operations registry; edit the operations, not this table. -->';
export const END = '<!-- End of the operations table. -->';

/** Past this many relations, Include gives their number rather than their names. */
const MAX_LISTED_RELATIONS = 8;

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

const optionNames = (property: INodeProperties | undefined, skip: string[] = []) =>
	((property?.options ?? []) as INodeProperties[])
		.filter((option) => !skip.includes(option.name))
		.map((option) => option.displayName);

/**
 * What the editor tells of one operation: the option's description, then the filters, relations and
 * options its properties offer (the Query Parameters, Request Options and output choices every
 * operation of a kind shares are left out).
 */
function notes(description: string | undefined, properties: INodeProperties[]): string {
	const parts = description ? [sentence(description)] : [];
	const filters = optionNames(properties.find((property) => property.name === 'filters'));
	if (filters.length) parts.push(`Filters: ${filters.join(', ')}.`);
	const expanded = properties.find((property) => property.name === 'expanded');
	const relations = ((expanded?.options ?? []) as INodePropertyOptions[]).map(({ value }) =>
		String(value),
	);
	if (relations.length > MAX_LISTED_RELATIONS) {
		parts.push(`Include: any of ${relations.length} relations.`);
	} else if (relations.length) {
		parts.push(`Include: ${relations.map((relation) => `\`${relation}\``).join(', ')}.`);
	}
	const options = properties
		.filter((property) => property.type === 'collection' && property.displayName === 'Options')
		.flatMap((property) => optionNames(property, ['queryParameters']));
	if (options.length) parts.push(`Options: ${options.join(', ')}.`);
	return parts.join(' ');
}

/** The table's rows, one per operation in the order of the registry: the cells' text. */
export function operationRows(registry: Record<string, ResourceModule> = resources): string[][] {
	return Object.values(registry).flatMap((resource) => {
		const selector = resource.description.find((property) => property.name === 'operation');
		const choices = (selector?.options ?? []) as INodePropertyOptions[];
		return Object.entries(resource.operations).map(([value, operation]) => {
			const choice = choices.find((option) => option.value === value);
			const { method, path } = operation.endpoint;
			return [
				resource.displayName,
				choice?.name ?? value,
				`${method} ${path}`,
				notes(choice?.description, operation.description),
			].map((text) => text.replace(/\s*\n\s*/g, ' ').trim());
		});
	});
}

const HEADER = ['Resource', 'Operation', 'Method and path', 'Notes'];

/** The Operations table as Markdown (Prettier aligns its columns when the build writes it). */
export function operationsTable(rows = operationRows()): string {
	const line = (cells: string[]) =>
		`| ${cells.map((text) => text.replace(/\|/g, '\\|')).join(' | ')} |`;
	return [line(HEADER), line(HEADER.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Splits a README at the table's markers; fails when they are missing. */
export function splitAtTable(readme: string): [before: string, table: string, after: string] {
	const start = readme.indexOf(START);
	const end = readme.indexOf(END, start);
	if (start < 0 || end < 0) {
		throw new Error(`README.md lacks the operations table's markers: ${START} … ${END}`);
	}
	return [
		readme.slice(0, start + START.length),
		readme.slice(start + START.length, end),
		readme.slice(end),
	];
}

/** The rows of a Markdown table, its header and separator left out: each cell's text. */
export function tableRows(table: string): string[][] {
	return table
		.split('\n')
		.filter((line) => line.trim().startsWith('|'))
		.slice(2)
		.map((line) =>
			line
				.trim()
				.slice(1, -1)
				.split(/(?<!\\)\|/)
				.map((text) => text.trim().replace(/\\\|/g, '|')),
		);
}

/**
 * Rewrites README.md's table (the build's step), formatted as Prettier formats the file; returns
 * whether the file changed.
 */
export async function writeOperationsTable(path = README_PATH): Promise<boolean> {
	const readme = readFileSync(path, 'utf8');
	const [before, , after] = splitAtTable(readme);
	// Loaded here: Prettier's loading needs dynamic imports, which jest's module system lacks.
	const { format, resolveConfig } = await import('prettier');
	const config = (await resolveConfig(path)) ?? {};
	const updated = await format(`${before}\n\n${operationsTable()}\n\n${after}`, {
		...config,
		filepath: path,
	});
	if (updated !== readme) writeFileSync(path, updated);
	return updated !== readme;
}
