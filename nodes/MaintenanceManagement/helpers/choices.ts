import type { INodePropertyOptions } from 'n8n-workflow';

import { byText } from '../actions/shared/sort';

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
