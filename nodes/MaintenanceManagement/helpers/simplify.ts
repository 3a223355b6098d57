import type { IDataObject } from 'n8n-workflow';

import type { ApiResource, ResourceRef } from '../transport';

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
	const item: IDataObject = { id: resource.id, type: resource.type };
	const attributes = resource.attributes ?? {};
	for (const name in attributes) {
		if (INTERNAL_ATTRIBUTES.includes(name)) continue;
		item[name === 'id' || name === 'type' ? `attribute_${name}` : name] = attributes[name];
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
