import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { z } from 'zod';

import { id, lazy, number, oneOf, text } from '../../helpers/schemas';
import { toItems } from '../../helpers/simplify';
import { apiRequest, asNodeError } from '../../transport';
import { forOperation, recordLocator, simplifyProperty } from '../common';
import { errorItem, readBody, readRetry } from '../executor';
import type { OperationModule } from '../types';

/** The spec's limit of locations per PATCH /locations request. */
export const LOCATIONS_PER_REQUEST = 50;

export const ORIENTATIONS = ['North', 'South', 'West', 'East'] as const;

const properties: INodeProperties[] = [
	{
		displayName:
			'Each input item updates one location. Items are sent together, at most 50 locations per request, and each output item is paired with its input item.',
		name: 'bulkNotice',
		type: 'notice',
		default: '',
	},
	{
		...recordLocator('id', 'Location', 'searchLocations'),
		description:
			'The location to update. Its ID is sent as "id" in its element of the locations array.',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Area',
				name: 'area',
				type: 'number',
				default: 0,
				description: 'Floor area of the location',
			},
			{
				displayName: 'Code',
				name: 'code',
				type: 'string',
				default: '',
				description: 'Code of the location; unique across its level',
			},
			{ displayName: 'Glass Area', name: 'glass_area', type: 'number', default: 0 },
			{
				displayName: 'Latitude',
				name: 'latitude',
				type: 'number',
				typeOptions: { numberPrecision: 7 },
				default: 0,
			},
			{
				displayName: 'Longitude',
				name: 'longitude',
				type: 'number',
				typeOptions: { numberPrecision: 7 },
				default: 0,
			},
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{
				displayName: 'Observation',
				name: 'observation',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
			},
			{
				displayName: 'Orientation',
				name: 'orientation',
				type: 'options',
				options: ORIENTATIONS.map((value) => ({ name: value, value })),
				default: 'North',
			},
			{ displayName: 'Volume', name: 'volume', type: 'number', default: 0 },
		],
	},
	simplifyProperty,
];

const locationSchema = lazy(() =>
	z
		.object({
			id: id(),
			name: text().optional(),
			code: text().optional(),
			observation: z.string().optional(),
			latitude: number().optional(),
			longitude: number().optional(),
			area: number().optional(),
			glass_area: number().optional(),
			volume: number().optional(),
			orientation: oneOf(ORIENTATIONS).optional(),
		})
		.strict()
		.refine((location) => Object.keys(location).length > 1, {
			message: 'has nothing to change: add at least one field under Update Fields',
			path: ['updateFields'],
		}),
);

const chunk = <T>(list: T[], size: number): T[][] => {
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += size)
		chunks.push(list.slice(start, start + size));
	return chunks;
};

async function executeAll(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = new Array(items.length);
	const valid: Array<{ itemIndex: number; location: IDataObject }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			valid.push({ itemIndex, location: readBody.call(this, updateMany, itemIndex) });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
			output[itemIndex] = errorItem(error, itemIndex);
		}
	}
	for (const group of chunk(valid, LOCATIONS_PER_REQUEST)) {
		const first = group[0].itemIndex;
		try {
			const envelope = await apiRequest.call(
				this,
				{
					method: 'PATCH',
					path: '/locations',
					body: { locations: group.map((entry) => entry.location) },
				},
				readRetry.call(this, first),
				first,
			);
			const data = Array.isArray(envelope.data)
				? envelope.data
				: envelope.data
					? [envelope.data]
					: [];
			const simplify = this.getNodeParameter('simplify', first, true) as boolean;
			const records = toItems(data, envelope.included, simplify);
			const byId = new Map(records.map((record, index) => [String(data[index].id), record]));
			for (const { itemIndex, location } of group) {
				output[itemIndex] = {
					json: byId.get(String(location.id)) ?? location,
					pairedItem: { item: itemIndex },
				};
			}
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, first);
			for (const { itemIndex } of group) output[itemIndex] = errorItem(error, itemIndex);
		}
	}
	return output;
}

export const updateMany: OperationModule = {
	description: forOperation('location', 'updateMany', properties),
	endpoint: {
		method: 'PATCH',
		path: '/locations',
		body: { fields: ['id'], collections: ['updateFields'], schema: locationSchema },
	},
	executeAll,
};
