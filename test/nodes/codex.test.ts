import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodeType } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { MaintenanceManagementTrigger } from '../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { resourceSelector } from '../../nodes/MaintenanceManagement/actions/resources';
import { builtPackage } from '../helpers/built';
import { specEventNames } from '../helpers/contract';

const ROOT = join(__dirname, '..', '..');

/** The categories n8n's node creator knows. */
const N8N_CATEGORIES = [
	'Analytics',
	'Communication',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

interface Codex {
	node: string;
	categories: string[];
	alias: string[];
}

const nodes: Array<[string, INodeType]> = [
	['nodes/MaintenanceManagement/MaintenanceManagement.node.json', new MaintenanceManagement()],
	[
		'nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node.json',
		new MaintenanceManagementTrigger(),
	],
];

describe.each(nodes)('codex %s', (file, nodeType) => {
	const codex = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Codex;

	it("names its node as n8n keys it: the package name, then the node's name", () => {
		expect(codex.node).toBe(`n8n-nodes-maintenance-management.${nodeType.description.name}`);
	});

	it("takes its categories from n8n's list", () => {
		expect(codex.categories.length).toBeGreaterThan(0);
		for (const category of codex.categories) expect(N8N_CATEGORIES).toContain(category);
	});

	it("is found by the words users search for, not only by the API's name", () => {
		const aliases = codex.alias.map((alias) => alias.toLowerCase());
		for (const word of [
			'work order',
			'planned job',
			'preventive maintenance',
			'cmms',
			'facility',
		]) {
			expect(aliases).toContain(word);
		}
	});
});

it('the action node codex names every main resource among its aliases', () => {
	const codex = JSON.parse(readFileSync(join(ROOT, nodes[0][0]), 'utf8')) as Codex;
	for (const word of ['purchase order', 'stock', 'supplier', 'asset', 'location']) {
		expect(codex.alias).toContain(word);
	}
});

it('names every resource of the action node among its aliases, singular and plural', () => {
	// n8n's search matches the typed letters in order: "locations" does not find the alias "location".
	const codex = JSON.parse(readFileSync(join(ROOT, nodes[0][0]), 'utf8')) as Codex;
	const names = (resourceSelector.options as Array<{ name: string }>).map(({ name }) =>
		name.replace(/ \(Deprecated\)$/, '').toLowerCase(),
	);
	expect(names).toContain('location');
	for (const name of names) expect(codex.alias).toEqual(expect.arrayContaining([name, `${name}s`]));
});

describe.each(nodes)('codex %s', (file) => {
	it('gives every noun among its aliases its plural too, so that the plural finds the node', () => {
		const aliases = (JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Codex).alias;
		const nouns = aliases.filter((alias) =>
			/^(?:webhook|event|work order|failure|planned job(?: order)?|asset|building|location|purchase order|buy order|sell order|quote|material|supplier|client|contact|warehouse|approval)$/.test(
				alias,
			),
		);
		expect(nouns.length).toBeGreaterThan(8);
		expect(nouns.filter((noun) => !aliases.includes(`${noun}s`))).toEqual([]);
		expect(aliases.filter((alias, index) => aliases.indexOf(alias) !== index)).toEqual([]);
	});
});

it('finds the approval flow by the words an operations team types', () => {
	const codex = JSON.parse(readFileSync(join(ROOT, nodes[0][0]), 'utf8')) as Codex;
	for (const word of ['approval', 'approve', 'waiting for approval', 'open work orders'])
		expect(codex.alias).toContain(word);
	// The events a user waits for name the approval in their descriptions (the node creator lists them).
	const trigger = new MaintenanceManagementTrigger().description;
	const events = trigger.properties.find((property) => property.name === 'events')!;
	const described = Object.fromEntries(
		(events.options as Array<{ value: string; description: string }>).map((option) => [
			option.value,
			option.description,
		]),
	);
	for (const event of ['FAILURE_CREATED', 'FAILURE_APPROVED', 'FAILURE_NOT_APPROVED'])
		expect(described[event]).toMatch(/waiting for approval/);
});

it('finds the approval events in the Events list by the words a user types', () => {
	// n8n's Events list keeps the options whose name holds the typed text, in any case.
	const events = new MaintenanceManagementTrigger().description.properties.find(
		(property) => property.name === 'events',
	)!.options as Array<{ name: string; value: string }>;
	const found = (text: string) =>
		events
			.filter((event) => event.name.toLowerCase().includes(text))
			.map((event) => event.value)
			.sort();
	const decided = ['FAILURE_APPROVED', 'FAILURE_NOT_APPROVED', 'FAILURE_UNDO_APPROVED'];
	expect(found('approval')).toEqual([...decided, 'FAILURE_CREATED'].sort());
	expect(found('approve')).toEqual(decided);
	expect(found('waiting for approval')).toEqual(['FAILURE_CREATED']);
	expect(found('declined')).toEqual(['FAILURE_NOT_APPROVED']);
});

it('names each event in the node creator as a user says it, keeping the words its search finds', () => {
	// The node creator lists a trigger's events as actions named by each option's `action`.
	const events = new MaintenanceManagementTrigger().description.properties.find(
		(property) => property.name === 'events',
	)!.options as Array<{ name: string; value: string; action?: string }>;
	const action = (value: string) => events.find((event) => event.value === value)?.action;
	expect(action('FAILURE_APPROVED')).toBe('On work order approved (approval given)');
	expect(action('FAILURE_NOT_APPROVED')).toBe('On work order not approved (approval declined)');
	expect(action('FAILURE_UNDO_APPROVED')).toBe('On work order approval undone (unapproved)');
	expect(action('FAILURE_CREATED')).toBe('On work order created or waiting for approval');
	const named = events.filter((event) => event.value !== '*');
	expect(named.map((event) => event.value).sort()).toEqual(specEventNames().sort());
	expect(named.filter((event) => event.action !== `On ${event.name.toLowerCase()}`)).toEqual([]);
});

it("gives each node its own description: n8n shows the trigger's for the package's one entry", () => {
	const action = new MaintenanceManagement().description.description;
	const trigger = new MaintenanceManagementTrigger().description.description;
	expect(action).not.toBe(trigger);
	// n8n merges a trigger into the action node whose name is the trigger's without "Trigger", and
	// the entry keeps the trigger's description: it must speak of the actions as well as the events.
	expect(new MaintenanceManagementTrigger().description.name.replace('Trigger', '')).toBe(
		new MaintenanceManagement().description.name,
	);
	expect(trigger).toMatch(/start a workflow/i);
	expect(trigger).toMatch(/\bact on\b/i);
	expect(action).not.toMatch(/webhook|start/i);
});

/** Every parameter of a node, nested ones included, with its path. */
function* parameters(list: unknown[], path = ''): Generator<[string, INodeProperties]> {
	for (const entry of list as Array<INodeProperties & { values?: INodeProperties[] }>) {
		const here = `${path}/${entry.name}`;
		if (entry.type !== undefined) yield [here, entry];
		if (entry.values) yield* parameters(entry.values, here);
		if (Array.isArray(entry.options)) yield* parameters(entry.options, here);
	}
}

describe.each(nodes)('required parameters of %s', (_file, nodeType) => {
	it('start empty, so n8n marks them as missing until they are set', () => {
		const zeroes = [...parameters(nodeType.description.properties)]
			.filter(([, parameter]) => parameter.required === true && parameter.default === 0)
			.map(([path]) => path);
		expect(zeroes).toEqual([]);
	});
});

describe('the built codex files, searched in the node creator', () => {
	/**
	 * Whether n8n's node creator (2.41.1's editor) keeps a node for the typed text: the text's letters
	 * appear in the same order, in any case, in its display name or in one of its aliases.
	 */
	const finds = (typed: string, names: string[]): boolean =>
		names.some((name) => {
			let next = 0;
			for (const letter of name.toLowerCase()) if (letter === typed[next]?.toLowerCase()) next++;
			return next === typed.length;
		});

	const built = builtPackage('build:codex');

	/** What the search sees of each node: its display name and the aliases of its built codex. */
	const searchable = (file: string, nodeType: INodeType) => [
		nodeType.description.displayName,
		...(JSON.parse(readFileSync(join(built(), file), 'utf8')) as Codex).alias,
	];

	it('matches as n8n does: letters in order, not a word the text lacks', () => {
		expect(finds('wo apr', ['Work order approval'])).toBe(true);
		expect(finds('approved', ['approval', 'approve', 'waiting for approval'])).toBe(false);
	});

	it.each([
		['approved', true, true],
		['work order approved', true, true],
		['approval', true, true],
		['create a material', true, false],
		['material', true, false],
		['stock', true, true],
	])('finds for "%s" the action node (%s) and the trigger (%s)', (typed, action, trigger) => {
		const [actionNode, triggerNode] = nodes;
		expect([
			finds(typed, searchable(...actionNode)),
			finds(typed, searchable(...triggerNode)),
		]).toEqual([action, trigger]);
	});
});
