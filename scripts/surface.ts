/**
 * What a saved workflow or credential holds of this package, as data: the surface users save. n8n saves
 * each node's type name and type version, its parameters' names and values (leaving out each value equal
 * to its default) and its credentials by type name, and a credential's properties by name. So a release's
 * surface is, per node type and type version, every parameter with its path (nested through collections
 * and fixed collections), type, default, required flag, option values and the `displayOptions` that show
 * it (`@version` conditions evaluated for that type version), and per credential type its properties.
 *
 * `surfaceOf` reads it from the descriptions; `compareSurfaces` names each change that would make a
 * workflow or credential saved with one surface send or read something else under another. Both are
 * pure: `npm run surface` (scripts/recordSurface.ts) records a release's surface in surface/<version>.json,
 * and test/tooling/surface.test.ts holds the nodes to every recorded one.
 */
import { isDeepStrictEqual } from 'node:util';

import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

type Conditions = Record<string, unknown[]>;
export interface Display {
	show?: Conditions;
	hide?: Conditions;
}

/** A parameter, a collection's field or a credential's property as saved. */
export interface Parameter {
	name: string;
	type: string;
	default: unknown;
	required?: true;
	/** A fixed collection or a multi-value field saved as a list of values. */
	multipleValues?: true;
	/** The values of an options or multiOptions parameter. */
	values?: unknown[];
	/** The modes of a resource locator (saved as `mode`). */
	modes?: string[];
	displayOptions?: Display;
	/** A collection's fields. */
	fields?: Parameter[];
	/** A fixed collection's groups, each saved under its name. */
	groups?: Array<{ name: string; fields: Parameter[] }>;
}

/**
 * The key paths of an output item (`code`, `payload.data.id`, `list[].name`), each with its JSON types
 * (string, number, boolean, null, object or array; several joined by |).
 */
export type Shape = Record<string, string>;

export interface NodeVersionSurface {
	/** The credential types the node uses, by name, each with the conditions that show it. */
	credentials: Array<{ name: string; required?: true; displayOptions?: Display }>;
	parameters: Parameter[];
	/** "<method> <path>" of each webhook: the URL the service calls. */
	webhooks?: string[];
	/**
	 * What saved workflows read of the items it outputs (scripts/outputs.ts), by case: `<resource>.<operation>
	 * <Output choice>`, `<resource>.<operation> error <On Error mode>`, `delivery <method>`.
	 */
	outputs?: Record<string, Shape>;
}

export interface Surface {
	package: string;
	version: string;
	/** By the node's full type name, `<package>.<name>`, then by type version. */
	nodes: Record<string, { versions: Record<string, NodeVersionSurface> }>;
	/** By the credential's type name. */
	credentials: Record<string, { properties: Parameter[] }>;
}

/** Properties n8n shows but does not save. */
const NOT_SAVED = new Set(['notice']);

const byName = (a: { name: string }, b: { name: string }) =>
	a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
const sortedValues = (values: unknown[]) =>
	[...values].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/** Every JSON object's keys sorted, deeply, so that a record is written the same way each time. */
export function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.keys(value)
				.sort()
				.map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
		);
	return value;
}

/**
 * The display conditions for one type version: `@version` conditions evaluated by n8n's own rules
 * (`NodeHelpers.checkConditions`), and dropped; null when the version does not show the property.
 */
function displayFor(display: INodeProperties['displayOptions'], version?: number): Display | null {
	const resolved: Display = {};
	for (const kind of ['show', 'hide'] as const) {
		const { '@version': versions, ...rest } = (display?.[kind] ?? {}) as Conditions;
		if (versions && version !== undefined) {
			const holds = NodeHelpers.checkConditions(versions as never, [version]);
			if (kind === 'show' ? !holds : holds) return null;
		}
		if (Object.keys(rest).length) resolved[kind] = rest;
	}
	return resolved;
}

const parametersOf = (properties: INodeProperties[], version?: number): Parameter[] =>
	properties
		.flatMap((property) => {
			const parameter = parameterOf(property, version);
			return parameter ? [parameter] : [];
		})
		.sort(
			(a, b) =>
				byName(a, b) ||
				(JSON.stringify(a.displayOptions) ?? '').localeCompare(
					JSON.stringify(b.displayOptions) ?? '',
				),
		);

function parameterOf(property: INodeProperties, version?: number): Parameter | null {
	if (NOT_SAVED.has(property.type)) return null;
	const display = displayFor(property.displayOptions, version);
	if (!display) return null;
	const parameter: Parameter = {
		name: property.name,
		type: property.type,
		default: property.default,
	};
	if (property.required) parameter.required = true;
	if (property.typeOptions?.multipleValues) parameter.multipleValues = true;
	if (display.show || display.hide) parameter.displayOptions = display;
	if (property.modes) parameter.modes = property.modes.map((mode) => mode.name).sort();
	const options = property.options ?? [];
	if (property.type === 'options' || property.type === 'multiOptions')
		parameter.values = sortedValues((options as INodePropertyOptions[]).map((o) => o.value));
	if (property.type === 'collection')
		parameter.fields = parametersOf(options as INodeProperties[], version);
	if (property.type === 'fixedCollection')
		parameter.groups = (options as INodePropertyCollection[])
			.map((group) => ({ name: group.name, fields: parametersOf(group.values, version) }))
			.sort(byName);
	return parameter;
}

const typeVersions = ({ version }: INodeTypeDescription) =>
	Array.isArray(version) ? version : [version];

/** The surface of a release: its nodes' descriptions and its credential types. */
export function surfaceOf(release: {
	package: string;
	version: string;
	nodes: INodeTypeDescription[];
	credentials: ICredentialType[];
}): Surface {
	const nodes = Object.fromEntries(
		release.nodes.map((node) => [
			`${release.package}.${node.name}`,
			{
				versions: Object.fromEntries(
					typeVersions(node).map((version) => {
						const surface: NodeVersionSurface = {
							credentials: (node.credentials ?? [])
								.flatMap(({ name, required, displayOptions }) => {
									const display = displayFor(displayOptions, version);
									if (!display) return [];
									return [
										{
											name,
											...(required ? { required } : {}),
											...(display.show || display.hide ? { displayOptions: display } : {}),
										},
									];
								})
								.sort(byName),
							parameters: parametersOf(node.properties, version),
						};
						if (node.webhooks)
							surface.webhooks = node.webhooks
								.map((webhook) => `${String(webhook.httpMethod)} ${String(webhook.path)}`)
								.sort();
						return [String(version), surface];
					}),
				),
			},
		]),
	);
	const credentials = Object.fromEntries(
		release.credentials.map((credential) => [
			credential.name,
			{ properties: parametersOf(credential.properties) },
		]),
	);
	return sortKeys({
		package: release.package,
		version: release.version,
		nodes,
		credentials,
	}) as Surface;
}

/** A change that alters what a workflow or credential saved with the recorded surface does. */
export interface Break {
	/** "node <type>" or "credential <type>". */
	subject: string;
	/** The node's type version; none for a credential. */
	version?: string;
	/** The parameter's or property's path, or the output item's key path; empty for the type itself. */
	path: string;
	/** The output case whose item key changed; none for a parameter. */
	output?: string;
	/** Where it was shown, as `name=value` conditions, when it was shown only somewhere. */
	shownFor: string[];
	change: string;
	/** What to do instead. */
	fix: string;
}

type Atom = Record<string, unknown>;

/** Each combination of one value per `show` condition: the situations the parameter is shown in. */
function atomsOf(display: Display | undefined): Atom[] {
	let atoms: Atom[] = [{}];
	for (const [key, values] of Object.entries(display?.show ?? {}))
		atoms = atoms.flatMap((atom) => values.map((value) => ({ ...atom, [key]: value })));
	return atoms;
}

const describeAtom = (atom: Atom) =>
	Object.entries(atom)
		.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
		.join(', ');

const includes = (values: unknown[] | undefined, value: unknown) =>
	(values ?? []).some((v) => isDeepStrictEqual(v, value));

/**
 * Whether `current` is shown, and so read, in every situation `atom` (where `recorded` was shown): each
 * of its `show` conditions holds there, and it hides nothing the recorded one did not.
 */
function covers(current: Parameter, atom: Atom, recorded: Parameter): boolean {
	const { show = {}, hide = {} } = current.displayOptions ?? {};
	for (const [key, values] of Object.entries(show))
		if (!(key in atom) || !includes(values, atom[key])) return false;
	for (const [key, values] of Object.entries(hide)) {
		if (key in atom) {
			if (includes(values, atom[key])) return false;
		} else if (!values.every((value) => includes(recorded.displayOptions?.hide?.[key], value)))
			return false;
	}
	return true;
}

const show = (value: unknown) => JSON.stringify(value) ?? 'none';
const list = (values: unknown[]) => values.map(show).join(', ');

/** The changes of one matched parameter that alter what its saved value does. */
function changesOf(recorded: Parameter, current: Parameter): string[] {
	const changes: string[] = [];
	if (recorded.type !== current.type)
		changes.push(`type changed from ${recorded.type} to ${current.type}`);
	if (!recorded.multipleValues !== !current.multipleValues)
		changes.push(
			current.multipleValues
				? 'now holds a list of values (multipleValues), where it held one'
				: 'now holds one value, where it held a list (multipleValues)',
		);
	if (!isDeepStrictEqual(recorded.default, current.default))
		changes.push(`default changed from ${show(recorded.default)} to ${show(current.default)}`);
	if (!recorded.required && current.required) changes.push('made required');
	const values = (recorded.values ?? []).filter((value) => !includes(current.values, value));
	if (values.length)
		changes.push(`option value${values.length > 1 ? 's' : ''} ${list(values)} removed or renamed`);
	const modes = (recorded.modes ?? []).filter((mode) => !includes(current.modes, mode));
	if (modes.length)
		changes.push(
			`resource locator mode${modes.length > 1 ? 's' : ''} ${list(modes)} removed or renamed`,
		);
	return changes;
}

interface Place {
	subject: string;
	version?: string;
	fix: string;
	/** Where the enclosing parameter was shown. */
	shownFor: string;
}

function compareParameters(
	recorded: Parameter[],
	current: Parameter[],
	prefix: string,
	place: Place,
	found: Break[],
): void {
	const report = (path: string, change: string, shownFor = place.shownFor) =>
		found.push({
			subject: place.subject,
			version: place.version,
			path,
			shownFor: shownFor ? [shownFor] : [],
			change,
			fix: place.fix,
		});
	for (const old of recorded) {
		const path = `${prefix}${old.name}`;
		const named = current.filter((parameter) => parameter.name === old.name);
		if (!named.length) {
			report(path, 'removed or renamed');
			continue;
		}
		for (const atom of atomsOf(old.displayOptions)) {
			const where = [place.shownFor, describeAtom(atom)].filter(Boolean).join('; ');
			const match = named.find((parameter) => covers(parameter, atom, old));
			if (!match) {
				report(path, 'no longer shown there (its displayOptions narrowed)', where);
				continue;
			}
			for (const change of changesOf(old, match)) report(path, change, where);
			const inner = { ...place, shownFor: where };
			compareParameters(old.fields ?? [], match.fields ?? [], `${path}.`, inner, found);
			for (const group of old.groups ?? []) {
				const same = match.groups?.find((g) => g.name === group.name);
				if (!same) report(`${path}.${group.name}`, 'removed or renamed', where);
				else compareParameters(group.fields, same.fields, `${path}.${group.name}.`, inner, found);
			}
		}
	}
}

/**
 * A required parameter the record lacks, shown where a saved workflow runs: in a situation each of whose
 * conditions names a value the recorded parameter of that name could hold. One shown only for a new
 * option value (a new operation, say) is an addition.
 */
function newRequired(recorded: Parameter[], current: Parameter[], place: Place, found: Break[]) {
	const couldHold = (key: string, value: unknown) =>
		recorded.some(
			(parameter) =>
				parameter.name === key && (!parameter.values || includes(parameter.values, value)),
		);
	for (const parameter of current) {
		if (!parameter.required || recorded.some((old) => old.name === parameter.name)) continue;
		const where = atomsOf(parameter.displayOptions).filter((atom) =>
			Object.entries(atom).every(([key, value]) => couldHold(key, value)),
		);
		if (where.length)
			found.push({
				...place,
				path: parameter.name,
				shownFor: where.map(describeAtom).filter(Boolean),
				change: 'added as required where saved workflows lack it',
			});
	}
}

/** Where a key `path` the recorded item held went, when the current item holds its last part elsewhere. */
function movedTo(path: string, recorded: Shape, current: Shape): string | undefined {
	const last = path.split('.').pop() as string;
	return Object.keys(current).find(
		(other) =>
			other !== path &&
			!(other in recorded) &&
			other.split('.').pop() === last &&
			current[other] === recorded[path],
	);
}

/**
 * The output items' keys a saved workflow reads that are gone, moved or retyped: every key path of each
 * recorded case must be in the current case, holding (at least) its recorded types. Added keys pass.
 */
function compareOutputs(
	recorded: NodeVersionSurface['outputs'] = {},
	current: NodeVersionSurface['outputs'] = {},
	place: Place,
	found: Break[],
): void {
	const report = (output: string, path: string, change: string) =>
		found.push({
			subject: place.subject,
			version: place.version,
			path,
			output,
			shownFor: [],
			change,
			fix: place.fix,
		});
	for (const [output, shape] of Object.entries(recorded)) {
		const now = current[output];
		if (!now) {
			report(
				output,
				'',
				'no longer output (the operation, Output choice or On Error case is gone)',
			);
			continue;
		}
		for (const [path, types] of Object.entries(shape)) {
			if (!(path in now)) {
				const moved = movedTo(path, shape, now);
				report(output, path, moved ? `moved to "${moved}"` : 'removed or renamed');
				continue;
			}
			const kept = new Set(now[path].split('|'));
			if (!types.split('|').every((type) => kept.has(type)))
				report(output, path, `type changed from ${types} to ${now[path]}`);
		}
	}
}

/** Breaks of one subject, version, path and change joined, their places listed together. */
function merged(found: Break[]): Break[] {
	const byKey = new Map<string, Break>();
	for (const item of found) {
		const key = JSON.stringify([item.subject, item.version, item.output, item.path, item.change]);
		const seen = byKey.get(key);
		if (!seen) byKey.set(key, { ...item, shownFor: [...item.shownFor] });
		else
			for (const where of item.shownFor)
				if (!seen.shownFor.includes(where)) seen.shownFor.push(where);
	}
	return [...byKey.values()];
}

/** What to do instead when a whole node type, type version or credential type is gone. */
const KEEP_NODE = 'keep the node and its type name: every saved workflow names it';
const keepVersion = (version: string) =>
	`keep ${version} in the node's version list, with its description: workflows saved at it name it`;
const KEEP_CREDENTIAL =
	'keep the credential type and its name: every saved credential and node names it';

/**
 * Every change from `recorded` (a release's surface) to `current` that makes a workflow or credential
 * saved with the release send or read something else, or fail to load: a node type, type version,
 * credential type, webhook, parameter, field, group, property, option value or resource locator mode
 * removed or renamed; a type or default changed; a field made required; a parameter no longer shown
 * where it was. Additions are not breaks, nor are display names and descriptions, which are not saved.
 */
export function compareSurfaces(recorded: Surface, current: Surface): Break[] {
	const found: Break[] = [];
	/** A whole node type, type version or credential type that is gone. */
	const gone = (subject: string, change: string, fix: string, version?: string) =>
		found.push({ subject, ...(version && { version }), path: '', shownFor: [], change, fix });
	for (const [type, node] of Object.entries(recorded.nodes)) {
		const subject = `node ${type}`;
		const now = current.nodes[type];
		if (!now) {
			gone(subject, 'node type removed or renamed', KEEP_NODE);
			continue;
		}
		const next = Math.max(...Object.keys(now.versions).map(Number)) + 1;
		for (const [version, old] of Object.entries(node.versions)) {
			const same = now.versions[version];
			if (!same) {
				gone(subject, 'type version removed', keepVersion(version), version);
				continue;
			}
			const place: Place = {
				subject,
				version,
				shownFor: '',
				fix: `keep what was saved as it was, or make the change in a new type version ${next} (add it to the node's version list and defaultVersion) and keep type version ${version}'s description with @version conditions`,
			};
			// Compared as parameters: removed, made required or shown in fewer situations.
			const uses = (credentials: NodeVersionSurface['credentials']) =>
				credentials.map((use) => ({ ...use, type: 'credentials', default: null }));
			compareParameters(
				uses(old.credentials),
				uses(same.credentials),
				'credentials.',
				place,
				found,
			);
			for (const webhook of old.webhooks ?? [])
				if (!same.webhooks?.includes(webhook))
					found.push({
						...place,
						path: `webhooks.${webhook}`,
						shownFor: [],
						change: 'webhook removed or moved: the URL the service calls changes',
					});
			compareParameters(old.parameters, same.parameters, '', place, found);
			newRequired(old.parameters, same.parameters, place, found);
			compareOutputs(
				old.outputs,
				same.outputs,
				{
					...place,
					fix: `keep the key where it was, with its type (adding keys is fine), or make the change in a new type version ${next} (add it to the node's version list and defaultVersion) whose type version ${version} keeps its output as it was`,
				},
				found,
			);
		}
	}
	for (const [type, credential] of Object.entries(recorded.credentials)) {
		const subject = `credential ${type}`;
		const now = current.credentials[type];
		if (!now) {
			gone(subject, 'credential type removed or renamed', KEEP_CREDENTIAL);
			continue;
		}
		const place: Place = {
			subject,
			shownFor: '',
			fix: 'keep what was saved as it was: a credential type has no type versions, and every saved credential holds its properties by name; add an optional property beside it instead',
		};
		compareParameters(credential.properties, now.properties, '', place, found);
		newRequired(credential.properties, now.properties, place, found);
	}
	return merged(found);
}

/** What changed where, in words. */
export const whatChanged = (item: Break) =>
	`${item.subject}${item.version ? `, type version ${item.version}` : ''}${
		item.output !== undefined
			? `, output "${item.output}"${item.path ? `, key "${item.path}"` : ''}`
			: item.path
				? `, ${item.subject.startsWith('credential') ? 'property' : 'parameter'} "${item.path}"`
				: ''
	}${item.shownFor.length ? ` (shown for ${item.shownFor.join(' | ')})` : ''}: ${item.change}.`;

/** One line per break: what changed where, and what to do instead. */
export const describeBreak = (item: Break) => `${whatChanged(item)} Fix: ${item.fix}.`;
