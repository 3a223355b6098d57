import type { INodeProperties } from 'n8n-workflow';
import type { z } from 'zod/v3';

import { choices } from './options';

/** The line types of sell order lines and quote lines. */
export const LINE_TYPES = choices({
	MATERIAL: { name: 'Material', description: 'Needs Material ID' },
	OTHER_COST: { name: 'Other Cost', description: 'Needs Other Cost ID' },
	SERVICE: { name: 'Service', description: 'Needs Description' },
});

export const lineTypeProperty = (description: string): INodeProperties => ({
	displayName: 'Type',
	name: 'type',
	type: 'options',
	required: true,
	options: LINE_TYPES.options,
	default: 'SERVICE',
	description,
});

/** SERVICE lines need a description, MATERIAL lines a material_id, OTHER_COST lines an other_cost_id. */
export function checkLineType(
	line: { type?: string; description?: unknown; material_id?: unknown; other_cost_id?: unknown },
	context: z.RefinementCtx,
): void {
	const needs: Record<string, [keyof typeof line, string]> = {
		SERVICE: ['description', 'Description'],
		MATERIAL: ['material_id', 'Material ID'],
		OTHER_COST: ['other_cost_id', 'Other Cost ID'],
	};
	const need = line.type ? needs[line.type] : undefined;
	if (need && (line[need[0]] === undefined || line[need[0]] === null)) {
		context.addIssue({
			code: 'custom',
			path: [need[0]],
			message: `is required when type is ${line.type}: set ${need[1]} under Additional Fields`,
		});
	}
}
