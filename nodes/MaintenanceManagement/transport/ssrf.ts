/**
 * n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED, off by default in 2.x and stricter in 3.0)
 * refuses a request to a blocked address before anything is sent: loopback and the private ranges
 * by default, so a local sandbox or an API on the company network among them. Its error says only
 * that an administrator may allow the address; the node's error names the settings that do.
 */

/** What n8n refused: the host, and the address it resolved to when the block was by address. */
export interface SsrfBlock {
	hostname?: string;
	ip?: string;
}

const BLOCK_ERRORS = new Set(['SsrfBlockedIpError', 'SsrfBlockedHostnameError']);

/** The block behind a failed request, however n8n wrapped its error; undefined for any other failure. */
export function ssrfBlockOf(error: unknown): SsrfBlock | undefined {
	const pending: unknown[] = [error];
	for (let seen = 0; pending.length > 0 && seen < 12; seen++) {
		const current = pending.shift() as {
			name?: unknown;
			hostname?: unknown;
			ip?: unknown;
			cause?: unknown;
		} | null;
		if (!current || typeof current !== 'object') continue;
		if (typeof current.name === 'string' && BLOCK_ERRORS.has(current.name)) {
			const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
			return { hostname: text(current.hostname), ip: text(current.ip) };
		}
		pending.push(current.cause);
	}
	return undefined;
}

/** A URL's host written as an IP address: IPv4 as the URL parser writes it, or IPv6 in brackets. */
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const ipOf = (hostname: string): string | undefined =>
	IPV4.test(hostname)
		? hostname
		: hostname.startsWith('[') && hostname.endsWith(']')
			? hostname.slice(1, -1)
			: undefined;

/**
 * The setting that lets a base URL through, as n8n reads them: a host written as an IP address is
 * checked against N8N_SSRF_ALLOWED_IP_RANGES only (N8N_SSRF_ALLOWED_HOSTNAMES never matches it), a host
 * name is let through by N8N_SSRF_ALLOWED_HOSTNAMES whatever it resolves to.
 */
function allowance(hostname: string): string {
	const ip = ipOf(hostname);
	if (ip === undefined) return `${hostname} to N8N_SSRF_ALLOWED_HOSTNAMES`;
	return `${ip}/${ip.includes(':') ? 128 : 32} to N8N_SSRF_ALLOWED_IP_RANGES`;
}

/** The node error's message and description for a request n8n's SSRF protection refused. */
export function ssrfMessage(
	block: SsrfBlock,
	baseUrl: string,
): { message: string; description: string } {
	const urlHost = new URL(baseUrl).hostname;
	const host = block.hostname ?? urlHost;
	const address = block.ip ? `${host} (${block.ip})` : host;
	return {
		message: `n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) refused the request to ${address}`,
		description: `Nothing was sent. To let this n8n reach ${baseUrl}, an administrator adds ${allowance(urlHost)} and restarts n8n.`,
	};
}
