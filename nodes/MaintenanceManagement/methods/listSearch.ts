import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { ENDPOINTS, type OperationId, type QueryName } from '../../shared/endpoints.generated';
import { apiRequest } from '../transport';

const PAGE_SIZE = 100;

type ListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/**
 * A searchable, paginated list over the document's list operation named, its search sent as `search`,
 * an `s_<field>_like` filter the document lists for that operation (any other name does not compile).
 */
const searchCollection = <const Id extends OperationId>(
	operationId: Id,
	search: QueryName<Id>,
	label: (attributes: IDataObject, id: string) => string,
): ListSearch =>
	async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const page = paginationToken ? Number(paginationToken) : 1;
		const qs: IDataObject = { page, limit: PAGE_SIZE };
		if (filter) qs[search] = filter;
		const { path } = ENDPOINTS[operationId];
		const envelope = await apiRequest(this, { method: 'GET', path, qs });
		const data = Array.isArray(envelope.data) ? envelope.data : [];
		return {
			results: data.map((resource) => ({
				name: label(resource.attributes ?? {}, resource.id),
				value: resource.id,
			})),
			paginationToken:
				data.length === PAGE_SIZE && envelope.links?.next ? String(page + 1) : undefined,
		};
	};

const withCode = (name: unknown, code: unknown, id: string): string =>
	`${String(name ?? id)}${code ? ` (${String(code)})` : ''}`;

export const searchLocations = searchCollection('getLocations', 's_name_like', (attributes, id) =>
	withCode(attributes.full_name ?? attributes.name, attributes.full_code ?? attributes.code, id),
);

export const searchSuppliers = searchCollection('getSuppliers', 's_name_like', (attributes, id) =>
	withCode(attributes.name, attributes.code, id),
);

export const searchBuyOrders = searchCollection(
	'getBuyOrders',
	's_code_like',
	(attributes, id) =>
		`${String(attributes.code ?? id)}${attributes.state ? ` · ${String(attributes.state)}` : ''}`,
);
