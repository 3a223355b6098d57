/**
 * The editor's options lists, shared by both nodes: a field's allowed values with their labels
 * (`choices`), and the sort by name that n8n's lint rules ask of every options list (`byText`).
 */

import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * Sorts by a text field. A plain comparison, not localeCompare: the first localeCompare loads the ICU
 * collator, which costs tens of milliseconds at package load.
 */
export const byText =
	<K extends string>(key: K) =>
	(a: Record<K, string>, b: Record<K, string>): number =>
		a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;

/** How the editor shows one allowed value: its name, with a description where the value needs one. */
type Label = string | { name: string; description: string };

/**
 * The allowed values of a field, each typed once, with its label: `values` in the API's order (the
 * request schema checks them and its errors list them), `options` for the editor, sorted by name as
 * n8n's lint rules sort an options list.
 */
export function choices<T extends string>(labels: Record<T, Label>) {
	const values = Object.keys(labels) as [T, ...T[]];
	const options: INodePropertyOptions[] = values
		.map((value) => {
			const label: Label = labels[value];
			return typeof label === 'string'
				? { name: label, value }
				: { name: label.name, value, description: label.description };
		})
		.sort(byText('name'));
	return { values, options };
}
