/**
 * The Operations tables, made from the operations registry (`actions/resources.ts` and each resource's
 * `defineResource`), one row per operation in the registry's order, with the editor's names and the
 * endpoint: README.md's, whose notes are the operation's description alone, and docs/operations.md's,
 * with the filters, relations and options each operation offers. docs/output.md's table gives each
 * operation's Simplified fields, as its output schema (scripts/outputSchemas.ts) has them; docs/webhooks.md's
 * Events table, one row per event of spec/openapi.yaml's webhooks. `npm run build` (gulpfile.js) writes
 * each between its markers; `test/tooling/operationsTable.test.ts` fails while a file holds another table.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resources } from '../nodes/MaintenanceManagement/actions/resources';
import { EVENTS } from '../nodes/MaintenanceManagementTrigger/events';
import { SPEC_EVENTS } from '../nodes/MaintenanceManagementTrigger/events.generated';
import type { ResourceModule } from '../nodes/shared/types';
import { simplifiedFields, Spec } from './outputSchemas';

export const README_PATH = join(__dirname, '..', 'README.md');
export const DETAILS_PATH = join(__dirname, '..', 'docs', 'operations.md');
export const OUTPUT_PATH = join(__dirname, '..', 'docs', 'output.md');
export const WEBHOOKS_PATH = join(__dirname, '..', 'docs', 'webhooks.md');

export const START =
	'<!-- Operations table: written by `npm run build` from the operations registry; edit the operations, not this table. -->';
export const END = '<!-- End of the operations table. -->';

/** The markers of docs/output.md's table. */
export const OUTPUT_MARKERS = {
	start:
		"<!-- Simplified fields: written by `npm run build` from nodes/shared/simplify.ts's shaping of each operation's answer in spec/openapi.yaml; edit those, not this table. -->",
	end: '<!-- End of the Simplified fields. -->',
};

/** The markers of docs/webhooks.md's Events table, made from spec/openapi.yaml's webhooks. */
export const EVENT_MARKERS = {
	start:
		"<!-- Events table: written by `npm run build` from spec/openapi.yaml's webhooks; edit the document, not this table. -->",
	end: '<!-- End of the events table. -->',
};

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

const optionNames = (property: INodeProperties | undefined, skip: string[] = []) =>
	((property?.options ?? []) as INodeProperties[])
		.filter((option) => !skip.includes(option.name))
		.map((option) => option.displayName);

/** What the editor tells of one operation. */
export interface OperationFacts {
	/** The values of the Resource and Operation selectors. */
	values: [resource: string, operation: string];
	resource: string;
	operation: string;
	endpoint: string;
	description: string;
	filters: string[];
	relations: string[];
	options: string[];
}

/**
 * Each operation's facts: the option's description, then the filters, relations and options its
 * properties offer (the Query Parameters, Request Options and output choices every operation of a kind
 * shares are left out).
 */
export function operationFacts(registry: Record<string, ResourceModule>): OperationFacts[] {
	return Object.values(registry).flatMap((resource) => {
		const selector = resource.description.find((property) => property.name === 'operation');
		const choices = (selector?.options ?? []) as INodePropertyOptions[];
		return Object.entries(resource.operations).map(([value, operation]) => {
			const choice = choices.find((option) => option.value === value);
			const { method, path } = operation.endpoint;
			const properties = operation.description;
			const expanded = properties.find((property) => property.name === 'expanded');
			return {
				values: [resource.value, value] as [string, string],
				resource: resource.displayName,
				operation: choice?.name ?? value,
				endpoint: `${method} ${path}`,
				description: choice?.description ? sentence(choice.description) : '',
				filters: optionNames(properties.find((property) => property.name === 'filters')),
				relations: ((expanded?.options ?? []) as INodePropertyOptions[]).map(({ value }) =>
					String(value),
				),
				options: properties
					.filter(
						(property) => property.type === 'collection' && property.displayName === 'Options',
					)
					.flatMap((property) => optionNames(property, ['queryParameters'])),
			};
		});
	});
}

const oneLine = (cells: string[]) => cells.map((text) => text.replace(/\s*\n\s*/g, ' ').trim());

/** README.md's rows, one per operation in the order of the registry: the cells' text. */
export function operationRows(registry: Record<string, ResourceModule> = resources): string[][] {
	return operationFacts(registry).map((facts) =>
		oneLine([facts.resource, facts.operation, facts.endpoint, facts.description]),
	);
}

/** docs/operations.md's rows: each operation's filters, relations (`expanded`) and options. */
export function detailRows(registry: Record<string, ResourceModule> = resources): string[][] {
	return operationFacts(registry).map((facts) =>
		oneLine([
			facts.resource,
			facts.operation,
			facts.endpoint,
			facts.filters.join(', '),
			facts.relations.map((relation) => `\`${relation}\``).join(', '),
			facts.options.join(', '),
		]),
	);
}

const code = (names: string[]) => names.map((name) => `\`${name}\``).join(', ');

/**
 * docs/output.md's rows: each operation's Simplified fields in their order, then the relations it
 * nests (expanded, or always in its answer) and the meta entries output beside them.
 */
export function outputRows(
	registry: Record<string, ResourceModule> = resources,
	spec = Spec.load(),
): string[][] {
	return operationFacts(registry).map((facts) => {
		const fields = simplifiedFields(spec, ...facts.values);
		return oneLine([
			facts.resource,
			facts.operation,
			code(fields.record),
			code(fields.relation),
			code(fields.meta),
		]);
	});
}

const HEADER = ['Resource', 'Operation', 'Method and path', 'Notes'];
const OUTPUT_HEADER = ['Resource', 'Operation', 'Fields', 'Related records', 'Meta'];
const DETAILS_HEADER = [
	'Resource',
	'Operation',
	'Method and path',
	'Filters',
	'Include',
	'Options',
];

/** docs/webhooks.md's rows: each event of the document, its name in the editor, group and description. */
export function eventRows(): string[][] {
	return EVENTS.map((event) => [
		`\`${event.value}\``,
		event.name,
		SPEC_EVENTS[event.value].group,
		event.description,
	]);
}

const EVENTS_HEADER = ['Event', 'Name in the editor', 'Group in the spec', 'Description'];

/** An Operations table as Markdown (Prettier aligns its columns when the build writes it). */
export function operationsTable(rows = operationRows(), header = HEADER): string {
	const line = (cells: string[]) =>
		`| ${cells.map((text) => text.replace(/\|/g, '\\|')).join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The markers a table is written between. */
export interface Markers {
	start: string;
	end: string;
}

const OPERATIONS_MARKERS: Markers = { start: START, end: END };

/** The tables the build writes: each file with its table and markers. */
export const TABLES = () => [
	{ path: README_PATH, table: operationsTable(operationRows()), markers: OPERATIONS_MARKERS },
	{
		path: DETAILS_PATH,
		table: operationsTable(detailRows(), DETAILS_HEADER),
		markers: OPERATIONS_MARKERS,
	},
	{
		path: OUTPUT_PATH,
		table: operationsTable(outputRows(), OUTPUT_HEADER),
		markers: OUTPUT_MARKERS,
	},
	{
		path: WEBHOOKS_PATH,
		table: operationsTable(eventRows(), EVENTS_HEADER),
		markers: EVENT_MARKERS,
	},
];

/** Splits a file at the table's markers; fails when they are missing. */
export function splitAtTable(
	readme: string,
	path = README_PATH,
	markers: Markers = OPERATIONS_MARKERS,
): [before: string, table: string, after: string] {
	const start = readme.indexOf(markers.start);
	const end = readme.indexOf(markers.end, start);
	if (start < 0 || end < 0) {
		throw new Error(`${path} lacks the table's markers: ${markers.start} … ${markers.end}`);
	}
	return [
		readme.slice(0, start + markers.start.length),
		readme.slice(start + markers.start.length, end),
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
 * Rewrites the table of one file (the build's step), formatted as Prettier formats the file; returns
 * whether the file changed.
 */
export async function writeTable(
	path: string,
	table: string,
	markers: Markers = OPERATIONS_MARKERS,
): Promise<boolean> {
	const text = readFileSync(path, 'utf8');
	const [before, , after] = splitAtTable(text, path, markers);
	// Loaded here: Prettier's loading needs dynamic imports, which jest's module system lacks.
	const { format, resolveConfig } = await import('prettier');
	const config = (await resolveConfig(path)) ?? {};
	const updated = await format(`${before}\n\n${table}\n\n${after}`, { ...config, filepath: path });
	if (updated !== text) writeFileSync(path, updated);
	return updated !== text;
}

/** Rewrites README.md's, docs/operations.md's, docs/output.md's and docs/webhooks.md's tables; returns the files that changed. */
export async function writeOperationsTables(): Promise<string[]> {
	const changed: string[] = [];
	for (const { path, table, markers } of TABLES())
		if (await writeTable(path, table, markers)) changed.push(path);
	return changed;
}
