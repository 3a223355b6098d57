import { createHash, timingSafeEqual } from 'node:crypto';

export type Protection = 'none' | 'query' | 'header' | 'basicAuth';

/** Compares two secrets in constant time: both are hashed first, so their lengths leak nothing. */
export function sameSecret(given: string | undefined, expected: string): boolean {
	if (given === undefined || expected === '') return false;
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The value only when it is one string: a repeated parameter (`?token=a&token=b`) or one n8n's query
 * parser turned into an array or object (`?token[0][a]=1`) carries no secret.
 */
const single = (value: unknown): string | undefined =>
	typeof value === 'string' ? value : undefined;

/** Reads `user:password` from a Basic Authorization header. */
export function basicCredentials(header: unknown): { user: string; password: string } | undefined {
	const value = single(header);
	const match = value?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
	if (!match) return undefined;
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	return colon < 0
		? undefined
		: { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export interface IncomingCall {
	query: Record<string, unknown>;
	headers: Record<string, unknown>;
}

/** Whether an incoming call carries the right secret for the chosen protection. */
export function isAuthorized(
	protection: Protection,
	call: IncomingCall,
	secretName: string,
	credentials: { secret?: string; username?: string } | undefined,
): boolean {
	if (protection === 'none') return true;
	const secret = String(credentials?.secret ?? '');
	if (protection === 'query') return sameSecret(single(call.query[secretName]), secret);
	if (protection === 'header')
		return sameSecret(single(call.headers[secretName.toLowerCase()]), secret);
	const basic = basicCredentials(call.headers.authorization);
	// Without a user name in the credential, any user name is accepted and only the secret counts.
	const username = String(credentials?.username ?? '');
	const userOk = username === '' ? basic !== undefined : sameSecret(basic?.user, username);
	const passwordOk = sameSecret(basic?.password, secret);
	return userOk && passwordOk;
}

/** Header names that carry credentials whatever their value: never output. */
const CREDENTIAL_HEADER = /(^|-)authorization$|^(set-)?cookie$|^x-webhook-secret$/i;

/** How many layers of encoding are undone (a Base64 credential in a percent-encoded URL is two). */
const DECODING_DEPTH = 3;

/** `%41`, `%e2%82%ac`: percent-encoded bytes in either case of hex; read as UTF-8 text. */
const PERCENT_RUN = /(?:%[0-9a-f]{2})+/gi;
/** A run of Base64 or Base64url characters, long enough to hold anything worth hiding. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{4,}/g;

const percentDecoded = (text: string): string =>
	text.replace(PERCENT_RUN, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));

/**
 * The readings one layer of decoding gives: percent-decoded as in a URL, with `+` as a space as in a
 * form, and every Base64 run decoded at each of its four alignments (so a Basic credential or an
 * encoded token is read wherever it starts inside the run).
 */
function decodedOnce(text: string): string[] {
	const readings = [percentDecoded(text), percentDecoded(text.replace(/\+/g, ' '))];
	for (const [run] of text.matchAll(BASE64_RUN))
		for (let start = 0; start < 4 && run.length - start >= 4; start++)
			readings.push(Buffer.from(run.slice(start), 'base64').toString('utf8'));
	return readings;
}

/**
 * Whether a value holds the secret in any of the forms proxies and clients give it: as is,
 * URL-encoded, percent-encoded (hex of any case), form-encoded, in Base64 (Basic credentials) or a
 * mix of these, in any letter case. Headers are bounded by the HTTP server, so is this work.
 */
export function carriesSecret(value: unknown, secret: string): boolean {
	if (secret === '' || value === undefined || value === null) return false;
	if (Array.isArray(value)) return value.some((element) => carriesSecret(element, secret));
	const needle = secret.toLowerCase();
	let layer = new Set([typeof value === 'string' ? value : JSON.stringify(value)]);
	const seen = new Set<string>();
	for (let depth = 0; depth <= DECODING_DEPTH && layer.size > 0; depth++) {
		const next = new Set<string>();
		for (const text of layer) {
			if (seen.has(text)) continue;
			seen.add(text);
			if (text.toLowerCase().includes(needle)) return true;
			if (depth < DECODING_DEPTH) for (const reading of decodedOnce(text)) next.add(reading);
		}
		layer = next;
	}
	return false;
}

/**
 * The headers safe to output: without those that carry credentials by their name, and without any
 * whose name or value holds the webhook secret in some encoding.
 */
export function headersWithoutSecret(
	headers: Record<string, unknown>,
	secret: string,
): Record<string, unknown> {
	const copy: Record<string, unknown> = {};
	for (const name in headers) {
		const value = headers[name];
		if (CREDENTIAL_HEADER.test(name) || carriesSecret(name, secret) || carriesSecret(value, secret))
			continue;
		copy[name] = value;
	}
	return copy;
}
