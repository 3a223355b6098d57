import type { INodeProperties } from 'n8n-workflow';

import { isPlainObject } from './isPlainObject';

/** Maps each parameter name of an operation (nested ones included) to its display name. */
export function displayNames(properties: INodeProperties[]): Map<string, string> {
	const names = new Map<string, string>();
	const visit = (list: unknown[] | undefined): void => {
		for (const entry of list ?? []) {
			if (!isPlainObject(entry)) continue;
			if (
				typeof entry.name === 'string' &&
				typeof entry.displayName === 'string' &&
				!names.has(entry.name)
			) {
				names.set(entry.name, entry.displayName);
			}
			if (Array.isArray(entry.options)) visit(entry.options);
			if (Array.isArray(entry.values)) visit(entry.values);
		}
	};
	visit(properties);
	return names;
}
