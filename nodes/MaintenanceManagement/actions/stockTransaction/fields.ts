import type { INodeProperties } from 'n8n-workflow';

/** The material a stock transaction moves, as both stock operations ask for it. */
export const materialIdProperty: INodeProperties = {
	displayName: 'Material ID',
	name: 'material_id',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 7',
};
