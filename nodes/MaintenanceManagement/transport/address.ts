/**
 * The API's addresses: the base URL and the links the API sends back in normal form (so that a base
 * URL typed in any equivalent way matches them), and a request's path, whose parameters are records'
 * IDs, URL-encoded, or nothing is sent.
 */

import { QUOTE_LIMITS, quoted } from '../../shared/errors/text';

/** Percent-encoded bytes: upper-case hex, and the unreserved characters (RFC 3986) decoded. */
const samePercentEncoding = (path: string): string =>
	path.replace(/%[0-9a-f]{2}/gi, (escape) => {
		const character = String.fromCharCode(parseInt(escape.slice(1), 16));
		return /[A-Za-z0-9\-._~]/.test(character) ? character : escape.toUpperCase();
	});

/**
 * The base URL in normal form (WHATWG URL serialisation, then the percent-encoding above), without
 * a trailing slash. The value must already parse as a URL.
 */
export function normalBaseUrl(typed: string): string {
	const url = new URL(typed);
	return `${url.origin}${samePercentEncoding(url.pathname)}`.replace(/\/+$/, '');
}

/**
 * The path and query a link leads to below the API's base URL (in normal form, starting with `/`),
 * or undefined when the link leads to another origin or outside the base path.
 */
export function pathWithinApi(link: string, baseUrl: string): string | undefined {
	const root = new URL(`${baseUrl}/`);
	let target: URL;
	try {
		target = new URL(link, root);
	} catch {
		return undefined;
	}
	if (target.origin !== root.origin) return undefined;
	const prefix = samePercentEncoding(root.pathname);
	const path = samePercentEncoding(target.pathname);
	if (!path.startsWith(prefix)) return undefined;
	return `/${path.slice(prefix.length)}${target.search}`;
}

/** What a record's ID in a path is: a whole number, written in digits; the node checks every ID against it before sending. */
export const RECORD_ID = /^\d{1,20}$/;

/**
 * Why a path parameter cannot be sent, or undefined when it can: whether typed, from an expression or
 * filled in by an AI model, it must be a record's ID (`RECORD_ID`), else nothing is sent.
 */
export function pathValueProblem(value: unknown): string | undefined {
	const given = () => `; it is ${quoted(value, QUOTE_LIMITS.name)}`;
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value >= 0
			? undefined
			: `must be a whole-number ID, such as 42${given()}`;
	if (typeof value !== 'string')
		return `must be a whole-number ID, such as 42, given as text or a number${given()}`;
	const trimmed = value.trim();
	if (trimmed === '') return 'is required';
	return RECORD_ID.test(trimmed) ? undefined : `must be a whole-number ID, such as 42${given()}`;
}

/** Fills `{slot}` placeholders of an endpoint path with URL-encoded values. */
export function buildPath(template: string, values: Record<string, string | number>): string {
	return template.replace(/\{([^}]+)\}/g, (_match, slot: string) => {
		const value = values[slot];
		const problem = pathValueProblem(value);
		if (problem) throw new Error(`Path parameter "${slot}" ${problem}`);
		return encodeURIComponent(String(value).trim());
	});
}
