import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../transport';

const PAGE_SIZE = 100;

/** One page of a collection, filtered by `s_<field>_like`, as a searchable list. */
async function searchCollection(
	this: ILoadOptionsFunctions,
	path: string,
	searchField: string,
	label: (attributes: IDataObject, id: string) => string,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const qs: IDataObject = { page, limit: PAGE_SIZE };
	if (filter) qs[`s_${searchField}_like`] = filter;
	const envelope = await apiRequest.call(this, { method: 'GET', path, qs });
	const data = Array.isArray(envelope.data) ? envelope.data : [];
	return {
		results: data.map((resource) => ({
			name: label(resource.attributes ?? {}, resource.id),
			value: resource.id,
		})),
		paginationToken: data.length === PAGE_SIZE && envelope.links?.next ? String(page + 1) : undefined,
	};
}

const withCode = (name: unknown, code: unknown, id: string): string =>
	`${String(name ?? id)}${code ? ` (${String(code)})` : ''}`;

export async function searchLocations(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollection.call(
		this,
		'/locations',
		'name',
		(attributes, id) => withCode(attributes.full_name ?? attributes.name, attributes.full_code ?? attributes.code, id),
		filter,
		paginationToken,
	);
}

export async function searchSuppliers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollection.call(
		this,
		'/suppliers',
		'name',
		(attributes, id) => withCode(attributes.name, attributes.code, id),
		filter,
		paginationToken,
	);
}

export async function searchBuyOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchCollection.call(
		this,
		'/sales/buy-orders',
		'code',
		(attributes, id) => `${String(attributes.code ?? id)}${attributes.state ? ` · ${String(attributes.state)}` : ''}`,
		filter,
		paginationToken,
	);
}
