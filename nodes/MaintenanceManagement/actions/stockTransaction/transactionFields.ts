import type { INodeProperties } from 'n8n-workflow';

/** The material a stock transaction moves, as both stock operations ask for it. */
export const materialIdProperty: INodeProperties = {
	displayName: 'Material ID',
	name: 'material_id',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 7',
	description:
		'The ID of a stock material: material_id in the output of Material → Create, or the list of materials in the service',
};

/** A warehouse ID field's description: what the warehouse is for, then where its ID is found. */
export const warehouseIdDescription = (what: string): string =>
	`${what}: warehouse_id in Buy Order → Get Many, or the list of warehouses in the service`;
