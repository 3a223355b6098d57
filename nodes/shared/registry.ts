import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';

import type {
	Endpoint,
	OperationEntry,
	OperationModule,
	QueryFilter,
	ResourceModule,
} from './types';
import { ENDPOINTS, type OperationId, type QueryName } from './endpoints.generated';
import { expandedProperty, listOptions, listProperties, outputProperties } from './properties';
import { byText } from './options';
import { lazy } from './schemas';

/*
 * The registry factories: an operation from its endpoint and properties, and a resource from its
 * operations.
 */

/**
 * The operation's properties, each shown only for its resource and operation. A plain spread rather
 * than n8n-workflow's updateDisplayOptions, whose deep merge was a sixth of the package's load time.
 */
const forOperation = (
	resource: string,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] =>
	properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, resource: [resource], operation: [operation] },
		},
	}));

/** The method and path template of an operation of spec/openapi.yaml, from the endpoint table. */
const endpointOf = (operationId: OperationId): Pick<Endpoint, 'method' | 'path'> => {
	const { method, path } = ENDPOINTS[operationId];
	return { method, path };
};

/**
 * The check of a list's filters before anything is sent: each filter's own check, under its name. Other
 * query parameters (`expanded`, unchecked filters) pass as they are.
 */
const filterSchema = (filters: QueryFilter[]): Endpoint['querySchema'] => {
	const checked = filters.filter((filter) => filter.check);
	if (!checked.length) return undefined;
	return lazy(() =>
		z
			.object(
				Object.fromEntries(
					checked.map(({ property, check }) => [property.name, check!().optional()]),
				),
			)
			.passthrough(),
	);
};

/**
 * A "Get Many" operation of the document's operation named: Return All / Limit, optional Filters (sent
 * as query parameters), an optional `expanded` multi-select, and the Query Parameters option. Each
 * filter's name and `expanded` must be query parameters the document lists for the operation: any
 * other name does not compile.
 */
export function listOperation<const Id extends OperationId>(
	operationId: Id,
	extra: {
		filters?: Array<QueryFilter<QueryName<Id>>>;
		/** The relation names `expanded` offers. */
		expanded?: 'expanded' extends QueryName<Id> ? string[] : never;
	} = {},
): OperationModule {
	const properties: INodeProperties[] = [...listProperties];
	if (extra.filters) {
		properties.push({
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: extra.filters.map((filter) => filter.property),
		});
	}
	if (extra.expanded) properties.push(expandedProperty(extra.expanded));
	properties.push(listOptions);
	const querySchema = filterSchema(extra.filters ?? []);
	return {
		description: properties,
		endpoint: {
			...endpointOf(operationId),
			answers: 'page',
			query: extra.expanded ? ['expanded'] : undefined,
			queryCollections: extra.filters ? ['filters'] : undefined,
			...(querySchema ? { querySchema } : {}),
		},
	};
}

/**
 * An operation that sends one request per item (or per group, with `executeAll`) to the document's
 * operation named.
 */
export const sendOperation = <const Id extends OperationId>(
	operationId: Id,
	description: INodeProperties[],
	endpoint: Omit<Endpoint, 'method' | 'path' | 'answers' | 'query'> &
		Partial<Pick<Endpoint, 'answers'>> & { query?: Array<QueryName<Id>> },
	executeAll?: OperationModule['executeAll'],
): OperationModule => ({
	description,
	endpoint: { ...endpointOf(operationId), answers: 'record', ...endpoint },
	...(executeAll ? { executeAll } : {}),
});

/** The endpoint table's entry of an operation's endpoint. */
const factsOf = ({ method, path }: Endpoint) =>
	Object.values(ENDPOINTS).find((endpoint) => endpoint.method === method && endpoint.path === path);

/** Whether spec/openapi.yaml deprecates an endpoint (the endpoint table's `deprecated`). */
const isDeprecated = (endpoint: Endpoint): boolean => factsOf(endpoint)?.deprecated === true;

/**
 * The operation's properties with the Output choice (and version 1's Simplify), when spec/openapi.yaml
 * says its answer holds records: after its own properties, before its Options collection.
 */
const withOutputChoice = (run: OperationModule): OperationModule => {
	if (!factsOf(run.endpoint)?.records) return run;
	const properties = [...run.description];
	const options = properties.findIndex((property) => property.name === 'options');
	properties.splice(options < 0 ? properties.length : options, 0, ...outputProperties);
	return { ...run, description: properties };
};

/** An operation's selector option, marked as n8n marks a deprecated one when the document deprecates it. */
const selectorOption = ({ name, value, description, action, run }: OperationEntry) =>
	isDeprecated(run.endpoint)
		? {
				name: `${name} (Deprecated)`,
				value,
				description: `(Deprecated) ${description}`,
				action: `${action} (deprecated)`,
			}
		: { name, value, description, action };

/**
 * A resource, defined once: its Resource option, and its operations with their selector options, in
 * the order their properties appear. Each operation whose answer holds records gets the Output choice. The selector lists them by name and defaults to the first given. Each
 * operation's properties are shown for this resource and that operation only: the names are written
 * here and nowhere else, and their types (see resources.ts) make a wrong pair a compile error.
 * "(Deprecated)" is added from the document: to each operation it deprecates, and to the resource
 * when it deprecates every one of its operations.
 */
export function defineResource<const R extends string, const O extends string>(
	resource: R,
	label: string | { displayName: string; hint: string; builderHint?: string },
	operations: Array<OperationEntry<O>>,
): ResourceModule<R, O> {
	const { displayName, hint, builderHint } =
		typeof label === 'string'
			? { displayName: label, hint: undefined, builderHint: undefined }
			: label;
	const [{ value: first }] = operations;
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations.map(selectorOption).sort(byText('name')),
		default: first,
	};
	const modules = operations.map(({ value, run }) => [value, withOutputChoice(run)] as const);
	const deprecated = operations.every(({ run }) => isDeprecated(run.endpoint));
	return {
		value: resource,
		displayName: deprecated ? `${displayName} (Deprecated)` : displayName,
		...(hint ? { hint } : {}),
		...(builderHint ? { builderHint } : {}),
		description: [
			selector,
			...modules.flatMap(([value, run]) => forOperation(resource, value, run.description)),
		],
		operations: Object.fromEntries(modules) as Record<O, OperationModule>,
	};
}
