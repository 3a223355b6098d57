import type { INodeProperties } from 'n8n-workflow';

import type { Endpoint, OperationEntry, OperationModule, ResourceModule } from '../types';
import { ENDPOINTS, type OperationId } from './endpoints.generated';
import { expandedProperty, listOptions, listProperties, outputProperties } from './properties';
import { byText } from '../../helpers/byText';

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
 * A "Get Many" operation of the document's operation named: Return All / Limit, optional Filters (sent
 * as query parameters), an optional `expanded` multi-select, the output choice, and the Query
 * Parameters option.
 */
export function listOperation(
	operationId: OperationId,
	extra: {
		filters?: INodeProperties[];
		/** The relation names `expanded` offers. */
		expanded?: string[];
		notice?: INodeProperties;
		/** Checks the filters before anything is sent. */
		querySchema?: Endpoint['querySchema'];
	} = {},
): OperationModule {
	const properties: INodeProperties[] = [
		...(extra.notice ? [extra.notice] : []),
		...listProperties,
	];
	if (extra.filters) {
		properties.push({
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: extra.filters,
		});
	}
	if (extra.expanded) properties.push(expandedProperty(extra.expanded));
	properties.push(...outputProperties, listOptions);
	return {
		description: properties,
		endpoint: {
			...endpointOf(operationId),
			answers: 'page',
			query: extra.expanded ? ['expanded'] : undefined,
			queryCollections: extra.filters ? ['filters'] : undefined,
			...(extra.querySchema ? { querySchema: extra.querySchema } : {}),
		},
	};
}

/**
 * An operation that sends one request per item (or per group, with `executeAll`) to the document's
 * operation named.
 */
export const sendOperation = (
	operationId: OperationId,
	description: INodeProperties[],
	endpoint: Omit<Endpoint, 'method' | 'path' | 'answers'> & Partial<Pick<Endpoint, 'answers'>>,
	executeAll?: OperationModule['executeAll'],
): OperationModule => ({
	description,
	endpoint: { ...endpointOf(operationId), answers: 'record', ...endpoint },
	...(executeAll ? { executeAll } : {}),
});

/** Whether spec/openapi.yaml deprecates an endpoint (the endpoint table's `deprecated`). */
const isDeprecated = ({ method, path }: Endpoint): boolean =>
	Object.values(ENDPOINTS).some(
		(endpoint) => endpoint.method === method && endpoint.path === path && endpoint.deprecated,
	);

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
 * the order their properties appear. The selector lists them by name and defaults to the first. Each
 * operation's properties are shown for this resource and that operation only: the names are written
 * here and nowhere else, and their types (see resources.ts) make a wrong pair a compile error.
 * "(Deprecated)" is added from the document: to each operation it deprecates, and to the resource
 * when it deprecates every one of its operations.
 */
export function defineResource<const R extends string, const O extends string>(
	resource: R,
	label: string | { displayName: string; hint: string },
	operations: Array<OperationEntry<O>>,
	defaultOperation: O = operations[0].value,
): ResourceModule<R, O> {
	const { displayName, hint } =
		typeof label === 'string' ? { displayName: label, hint: undefined } : label;
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations.map(selectorOption).sort(byText('name')),
		default: defaultOperation,
	};
	const deprecated = operations.every(({ run }) => isDeprecated(run.endpoint));
	return {
		value: resource,
		displayName: deprecated ? `${displayName} (Deprecated)` : displayName,
		...(hint ? { hint } : {}),
		description: [
			selector,
			...operations.flatMap(({ value, run }) => forOperation(resource, value, run.description)),
		],
		operations: Object.fromEntries(operations.map(({ value, run }) => [value, run])) as Record<
			O,
			OperationModule
		>,
	};
}
