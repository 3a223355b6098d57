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
