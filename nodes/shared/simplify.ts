import type { IDataObject } from 'n8n-workflow';

import type { ApiResource, ResourceRef } from '../MaintenanceManagement/transport';
import { isEmpty } from './values';

export type IncludedIndex = Map<string, ApiResource>;

const keyOf = (ref: ResourceRef): string => `${ref.type}\u0000${ref.id}`;

export function indexIncluded(included: ApiResource[] | undefined): IncludedIndex {
	const index: IncludedIndex = new Map();
	for (const resource of included ?? []) index.set(keyOf(resource), resource);
	return index;
}

/** Attributes the API fills for its own use (a search index), left out of simplified items. */
export const INTERNAL_ATTRIBUTES: readonly string[] = ['fts_vector'];

/**
 * One flat item per resource: `id` and `type` first (so n8n's table view shows them), then the
 * attributes, each expanded relationship resolved from `included` under its own name, and the
 * entries of its `meta` (`custom_fields`, `cost_centers`). Internal attributes are left out.
 * An attribute whose name collides with `id` or `type` (a planned job's `type`, say) is kept as
 * `attribute_<name>`, so no value is lost.
 */
export function simplifyResource(
	resource: ApiResource,
	included: IncludedIndex,
	depth = 0,
): IDataObject {
	const item = new Map<string, unknown>([
		['id', resource.id],
		['type', resource.type],
	]);
	const attributes = resource.attributes ?? {};
	for (const name in attributes) {
		if (INTERNAL_ATTRIBUTES.includes(name)) continue;
		item.set(name === 'id' || name === 'type' ? `attribute_${name}` : name, attributes[name]);
	}
	const relationships = resource.relationships;
	if (relationships) {
		for (const name of Object.keys(relationships)) {
			const related = relationships[name]?.data;
			const resolve = (ref: ResourceRef): IDataObject => {
				const found = included.get(keyOf(ref));
				// One level of nesting is enough to read a relation; deeper links stay as references.
				return found && depth === 0
					? simplifyResource(found, included, depth + 1)
					: { id: ref.id, type: ref.type };
			};
			item.set(
				name,
				Array.isArray(related) ? related.map(resolve) : related ? resolve(related) : null,
			);
		}
	}
	// The record's meta (custom_fields, cost_centers) beside its attributes, where no attribute has the name.
	if (resource.meta)
		for (const [name, value] of Object.entries(resource.meta))
			if (!item.has(name)) item.set(name, value);
	return asItem(item);
}

/** An item of the fields in order, made at once: it has them all, and stays compact (see `itemOf`). */
const asItem = (fields: Map<string, unknown>): IDataObject =>
	Object.fromEntries(fields) as IDataObject;

/**
 * Output Raw (Simplify off in version 1): the resource as received, plus the included resources its
 * relationships point to.
 */
export function rawResource(resource: ApiResource, included: IncludedIndex): IDataObject {
	if (!resource.relationships || included.size === 0) return resource as IDataObject;
	const related: ApiResource[] = [];
	for (const relation of Object.values(resource.relationships)) {
		const refs = Array.isArray(relation?.data)
			? relation.data
			: relation?.data
				? [relation.data]
				: [];
		for (const ref of refs) {
			const found = included.get(keyOf(ref));
			if (found) related.push(found);
		}
	}
	return related.length
		? ({ ...resource, included: related } as IDataObject)
		: (resource as IDataObject);
}

/**
 * What an operation outputs for each record. Version 1 of the node has only its Simplify switch
 * (`legacy` when on, `raw` when off); version 2 has the Output choice.
 */
export type OutputChoice =
	| { mode: 'legacy' }
	| { mode: 'raw' }
	| { mode: 'simplified' }
	| { mode: 'selected'; fields: string[] };

/**
 * The key fields of the resources a model or a person reads most, in the order they are shown, from
 * the API spec. Simplified output keeps only these (plus expanded relations and non-empty custom
 * fields); a resource not listed keeps all its attributes but the internal ones. `record_type` is the
 * resource's own type (the envelope's `type`), shown where it tells records apart.
 */
export const KEY_FIELDS: Readonly<Record<string, readonly string[]>> = {
	failure: [
		'code',
		'status',
		'description',
		'priority',
		'priority_label',
		'local_id',
		'problem_id',
		'reported_by',
		'start_date',
		'last_status_change_date',
		'approved_date',
		'paused_date',
		'completed_date',
		'observations',
		'supplier_id',
		'external_id',
	],
	work: [
		'name',
		'description',
		'type',
		'periodicity',
		'recurrence',
		'work_type_id',
		'local_id',
		'failure_id',
		'supplier_id',
		'client_id',
	],
	scheduled_work: [
		'state',
		'work_id',
		'start_date',
		'real_start_date',
		'completed_date',
		'completed_percentage',
		'visit',
		'failure_id',
		'last_status_change_date',
		'last_status_description',
		'observation',
		'next_sla_date',
		'client_id',
	],
	...Object.fromEntries(
		['building', 'location-folder', 'location'].map((type) => [
			type,
			[
				'record_type',
				'name',
				'full_name',
				'code',
				'full_code',
				'parent_id',
				'client_id',
				'observation',
				'assets_count',
			],
		]),
	),
};

/**
 * A table's entry for a name the API gives (a record's type), never a member every object inherits:
 * a type named `constructor` or `toString` has no entry.
 */
const ownEntry = <T>(table: Readonly<Record<string, T>>, name: string): T | undefined =>
	Object.hasOwn(table, name) ? table[name] : undefined;

/**
 * What a work order's priority means, beside the API's number: the spec's scale runs from 1 (lowest) to
 * 4 (highest). Output as `priority_label`; `priority` keeps the API's number.
 */
export const PRIORITY_LABELS: Readonly<Record<string, string>> = {
	1: '1 of 4, lowest',
	2: '2 of 4',
	3: '3 of 4',
	4: '4 of 4, highest',
};

/** The attribute that repeats the record's own ID, by resource type: left out of Simplified output. */
const ID_ATTRIBUTE: Readonly<Record<string, string>> = {
	failure: 'failure_id',
	work: 'work_id',
	scheduled_work: 'schedule_work_id',
	building: 'local_id',
	supplier: 'supplier_id',
	client: 'client_id',
	contact: 'contact_id',
	'stock-material': 'material_id',
	material: 'material_id',
	'stock-material-type': 'material_type_id',
	'other-cost': 'other_cost_id',
	operator: 'operator_id',
	file: 'file_id',
	'stock-movement': 'stock_movement_id',
	'stock-transaction-batch': 'stock_transaction_batch_id',
	'stock-transactions-batch': 'stock_transaction_batch_id',
};

/**
 * A record's fields by their own names (see `fieldsOf`), each read when asked for: the Simplified and
 * Selected Fields outputs name the few they keep, so a record's other fields are never copied.
 */
interface Fields {
	has(name: string): boolean;
	/** The field's value; undefined when the record has no such field. */
	get(name: string): unknown;
}

/** Fields the API keeps for its own use: search index, UUIDs, the tenant, operator IDs beside their names. */
const isInternal = (name: string, value: unknown, fields: Fields, resource: ApiResource): boolean =>
	INTERNAL_ATTRIBUTES.includes(name) ||
	name === 'uuid' ||
	name.endsWith('_uuid') ||
	name === 'entity_id' ||
	(name.endsWith('_by_id') && fields.has(name.slice(0, -3))) ||
	(ownEntry(ID_ATTRIBUTE, resource.type) === name && String(value) === resource.id);

/** A failure's `priority_label`, when its priority is on the spec's scale. */
function priorityLabel(resource: ApiResource): string | undefined {
	const priority = resource.type === 'failure' ? resource.attributes?.priority : undefined;
	return typeof priority === 'number' && PRIORITY_LABELS[priority]
		? PRIORITY_LABELS[priority]
		: undefined;
}

/** A relation resolved from `included`: the record at one level of nesting, a reference deeper. */
function resolved(
	relation: { data: ResourceRef | ResourceRef[] | null } | null | undefined,
	included: IncludedIndex,
	depth: number,
): IDataObject | IDataObject[] | null {
	const resolve = (ref: ResourceRef): IDataObject => {
		const found = included.get(keyOf(ref));
		return found && depth === 0
			? compactResource(found, included, depth + 1)
			: { id: ref.id, record_type: ref.type };
	};
	const related = relation?.data;
	return Array.isArray(related) ? related.map(resolve) : related ? resolve(related) : null;
}

/**
 * Every field of a record by its own name: `record_type`, the attributes, each expanded relation
 * (resolved from `included`), and the meta entries. A record's own `type` attribute stays `type`.
 * An attribute named `id` becomes `attribute_id`, as the record's ID keeps `id`. Later ones take a
 * name from earlier ones (a relation from an attribute), but for the meta, which fills only names left.
 */
function fieldsOf(
	resource: ApiResource,
	included: IncludedIndex,
	depth: number,
): Map<string, unknown> {
	const fields = new Map<string, unknown>([['record_type', resource.type]]);
	for (const [name, value] of Object.entries(resource.attributes ?? {}))
		fields.set(name === 'id' ? 'attribute_id' : name, value);
	const label = priorityLabel(resource);
	if (label !== undefined) fields.set('priority_label', label);
	for (const [name, relation] of Object.entries(resource.relationships ?? {}))
		fields.set(name, resolved(relation, included, depth));
	for (const [name, value] of Object.entries(resource.meta ?? {}))
		if (!fields.has(name)) fields.set(name, value);
	return fields;
}

/**
 * Whether a field is among those `Object.entries` gives of a value: its own enumerable ones. Every own
 * field of an object from JSON is enumerable; a list's or a text's length is not.
 */
const hasEntry = (value: unknown, name: string): boolean =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? Object.hasOwn(value, name)
		: value !== undefined &&
			value !== null &&
			Object.prototype.propertyIsEnumerable.call(value, name);

/** Which attribute holds a field, as `fieldsOf` names them; undefined when none does. */
function attributeFor(attributes: unknown, name: string): string | undefined {
	if (name !== 'attribute_id')
		return name !== 'id' && hasEntry(attributes, name) ? name : undefined;
	// Both an attribute `id` and one named `attribute_id`: the later one holds the name.
	const id = hasEntry(attributes, 'id');
	if (!hasEntry(attributes, name)) return id ? 'id' : undefined;
	if (!id) return name;
	const names = Object.keys(attributes as object);
	return names.indexOf('id') > names.indexOf(name) ? 'id' : name;
}

/** The fields of `fieldsOf`, each read from the record when asked for, in the same order of precedence. */
class RecordFields implements Fields {
	constructor(
		private readonly resource: ApiResource,
		private readonly included: IncludedIndex,
		private readonly depth: number,
	) {}

	has(name: string): boolean {
		const { attributes, relationships, meta } = this.resource;
		return (
			hasEntry(relationships, name) ||
			(name === 'priority_label' && priorityLabel(this.resource) !== undefined) ||
			attributeFor(attributes, name) !== undefined ||
			name === 'record_type' ||
			hasEntry(meta, name)
		);
	}

	get(name: string): unknown {
		const { resource } = this;
		const { attributes, relationships, meta } = resource;
		if (hasEntry(relationships, name))
			return resolved(relationships?.[name], this.included, this.depth);
		const label = name === 'priority_label' ? priorityLabel(resource) : undefined;
		if (label !== undefined) return label;
		const held = attributeFor(attributes, name);
		if (held !== undefined) return attributes?.[held];
		if (name === 'record_type') return resource.type;
		return hasEntry(meta, name) ? meta?.[name] : undefined;
	}
}

/**
 * The fields a person knows a record by, in this order: a record without a key list leads with those
 * it has, so the table view shows them first (a material's code, its ERP key, before its prices).
 */
export const IDENTIFYING_FIELDS: readonly string[] = [
	'code',
	'name',
	'full_name',
	'email',
	'description',
];

/** The names, those a person knows a record by first. */
const identifyingFirst = (names: string[]): string[] => [
	...IDENTIFYING_FIELDS.filter((name) => names.includes(name)),
	...names.filter((name) => !IDENTIFYING_FIELDS.includes(name)),
];

/**
 * The Simplified output of a record: its ID, then its key fields (for a resource without a key list,
 * all fields but the internal ones, those a person knows it by first), then its expanded relations
 * and meta entries, leaving out every empty value. A record with a key list has only the fields it
 * keeps read; one without has them all gathered once.
 */
export function compactResource(
	resource: ApiResource,
	included: IncludedIndex,
	depth = 0,
): IDataObject {
	const keys = ownEntry(KEY_FIELDS, resource.type);
	const kept: Kept = { names: ['id'], values: [resource.id] };
	if (!keys) {
		const fields = fieldsOf(resource, included, depth);
		// Each name once, and never `id`, which the record's ID holds.
		for (const name of identifyingFirst([...fields.keys()]))
			if (name !== 'record_type' && name !== 'id') keep(kept, fields, name, resource);
		return itemOf(kept);
	}
	const fields = new RecordFields(resource, included, depth);
	// The key fields are each named once, `id` not among them; a relation or meta entry may repeat one.
	for (const name of keys) keep(kept, fields, name, resource);
	for (const extra of [resource.relationships, resource.meta])
		for (const name of Object.keys(extra ?? {}))
			if (!kept.names.includes(name)) keep(kept, fields, name, resource);
	return itemOf(kept);
}

/** The fields an output keeps, in order, each name once. */
interface Kept {
	names: string[];
	values: unknown[];
}

/** Adds a field to those a Simplified output keeps, unless it is empty or internal. */
function keep(kept: Kept, fields: Fields, name: string, resource: ApiResource): void {
	const value = fields.get(name);
	if (isEmpty(value) || isInternal(name, value, fields, resource)) return;
	kept.names.push(name);
	kept.values.push(value);
}

/** The most fields an item is given one by one: V8 keeps an object given a few more as compact. */
const ONE_BY_ONE = 16;

/**
 * The item of the fields kept. An object given its fields one by one turns into a dictionary past a
 * score of them (V8), which takes about three times the memory; made at once (`Object.fromEntries`), it
 * stays compact, but that costs more for the few fields most items have. (A `__proto__` field is made
 * at once too, as an own field, where given one by one it would set the prototype.)
 */
function itemOf({ names, values }: Kept): IDataObject {
	if (names.length > ONE_BY_ONE || names.includes('__proto__'))
		return Object.fromEntries(names.map((name, index) => [name, values[index]])) as IDataObject;
	const item: IDataObject = {};
	for (let index = 0; index < names.length; index++)
		item[names[index]] = values[index] as IDataObject[keyof IDataObject];
	return item;
}

/** The Selected Fields output of a record: its ID and the named fields it has, in the order named. */
export function selectedResource(
	resource: ApiResource,
	included: IncludedIndex,
	names: string[],
): IDataObject {
	const fields = new RecordFields(resource, included, 0);
	const item: IDataObject = { id: resource.id };
	for (const name of names)
		if (fields.has(name)) item[name] = fields.get(name) as IDataObject[keyof IDataObject];
	return item;
}

const asChoice = (output: boolean | OutputChoice): OutputChoice =>
	typeof output === 'boolean' ? { mode: output ? 'legacy' : 'raw' } : output;

/** The output records of an answer's resources, as the Output choice (or Simplify switch) asks. */
export function toItems(
	data: ApiResource[],
	includedList: ApiResource[] | undefined,
	output: boolean | OutputChoice,
): IDataObject[] {
	const included = indexIncluded(includedList);
	const choice = asChoice(output);
	return data.map((resource) => {
		switch (choice.mode) {
			case 'legacy':
				return simplifyResource(resource, included);
			case 'simplified':
				return compactResource(resource, included);
			case 'selected':
				return selectedResource(resource, included, choice.fields);
			default:
				return rawResource(resource, included);
		}
	});
}
