/**
 * The API's addresses in normal form, so that a base URL typed in any equivalent way (upper-case
 * scheme or host, an explicit default port, dot segments, percent-encoding in either case of hex or
 * none) matches the links the API sends back.
 */

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
