/** Paging through a collection, with the guards that stop it. */

import { pathWithinApi } from './connection';

export interface PageOptions {
	returnAll: boolean;
	/** Records wanted when not returning all. */
	limit?: number;
}

/** The next page to ask for: by its number, or the path and query of the link the last one gave. */
export type NextPage = { number: number } | { path: string };

/** One page as read: its records, how to output some of them, and how it points to the next. */
export interface Page<R, O> {
	records: R[];
	/** Output records for some of the page's records, in order. */
	output: (records: R[]) => O[];
	/** The link to the next page, when the answer gives one. */
	nextLink?: string;
	/** Whether the answer has links at all: without them, a full page means there may be more. */
	linked: boolean;
}

/** Why paging stopped with an error rather than a silent cut, and how many records it had read. */
export type PagingRefusal =
	| { reason: 'too many pages'; read: number }
	| { reason: 'link outside'; link: string; read: number };

export interface Paging {
	/** The records wanted: Infinity for all. */
	wanted: number;
	pageSize: number;
	maxPages: number;
	/** Next links are followed only below it. */
	baseUrl: string;
}

/** How many records a list asks for, and the page size that reads them in the fewest pages. */
export function pagingFor(
	pages: PageOptions,
	maxPageSize: number,
): Pick<Paging, 'wanted' | 'pageSize'> {
	const wanted = pages.returnAll ? Infinity : Math.max(1, Math.floor(pages.limit ?? 50));
	// The fewest pages that can hold the records wanted, then the smallest page size that fills them.
	const pageSize = pages.returnAll
		? maxPageSize
		: Math.ceil(wanted / Math.ceil(wanted / maxPageSize));
	return { wanted, pageSize };
}

const pageKey = (records: Array<{ id: string; type: string }>): string =>
	`${records.length}:${records[0]?.type}:${records[0]?.id}:${records[records.length - 1]?.id}`;

/** The page after `page`: its link when new and within the API; by number when it gave no links. */
function nextAfter<R, O>(
	page: Page<R, O>,
	number: number,
	paging: Paging,
	seenLinks: Set<string>,
	refuse: (refusal: PagingRefusal) => Error,
	read: number,
): NextPage | undefined {
	const link = page.nextLink;
	if (link) {
		const path = pathWithinApi(link, paging.baseUrl);
		if (path === undefined) throw refuse({ reason: 'link outside', link, read });
		if (seenLinks.has(path)) return undefined;
		seenLinks.add(path);
		return { path };
	}
	// An answer without links at all: the spec's rule, a full page means there may be more.
	return !page.linked && page.records.length >= paging.pageSize
		? { number: number + 1 }
		: undefined;
}

/**
 * Reads pages from the first until there is no next page, an empty page, or a page or next link
 * already seen; a next link outside the API, or more pages than `maxPages`, is refused. Each page's
 * records are output as it arrives, up to the records wanted, so raw pages do not pile up in memory.
 */
export async function readPages<R extends { id: string; type: string }, O>(
	paging: Paging,
	readPage: (next: NextPage) => Promise<Page<R, O>>,
	refuse: (refusal: PagingRefusal) => Error,
): Promise<O[]> {
	const output: O[] = [];
	const seenPages = new Set<string>();
	const seenLinks = new Set<string>();
	let next: NextPage | undefined = { number: 1 };
	for (let number = 1; next && output.length < paging.wanted; number++) {
		if (number > paging.maxPages) throw refuse({ reason: 'too many pages', read: output.length });
		const page = await readPage(next);
		const { records } = page;
		if (records.length === 0) break;
		const key = pageKey(records);
		if (seenPages.has(key)) break;
		seenPages.add(key);
		const take = Math.min(records.length, paging.wanted - output.length);
		for (const record of page.output(take < records.length ? records.slice(0, take) : records))
			output.push(record);
		next = nextAfter(page, number, paging, seenLinks, refuse, output.length);
	}
	return output;
}
