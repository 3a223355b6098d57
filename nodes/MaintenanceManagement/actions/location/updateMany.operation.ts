import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { choices } from '../../../shared/options';
import { refusal } from '../../../shared/errors/nodeError';
import { locationUpdatedTwice } from '../../../shared/errors/messages';
import { id, lazy, number, oneOf, text } from '../../../shared/schemas';
import { toItems } from '../../../shared/simplify';
import { recordsOf } from '../../transport';
import { updateFields, NOTHING_TO_CHANGE } from '../../../shared/fields';
import { recordLocator } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';
import type { Grouping } from '../../executor/grouped';
import { sendGrouped } from '../../executor/grouped';
import type { OperationModule } from '../../../shared/types';

/** The spec's limit of locations per PATCH /locations request. */
export const LOCATIONS_PER_REQUEST = 50;

export const ORIENTATIONS = choices({ North: 'North', South: 'South', West: 'West', East: 'East' });

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
	updateFields([
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
			options: ORIENTATIONS.options,
			default: 'North',
		},
		{ displayName: 'Volume', name: 'volume', type: 'number', default: 0 },
	]),
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
			orientation: oneOf(ORIENTATIONS.values).optional(),
		})
		.strict()
		.refine((location) => Object.keys(location).length > 1, NOTHING_TO_CHANGE),
);

/**
 * Up to 50 locations per request; each item's output is its location as the answer gives it back, and
 * an item whose location the answer omits fails as not confirmed.
 */
const grouping: Grouping = {
	size: LOCATIONS_PER_REQUEST,
	/**
	 * One location once per run: the API gives back one record per location, so a second change of
	 * the same location would be reported with the other's values and one change silently lost.
	 */
	check(context, part, gathered) {
		const earlier = gathered.find((other) => String(other.body.id) === String(part.body.id));
		if (!earlier) return;
		throw refusal(
			context.getNode(),
			locationUpdatedTwice(part.itemIndex, String(part.body.id), earlier.itemIndex),
			{ itemIndex: part.itemIndex, fields: ['id'] },
		);
	},
	body: (group) => ({ locations: group.map((part) => part.body) }),
	share: (group, envelope, simplify) => {
		const data = recordsOf(envelope);
		const records = toItems(data, envelope.included, simplify);
		const byId = new Map(records.map((record, index) => [String(data[index].id), record]));
		return group.map(({ body }) => byId.get(String(body.id)));
	},
};

export const updateMany: OperationModule = sendOperation(
	'updateMultipleLocations',
	properties,
	{
		answers: 'list',
		body: { fields: ['id'], collections: ['updateFields'], schema: locationSchema },
	},
	async function (context, items) {
		return await sendGrouped(context, updateMany, items.length, grouping);
	},
);
