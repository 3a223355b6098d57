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

/** What a call presents to prove it comes from the service: a secret, and with Basic auth a user name. */
export interface Presented {
	secret: string;
	user?: string;
}

/**
 * What the call presents under a protection other than none: the query parameter or header named
 * `secretName`, or the Basic auth user and password. Undefined when it presents none.
 */
export function presentedBy(
	protection: Exclude<Protection, 'none'>,
	call: IncomingCall,
	secretName: string,
): Presented | undefined {
	if (protection === 'basicAuth') {
		const basic = basicCredentials(call.headers.authorization);
		return basic && { secret: basic.password, user: basic.user };
	}
	const value = single(
		protection === 'query' ? call.query[secretName] : call.headers[secretName.toLowerCase()],
	);
	return value === undefined ? undefined : { secret: value };
}

/** Whether what a call presents matches the credential. */
export function matchesCredential(
	presented: Presented,
	credentials: { secret?: string; username?: string } | undefined,
): boolean {
	const secret = String(credentials?.secret ?? '');
	if (presented.user === undefined) return sameSecret(presented.secret, secret);
	// Without a user name in the credential, any user name is accepted and only the secret counts.
	const username = String(credentials?.username ?? '');
	const userOk = username === '' || sameSecret(presented.user, username);
	const passwordOk = sameSecret(presented.secret, secret);
	return userOk && passwordOk;
}

/** Whether an incoming call carries the right secret for the chosen protection. */
export function isAuthorized(
	protection: Protection,
	call: IncomingCall,
	secretName: string,
	credentials: { secret?: string; username?: string } | undefined,
): boolean {
	if (protection === 'none') return true;
	const presented = presentedBy(protection, call, secretName);
	return presented !== undefined && matchesCredential(presented, credentials);
}
