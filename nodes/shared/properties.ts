import type { INodeProperties, INodePropertyOptions, IParameterBuilderHint } from 'n8n-workflow';

import { byText } from './options';

/*
 * The property catalogue: the node's properties that many operations share, as the editor shows them.
 * A `builderHint` is read by n8n's AI workflow builders alone (the type definitions n8n generates from
 * the description); the panel does not show it and no workflow saves it.
 */

/** For the AI workflow builders: a field of the request's path takes the record's ID, never its code. */
export const pathIdHint: IParameterBuilderHint = {
	propertyHint:
		"The record's whole-number ID, such as 15, from an earlier node's output (its id, or a field such as client_id); never its code or name, which the node refuses before sending",
};

/** Return All and Limit, as every list operation has them. */
export const listProperties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		builderHint: {
			propertyHint:
				'true reads every page by itself, so no loop or pagination node is needed; false returns at most Limit (50 by default)',
		},
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** The action node's versions, and the current one: the version the editor adds. */
export const VERSIONS = [1, 2];
export const CURRENT_VERSION = 2;

/** Shown for version 1 of the node only, where it keeps its original output. */
const VERSION_1 = { '@version': [1] };
/** Shown from version 2 of the node on. */
const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return one flat item per record (ID, type and attributes side by side, expanded relations resolved) instead of the raw API shape',
	builderHint: {
		propertyHint:
			'Node version 1 only (version 2 has Output). true: one flat item per record, fields beside id and type ($json.status); false: fields under attributes ($json.attributes.status)',
	},
	displayOptions: { show: VERSION_1 },
};

/**
 * How each record is output: Simplify in version 1 of the node; from version 2 the Output choice
 * (Simplified, Raw or Selected Fields), as n8n's nodes with large records have it.
 */
export const outputProperties: INodeProperties[] = [
	simplifyProperty,
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'Simplified',
				value: 'simplified',
				description:
					'The key fields of each record, without empty values or internal fields (compact for people and AI agents)',
			},
			{
				name: 'Raw',
				value: 'raw',
				description: 'Each record as the API sends it, with every attribute',
			},
			{
				name: 'Selected Fields',
				value: 'selected',
				description: 'The record ID and the fields you name',
			},
		],
		default: 'simplified',
		builderHint: {
			propertyHint:
				"simplified (the default): flat items with the key fields ($json.status); raw: the API's shape, the fields under attributes ($json.attributes.status); selected: the id and the Fields named",
		},
		displayOptions: { show: FROM_VERSION_2 },
	},
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'string',
		default: '',
		placeholder: 'e.g. status, description, priority',
		description:
			"The fields to output, separated by commas, by the API's own names (an attribute, an expanded relation, custom_fields, or record_type for the record's type); the record ID is always output",
		displayOptions: { show: { ...FROM_VERSION_2, output: ['selected'] } },
	},
];

/** Builds the `expanded` multi-select from the relation names the spec gives for an endpoint. */
export const expandedProperty = (relations: string[]): INodeProperties => ({
	displayName: 'Include Related (Expanded)',
	name: 'expanded',
	type: 'multiOptions',
	options: relationOptions(relations),
	default: [],
	description:
		'Related records to include in the answer; in simplified output, each is nested under its relation name',
});

/** The key/value "Query Parameters" option for the service's other filters. */
export const queryParametersOption: INodeProperties = {
	displayName: 'Query Parameters',
	name: 'queryParameters',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Query Parameter',
	description:
		'More filters the service understands, such as s_FIELD (equals), s_FIELD_in (comma list), s_FIELD_like, date_min_FIELD or date_max_FIELD; the service refuses one an endpoint does not take',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameters',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. s_name_like',
				},
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

export const listOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [queryParametersOption],
};

/** Retry and timeout limits, shown for every operation, and the paging limit, shown with Return All. */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Max Attempts on Rate Limit',
			name: 'maxAttempts',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 10 },
			default: 5,
			description:
				'How many times a request is tried in all (at most 10) when the API answers 429 (any method) or, for reads only, 502, 503, 504 or a dropped connection. A 500 is tried twice at most.',
		},
		{
			displayName: 'Max Pages',
			name: 'maxPages',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 10000,
			description:
				'The most pages Return All reads; beyond it the node stops with an error rather than output a partial list',
			// Only a list read with Return All reads pages: shown there alone.
			displayOptions: { show: { '/returnAll': [true] } },
		},
		{
			displayName: 'Max Total Wait (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'A cap on all the waiting of the whole execution (every item and page), for the rate limit and between attempts; 0 for none. At 60 requests a minute, 300 items take about 5 minutes.',
		},
		{
			displayName: 'Max Wait per Request (Seconds)',
			name: 'maxRequestWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 300,
			description:
				'The most one request waits, for the rate limit to reset and between its attempts. When the API asks for longer, the item fails unsent, as do the next ones until the limit resets.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 0.1, numberPrecision: 1 },
			default: 60,
			description:
				'How long one request may take in all, until its whole answer has arrived. A read that takes longer is tried again; a write is not, and may have been applied.',
		},
	],
};

/** Turns API relation names into multi-select options with readable names. */
const relationOptions = (names: string[]): INodePropertyOptions[] =>
	names
		.map((value) => ({
			name: value
				.replace(/_/g, ' ')
				.replace(/([a-z])([A-Z])/g, '$1 $2')
				.replace(/\b\w/g, (c) => c.toUpperCase()),
			value,
		}))
		.sort(byText('name'));

/**
 * A picker for a record that has a list endpoint: search the list, or enter an ID. The By ID mode has
 * no `validation`: n8n runs such a regular expression in a vm with a 250 ms wall-clock limit, which a
 * loaded machine exceeds ("Regular expression execution timed out"). The node checks the ID itself,
 * typed or from an expression, naming the field, before anything is sent.
 */
export const recordLocator = (
	name: string,
	displayName: string,
	searchListMethod: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	builderHint: {
		propertyHint:
			"Mode id with the record's whole-number ID, such as 42, from an earlier node's output (its id, or a field such as supplier_id); never its code or name, which the node refuses before sending",
	},
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod, searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 42',
			hint: 'The whole-number ID of the record, such as 42',
		},
	],
});
