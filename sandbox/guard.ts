import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether an origin (`http://host:port`) is this sandbox on a loopback name. */
const isOwnOrigin = (origin: string, port: number): boolean => {
	try {
		const url = new URL(origin);
		return url.protocol === 'http:' && LOOPBACK.has(url.hostname) && Number(url.port) === port;
	} catch {
		return false;
	}
};

/** Whether a request's Host header names this sandbox on a loopback name and its port. */
export const isOwnHost = (headers: IncomingHttpHeaders, port: number): boolean =>
	isOwnOrigin(`http://${headers.host ?? ''}`, port);

const mediaType = (headers: IncomingHttpHeaders): string =>
	String(headers['content-type'] ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();

/**
 * Why a request to the API routes is refused before anything in it is read, or undefined when it may go
 * on: 421 when its Host is not this sandbox on a loopback name (DNS rebinding), 415 when it declares a
 * body that is not JSON, or sends a body with no type (a web page's no-cors `text/plain` or form POST).
 */
export function apiRefusal(
	headers: IncomingHttpHeaders,
	port: number,
): { status: 415 | 421; message: string } | undefined {
	if (!isOwnHost(headers, port))
		return {
			status: 421,
			message: `Misdirected request: the sandbox answers only requests addressed to 127.0.0.1:${port}, localhost:${port} or [::1]:${port}.`,
		};
	const type = mediaType(headers);
	const hasBody =
		headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
	if (type === '' ? hasBody : type !== 'application/json')
		return {
			status: 415,
			message:
				'Unsupported media type: send the body as JSON, with Content-Type: application/json.',
		};
	return undefined;
}

/**
 * Why a request to the control API or the console is refused, or undefined when it may go on.
 *
 * - Its Host must be a loopback name with the sandbox's port, so a page whose own name resolves to
 *   127.0.0.1 (DNS rebinding) cannot read or drive it.
 * - A GET or HEAD passes: the control API only reads on either (control.ts), so a link, an image or
 *   a no-cors fetch from any page changes none of its settings. On the API routes such a request has
 *   no token: it is logged as refused, without its body, and uses up no fault (apiHandler.ts).
 * - A call that changes state must not come from another origin (its `Origin`, and its `Sec-Fetch-Site`
 *   where the browser sends one) and must be JSON: a browser sends JSON to another origin only after a
 *   preflight, which the sandbox never grants, so a cross-site form or `text/plain` fetch is refused.
 */
export function refusal(
	method: string,
	headers: IncomingHttpHeaders,
	port: number,
): string | undefined {
	if (!isOwnHost(headers, port))
		return `The control API answers only requests addressed to 127.0.0.1:${port}, localhost:${port} or [::1]:${port}`;
	if (method === 'GET' || method === 'HEAD') return undefined;
	if (headers.origin !== undefined && !isOwnOrigin(headers.origin, port))
		return `A call that changes the sandbox must come from its own console, not from ${headers.origin}`;
	const site = headers['sec-fetch-site'];
	if (site !== undefined && site !== 'same-origin' && site !== 'none')
		return `A call that changes the sandbox must come from its own console (Sec-Fetch-Site: ${site})`;
	if (mediaType(headers) !== 'application/json')
		return 'A call that changes the sandbox must send Content-Type: application/json';
	return undefined;
}
