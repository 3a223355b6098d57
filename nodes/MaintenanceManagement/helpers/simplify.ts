import type { IDataObject } from 'n8n-workflow';

import type { ApiEnvelope, ApiResource, ResourceRef } from '../transport';

/** The records of an answer: its `data`, whether one resource, a list or none. */
export const recordsOf = (envelope: ApiEnvelope): ApiResource[] =>
	Array.isArray(envelope.data) ? envelope.data : envelope.data ? [envelope.data] : [];

export type IncludedIndex = Map<string, ApiResource>;

const keyOf = (ref: ResourceRef): string => `${ref.type}\u0000${ref.id}`;

export function indexIncluded(included: ApiResource[] | undefined): IncludedIndex {
	const index: IncludedIndex = new Map();
	for (const resource of included ?? []) index.set(keyOf(resource), resource);
	return index;
}

/**
 * One flat item per resource: the attributes, with `id` and `type` beside them, each expanded
 * relationship resolved from `included` under its own name, and the entries of its `meta`
 * (`custom_fields`, `cost_centers`).
 * An attribute whose name collides with `id` or `type` (a planned job's `type`, say) is kept as
 * `attribute_<name>`, so no value is lost.
 */
export function simplifyResource(
	resource: ApiResource,
	included: IncludedIndex,
	depth = 0,
): IDataObject {
	const attributes = resource.attributes ?? {};
	// A record of the page is flattened in place: its attributes object, freshly parsed and used once,
	// becomes the item (copying 100,000 records would double the time and the memory of a Return All).
	// An included record may be shared by several items, so it is copied.
	const item: IDataObject = depth === 0 ? attributes : { ...attributes };
	for (const name of ['id', 'type'] as const) {
		if (name in item) {
			item[`attribute_${name}`] = item[name];
			delete item[name];
		}
	}
	item.id = resource.id;
	item.type = resource.type;
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
			item[name] = Array.isArray(related)
				? related.map(resolve)
				: related
					? resolve(related)
					: null;
		}
	}
	// The record's meta (custom_fields, cost_centers) beside its attributes, where no attribute has the name.
	if (resource.meta)
		for (const [name, value] of Object.entries(resource.meta))
			if (!(name in item)) item[name] = value;
	return item;
}

/** With Simplify off: the resource as received, plus the included resources its relationships point to. */
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

export function toItems(
	data: ApiResource[],
	includedList: ApiResource[] | undefined,
	simplify: boolean,
): IDataObject[] {
	const included = indexIncluded(includedList);
	return data.map((resource) =>
		simplify ? simplifyResource(resource, included) : rawResource(resource, included),
	);
}
