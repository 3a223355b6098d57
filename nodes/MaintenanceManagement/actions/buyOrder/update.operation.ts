import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { choices } from '../../../shared/options';
import { id, lazy, oneOf } from '../../../shared/schemas';
import {
	clearableText,
	idField,
	nullableText,
	toNull,
	updateFields,
	NOTHING_TO_CHANGE,
} from '../../../shared/fields';
import { recordLocator } from '../../../shared/properties';
import { sendOperation } from '../../../shared/registry';

const RELATED_TO_TYPES = choices({
	FAILURE: 'Work Order (Failure)',
	SCHEDULED_WORK: 'Planned Job Order (Scheduled Work)',
});
/** The related-to types, after None, which removes the relation (null for both fields). */
const RELATED_TO_OPTIONS = [
	{
		name: 'None (Remove the Relation)',
		value: 'null',
		description: 'Sends null for both Related To Type and Related To ID',
	},
	...RELATED_TO_TYPES.options,
];

const properties: INodeProperties[] = [
	{
		...recordLocator('buyOrderId', 'Buy Order', 'searchBuyOrders'),
		description:
			'The buy order (purchase) to update: pick it from the list (searched by code) or enter its ID',
	},
	updateFields([
		clearableText('Description', 'description', 'Description of the order'),
		clearableText(
			'External Sale ID',
			'external_sale_id',
			'Reference of the sale in an external system, such as an ERP',
		),
		clearableText('Internal Sale ID', 'internal_sale_id', 'Internal reference of the sale'),
		idField(
			'Related To ID',
			'related_to_id',
			'ID of the work order (failure) or planned job order (scheduled work) the order relates to. Set it together with Related To Type; leave it out when removing the relation.',
		),
		{
			displayName: 'Related To Type',
			name: 'related_to_type',
			type: 'options',
			options: RELATED_TO_OPTIONS,
			default: 'FAILURE',
			description:
				'What Related To ID points to. Set it together with Related To ID, or choose None to remove the relation.',
		},
		{
			displayName: 'Supplier ID',
			name: 'supplier_id',
			type: 'string',
			default: '',
			placeholder: 'e.g. 12, or null',
			description:
				'ID of the supplier, or the word null to remove it, which the API allows only in state SAVED_AS_DRAFT. Outside drafts a SERVICE order needs a supplier.',
		},
		idField(
			'Warehouse ID',
			'warehouse_id',
			'ID of the warehouse that receives the materials; outside drafts a MATERIAL order needs one',
		),
	]),
];

const SUPPLIER_MESSAGE =
	'must be a supplier ID (a whole number), or the word null to remove the supplier (allowed only while the order is SAVED_AS_DRAFT)';

/** Related To Type and Related To ID go together: both set, both left out, or None (null) alone. */
function checkRelation(
	body: { related_to_type?: string | null; related_to_id?: number | null },
	issue: (path: string[], message: string) => void,
) {
	const type = body.related_to_type;
	const relatedId = body.related_to_id;
	if (type === null) {
		if (relatedId !== undefined && relatedId !== null)
			issue(
				['related_to_id'],
				'must be left out when Related To Type is None: remove Related To ID to remove the relation',
			);
	} else if (type !== undefined && (relatedId === undefined || relatedId === null)) {
		issue(
			['related_to_id'],
			'is required together with the other: add Related To ID under Update Fields, or remove both',
		);
	} else if (type === undefined && relatedId !== undefined) {
		issue(
			['related_to_type'],
			'is required together with the other: add Related To Type under Update Fields (None removes the relation), or remove both',
		);
	}
}

const schema = lazy(() =>
	z
		.object({
			supplier_id: z
				.preprocess(
					(value) => {
						const cleared = toNull(value);
						return typeof cleared === 'string' && /^\s*\d+\s*$/.test(cleared)
							? Number(cleared)
							: cleared;
					},
					z
						.number({ invalid_type_error: SUPPLIER_MESSAGE })
						.int(SUPPLIER_MESSAGE)
						.positive(SUPPLIER_MESSAGE)
						.nullable(),
				)
				.optional(),
			warehouse_id: id().optional(),
			description: nullableText(),
			internal_sale_id: nullableText(),
			external_sale_id: nullableText(),
			related_to_type: z.preprocess(toNull, oneOf(RELATED_TO_TYPES.values).nullable()).optional(),
			related_to_id: z.preprocess(toNull, id().nullable()).optional(),
		})
		.strict()
		.superRefine((body, context) => {
			if (Object.keys(body).length === 0)
				context.addIssue({ code: 'custom', ...NOTHING_TO_CHANGE });
			checkRelation(body, (path, message) => context.addIssue({ code: 'custom', path, message }));
		})
		// Removing the relation: the API takes null for both fields together.
		.transform((body) => (body.related_to_type === null ? { ...body, related_to_id: null } : body)),
);

export const update = sendOperation('updateBuyOrder', properties, {
	pathParams: { 'buy-order-id': 'buyOrderId' },
	body: { collections: ['updateFields'], schema },
});
