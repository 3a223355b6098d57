import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

/*
 * The field helpers shared by the operations. The collections take their options as the literal array
 * written in the operation file, so n8n's lint rules still read every option there; the order of the
 * options, which those rules cannot see through a call, is checked by the description tests.
 */

/** The optional body fields of a create, as an "Additional Fields" collection. */
export const additionalFields = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options,
});

/** The fields an update may change, as an "Update Fields" collection. */
export const updateFields = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options,
});

/** The description of a quote or sell order line, which SERVICE lines need (see checkLineType). */
export const lineDescriptionProperty: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: 'Required for SERVICE lines',
};

/** A field named and labelled, with the rest of its definition. */
const field = <N extends string>(
	displayName: string,
	name: N,
	rest: Omit<INodeProperties, 'displayName' | 'name'>,
): INodeProperties & { name: N } => ({ displayName, name, ...rest });

/** A yes/no field, off by default. */
export const booleanField = <N extends string>(displayName: string, name: N, description: string) =>
	field(displayName, name, { type: 'boolean', default: false, description });

/** A whole-number field, 0 unless told otherwise. */
export const wholeNumber = (
	displayName: string,
	name: string,
	description?: string,
	defaultValue = 0,
) =>
	field(displayName, name, {
		type: 'number',
		typeOptions: { numberPrecision: 0 },
		default: defaultValue,
		...(description ? { description } : {}),
	});

/**
 * An ID field: it starts empty, as no record has the ID 0, and its placeholder shows the form it
 * expects. An added filter left empty is refused before sending; an empty body field is not sent.
 */
export const idField = <N extends string>(displayName: string, name: N, description: string) =>
	field(displayName, name, { type: 'string', default: '', placeholder: 'e.g. 12', description });

/** The word null (any case, spaces around it ignored): send null, which the API takes to clear the field. */
export const toNull = (value: unknown): unknown =>
	typeof value === 'string' && value.trim().toLowerCase() === 'null' ? null : value;

/** A text field of an update that the word null clears. */
export const clearableText = (displayName: string, name: string, description: string) =>
	field(displayName, name, {
		type: 'string',
		default: '',
		placeholder: 'e.g. text, or null to clear it',
		description: `${description}. Enter null to clear it.`,
	});

/** The schema of a clearable text field: text, or null (also the word null) to clear it. */
export const nullableText = () =>
	z
		.preprocess(
			toNull,
			z.string({ invalid_type_error: 'must be text, or null to clear it' }).nullable(),
		)
		.optional();

/** The ID of what a line of one type refers to. */
const lineReference = (what: string, name: string, type: string) =>
	idField(`${what} ID`, name, `The ID of the ${what.toLowerCase()}; required for ${type} lines`);

/**
 * Material ID, Observations and Other Cost ID, as quote and sell order lines offer them (in the
 * options' alphabetical order): which ID a line needs depends on its type (see checkLineType).
 */
export const lineReferenceFields: INodeProperties[] = [
	lineReference('Material', 'material_id', 'MATERIAL'),
	{ displayName: 'Observations', name: 'observations', type: 'string', default: '' },
	lineReference('Other Cost', 'other_cost_id', 'OTHER_COST'),
];

/** The refusal of an update that names no field to change, on Update Fields. */
export const NOTHING_TO_CHANGE = {
	message: 'has nothing to change: add at least one field under Update Fields',
	path: ['updateFields'],
};

/** A required Name, and a required Code, which the API keeps unique, described as given. */
export const nameAndCode = (
	nameDescription: string,
	codeDescription: string,
): INodeProperties[] => [
	field('Name', 'name', {
		type: 'string',
		required: true,
		default: '',
		description: nameDescription,
	}),
	field('Code', 'code', {
		type: 'string',
		required: true,
		default: '',
		description: codeDescription,
	}),
];
