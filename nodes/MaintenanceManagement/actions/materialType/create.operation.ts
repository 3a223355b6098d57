import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import { lazy, text } from '../../../shared/schemas';
import { additionalFields } from '../../../shared/fields';
import { sendOperation } from '../../../shared/registry';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'The name of the material type, as lists show it',
	},
	{
		displayName: 'Parent ID',
		name: 'parent_id',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3',
		description:
			'ID of the material type folder to create it in: parent_id or material_type_id from Material Type → Create, or the list in the service',
	},
	additionalFields([
		{
			displayName: 'Code',
			name: 'code',
			type: 'string',
			default: '',
			description: 'Unique code. Leave it out to have one generated.',
		},
	]),
];

const schema = lazy(() =>
	z
		.object({
			name: text(),
			parent_id: z.preprocess(
				(value) => (typeof value === 'number' ? String(value) : value),
				text(),
			),
			code: text().optional(),
		})
		.strict(),
);

export const create = sendOperation('createMaterialType', properties, {
	body: {
		fields: ['name', 'parent_id'],
		collections: ['additionalFields'],
		schema,
		unique: ['code'],
	},
});
