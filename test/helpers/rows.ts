import type { IDataObject } from 'n8n-workflow';

/** Material → Create with its name and code taken from each row, as an ERP sync sends them. */
export const MATERIAL_FROM_ROW: IDataObject = {
	resource: 'material',
	operation: 'create',
	material_type_id: 2,
	name: '={{ $json.name }}',
	code: '={{ $json.code }}',
	units: 'unit',
};

/** Stock Transaction → Create Batch into warehouse 1: one transaction a row, its material and quantity. */
export const STOCK_FROM_ROW: IDataObject = {
	resource: 'stockTransaction',
	operation: 'createBatch',
	warehouseId: '1',
	action: 'WAREHOUSE_ADD',
	transactions: {
		items: [
			{
				material_id: '={{ $json.material }}',
				quantity: '={{ $json.quantity }}',
				cost_price: 2,
			},
		],
	},
};

/** Stock Transaction → Transfer from warehouse 1 to 2: the material and quantity of each row. */
export const TRANSFER_FROM_ROW: IDataObject = {
	resource: 'stockTransaction',
	operation: 'transfer',
	warehouse_from_id: 1,
	warehouse_to_id: 2,
	material_id: '={{ $json.material }}',
	quantity: '={{ $json.quantity }}',
};
