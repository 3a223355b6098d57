/** The API's answers as the spec writes them: the error body, validation problems, paging and lists. */
import type { Resource } from './data';

/** An error answer in the spec's error body. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly properties?: Record<string, string[]>,
	) {
		super(message);
	}

	body(): Record<string, unknown> {
		const error: Record<string, unknown> = {
			http_code: this.status,
			message: this.message,
			more_info:
				this.status === 404 ? null : `https://developers.example.com/errors/${this.status}`,
		};
		if (this.properties) {
			error.properties = this.properties;
			error.dev_message = 'See the properties section for the failing properties.';
		}
		return { status: 'error', error };
	}
}

export const MESSAGES = {
	400: 'Property validation error.',
	401: 'Authentication token invalid.',
	403: 'Action unauthorized',
	404: 'Resource not found',
	413: 'Request body too large: the limit is 10 MB.',
	429: 'Too Many Requests.',
	500: 'An error has occurred during the request.',
} as const;

export const notFound = (): ApiError => new ApiError(404, MESSAGES[404]);

/** Collects property validation problems, then throws one 400 with all of them. */
export class Problems {
	readonly properties: Record<string, string[]> = {};

	add(field: string, message: string): void {
		(this.properties[field] ??= []).push(message);
	}

	has(field: string): boolean {
		return field in this.properties;
	}

	throwIfAny(): void {
		if (Object.keys(this.properties).length)
			throw new ApiError(400, MESSAGES[400], this.properties);
	}
}

type Body = Record<string, unknown>;

export const asObject = (value: unknown): Body =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};

export interface Answer {
	status: number;
	body: unknown;
}

export interface ListQuery {
	page: number;
	limit: number;
}

/**
 * Reads `page` and `limit` as the spec's Limits section says: default 1 and 200, limit capped at 2000, and
 * at `cap` when the resource has a lower page-size cap (as the live API has for some resources).
 */
export function readPaging(query: URLSearchParams, cap = Infinity): ListQuery {
	const problems = new Problems();
	const read = (name: string, fallback: number): number => {
		const raw = query.get(name);
		if (raw === null || raw === '') return fallback;
		const value = Number(raw);
		if (!Number.isInteger(value) || value < 1) {
			problems.add(name, 'This value should be a positive integer.');
			return fallback;
		}
		return value;
	};
	const page = read('page', 1);
	const limit = Math.min(read('limit', 200), 2000, cap);
	problems.throwIfAny();
	return { page, limit };
}

/** A collection answer: data, included, meta.pagination with all five members, and links. */
export function collectionAnswer(
	items: Resource[],
	paging: ListQuery,
	self: URL,
	included: Resource[] = [],
): Record<string, unknown> {
	const { page, limit } = paging;
	const start = (page - 1) * limit;
	const data = items.slice(start, start + limit);
	const lastPage = Math.max(1, Math.ceil(items.length / limit));
	const link = (target: number): string => {
		const url = new URL(self);
		url.searchParams.set('page', String(target));
		url.searchParams.set('limit', String(limit));
		return url.toString();
	};
	const links: Record<string, string> = { self: link(page), first: link(1), last: link(lastPage) };
	if (page < lastPage) links.next = link(page + 1);
	if (page > 1) links.prev = link(page - 1);
	return {
		data,
		included,
		meta: {
			pagination: {
				total: data.length,
				count: data.length,
				per_page: limit,
				current_page: page,
				total_pages: page < lastPage ? page + 1 : page,
			},
		},
		links,
	};
}
