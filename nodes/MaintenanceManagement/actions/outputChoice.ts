import type { IExecuteFunctions } from 'n8n-workflow';

import { noSelectedFields, refusal } from '../helpers/messages';
import type { OutputChoice } from '../helpers/simplify';

/** A list of names given as an array or as text separated by commas (as a model or a person writes it). */
export const nameList = (value: unknown): string[] => [
	...new Set(
		(Array.isArray(value) ? value.map(String) : String(value ?? '').split(','))
			.map((name) => name.trim())
			.filter(Boolean),
	),
];

/** How item i's records are output: Simplify in version 1 of the node, the Output choice from version 2. */
export function readOutput(this: IExecuteFunctions, itemIndex: number): OutputChoice {
	if (this.getNode().typeVersion < 2) {
		return { mode: this.getNodeParameter('simplify', itemIndex, true) ? 'legacy' : 'raw' };
	}
	const mode = this.getNodeParameter('output', itemIndex, 'simplified') as string;
	if (mode === 'raw') return { mode };
	if (mode !== 'selected') return { mode: 'simplified' };
	const fields = nameList(this.getNodeParameter('fields', itemIndex, ''));
	if (fields.length === 0) {
		throw refusal(this.getNode(), noSelectedFields(), { itemIndex, fields: ['fields'] });
	}
	return { mode, fields };
}
