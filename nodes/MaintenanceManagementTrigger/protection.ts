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

/** How many layers of encoding are undone (the Base64 of a percent-encoded URL is two). */
const DECODING_DEPTH = 4;

/**
 * How many characters the secret check reads for one delivery, over all its readings of all its values
 * together: about ten times what a delivery with large headers (a JSON Web Token among them) needs, and
 * a bound on the CPU one delivery costs. A value the budget does not reach counts as holding the secret.
 */
export const DECODING_BUDGET = 100_000;

/** What the secret check may still read of one delivery (see `DECODING_BUDGET`). */
export interface DecodingBudget {
	left: number;
	/** The parts of the secret to look for, built once per delivery on its first check. */
	parts?: SecretParts;
}

/** The parts of one length, with their hashes (see `hashOf`) and the weight of a part's first unit. */
interface PartsOfLength {
	parts: Set<string>;
	hashes: Set<number>;
	lead: number;
}

/** The parts of one secret (see `partsOf`), by their length. */
interface SecretParts {
	secret: string;
	byLength: Map<number, PartsOfLength>;
	shortest: number;
}

export const decodingBudget = (): DecodingBudget => ({ left: DECODING_BUDGET });

/**
 * How much of the secret is enough to leave a value out: any 16 characters of it in a row (the shortest
 * secret the credential accepts, and the shortest part of a token the action node's redaction finds), or
 * the whole secret when shorter.
 */
const LEAKED_PART = 16;

/** `%41`, `%e2%82%ac`: percent-encoded bytes in either case of hex; read as UTF-8 text. */
const PERCENT_RUN = /(?:%[0-9a-f]{2})+/gi;
/** `=2B=2F`: quoted-printable bytes, and its soft line breaks. */
const QUOTED_PRINTABLE_RUN = /(?:=[0-9a-f]{2})+/gi;
const SOFT_BREAK = /=\r?\n/g;
/** What may stand between the groups of an encoding, or the characters of a decoded text. */
const SEPARATOR = /[\s:,;]+/g;
/** A run of Base64 or Base64url characters, long enough to hold anything worth hiding. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{4,}/g;
/**
 * Base64 written in groups (`UTMz NjQ1 …`), separated by white space, `:`, `,` or `;`. Tried only where a
 * run starts: tried inside a long run with no separator, it would take time growing with its square.
 */
const BASE64_GROUPS = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{4,}(?:[\s:,;]+[A-Za-z0-9+/_-]{4,})+/g;
/**
 * A run of hex bytes, whole bytes: plain (`5133`), each byte written `0x51`, and bytes separated by
 * white space, `:`, `,`, `;`, `.` or `-` (`51:33`, `51 33`, `0x51, 0x33`).
 */
const HEX_RUN = /(?:0x)?[0-9a-f]{2}(?:(?:[\s:,;.-]+)?(?:0x)?[0-9a-f]{2}){3,}/gi;
const hexBytes = (run: string): Buffer => Buffer.from(run.replace(/0x|[^0-9a-f]/gi, ''), 'hex');
/** Backslash escapes as JSON, JavaScript and PHP write them: `\/`, `\u002f`, `\x2f`. */
const BACKSLASH_ESCAPE = /\\(?:u([0-9a-f]{4})|x([0-9a-f]{2})|(.))/gis;
/** HTML character references: `&#47;`, `&#x2F;`, `&sol;`; a numeric one also without its `;`. */
const HTML_ENTITY = /&(?:#(\d{1,7});?|#x([0-9a-f]{1,6});?|([a-z]+);)/gi;
const NAMED_ENTITIES: Record<string, string> = {
	amp: '&',
	apos: "'",
	ast: '*',
	colon: ':',
	commat: '@',
	dollar: '$',
	equals: '=',
	excl: '!',
	gt: '>',
	lowbar: '_',
	lt: '<',
	num: '#',
	percnt: '%',
	period: '.',
	plus: '+',
	quest: '?',
	quot: '"',
	semi: ';',
	sol: '/',
};

const bytesRead = (bytes: Buffer): string[] => {
	const text = bytes.toString('utf8');
	// UTF-16 text read as UTF-8 has a zero byte beside each ASCII character.
	return [text, text.replaceAll('\0', '')];
};
const codePoint = (value: number): string =>
	value <= 0x10ffff ? String.fromCodePoint(value) : '\ufffd';
const percentDecoded = (text: string): string =>
	text.replace(PERCENT_RUN, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));

/**
 * The readings one layer of decoding gives: percent-decoded as in a URL, with `+` as a space as in a
 * form, quoted-printable, backslash escapes and HTML references undone, and every Base64 run (at each
 * of its four alignments, so a Basic credential or an encoded token is read wherever it starts) and hex
 * run decoded, as UTF-8 and as UTF-16.
 */
function decodedOnce(text: string): string[] {
	const readings = [
		percentDecoded(text),
		percentDecoded(text.replace(/\+/g, ' ')),
		text
			.replace(SOFT_BREAK, '')
			.replace(QUOTED_PRINTABLE_RUN, (run) =>
				Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'),
			),
		text.replace(BACKSLASH_ESCAPE, (_all, u?: string, x?: string, char?: string) =>
			u || x ? String.fromCharCode(parseInt(u ?? x ?? '', 16)) : (char ?? ''),
		),
		text.replace(HTML_ENTITY, (all, decimal?: string, hex?: string, name?: string) =>
			decimal
				? codePoint(Number(decimal))
				: hex
					? codePoint(parseInt(hex, 16))
					: (NAMED_ENTITIES[(name ?? '').toLowerCase()] ?? all),
		),
	];
	for (const [run] of text.matchAll(HEX_RUN)) readings.push(...bytesRead(hexBytes(run)));
	const base64Runs = [
		...[...text.matchAll(BASE64_RUN)].map(([run]) => run),
		...[...text.matchAll(BASE64_GROUPS)].map(([run]) => run.replace(SEPARATOR, '')),
	];
	for (const run of new Set(base64Runs))
		for (let start = 0; start < 4 && run.length - start >= 4; start++)
			readings.push(...bytesRead(Buffer.from(run.slice(start), 'base64')));
	return readings;
}

/** A text as the check compares it: lower case, without separators. */
const squeezed = (text: string) => text.toLowerCase().replace(SEPARATOR, '');

const HASH_BASE = 131;

/** A polynomial hash of a text's UTF-16 units in 32 bits, which `holdsPart` rolls along a reading. */
function hashOf(text: string): number {
	let hash = 0;
	for (let index = 0; index < text.length; index++)
		hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(index)) | 0;
	return hash;
}

/** The weight of a window's first unit in its hash: HASH_BASE to the power `length` - 1, in 32 bits. */
function leadOf(length: number): number {
	let lead = 1;
	for (let power = 1; power < length; power++) lead = Math.imul(lead, HASH_BASE);
	return lead;
}

/**
 * Every run of `LEAKED_PART` characters of the secret, squeezed, also with its `+` read as a space as a
 * URL's query parser reads it (`?copy=a+b` gives `a b`, squeezed to `ab`).
 */
function partsOf(secret: string): SecretParts {
	const chars = [...secret];
	const length = Math.min(LEAKED_PART, chars.length);
	const byLength = new Map<number, PartsOfLength>();
	for (let start = 0; start + length <= chars.length; start++) {
		const part = squeezed(chars.slice(start, start + length).join(''));
		for (const form of [part, part.replaceAll('+', '')]) {
			if (form === '') continue;
			const found = byLength.get(form.length) ?? {
				parts: new Set(),
				hashes: new Set(),
				lead: leadOf(form.length),
			};
			found.parts.add(form);
			found.hashes.add(hashOf(form));
			byLength.set(form.length, found);
		}
	}
	return { secret, byLength, shortest: Math.min(...byLength.keys()) };
}

/** The secret's parts, built on the delivery's first check and kept on its budget for the others. */
function partsFor(secret: string, budget: DecodingBudget): SecretParts {
	if (budget.parts?.secret !== secret) budget.parts = partsOf(secret);
	return budget.parts;
}

/**
 * Whether a squeezed reading holds a part: the hash of each window of a part's length is rolled along
 * the reading and looked up, and only a window whose hash matches is compared, so the work grows with
 * the reading's length, not with the secret's.
 */
function holdsPart(read: string, { byLength }: SecretParts): boolean {
	for (const [length, { parts, hashes, lead }] of byLength) {
		if (read.length < length) continue;
		let hash = hashOf(read.slice(0, length));
		for (let start = 0; ; start++) {
			if (hashes.has(hash) && parts.has(read.slice(start, start + length))) return true;
			if (start + length >= read.length) break;
			const kept = (hash - Math.imul(read.charCodeAt(start), lead)) | 0;
			hash = (Math.imul(kept, HASH_BASE) + read.charCodeAt(start + length)) | 0;
		}
	}
	return false;
}

/**
 * Whether a value holds the secret, or any 16 characters of it in a row, in any of the forms proxies, clients and
 * other languages give it: as is, percent-, form-, quoted-printable-, hex- or Base64-encoded (UTF-8 or
 * UTF-16), JSON-, JavaScript- or HTML-escaped, in any letter case, or up to four of these in layers;
 * each also with white space, `:`, `,` or `;` between its characters, bytes or groups (`SEPARATOR`).
 * The readings share the delivery's `budget`: a value it does not reach counts as carrying the secret.
 */
export function carriesSecret(
	value: unknown,
	secret: string,
	budget: DecodingBudget = decodingBudget(),
): boolean {
	if (secret === '' || value === undefined || value === null) return false;
	if (Array.isArray(value)) return value.some((element) => carriesSecret(element, secret, budget));
	const parts = partsFor(secret, budget);
	if (parts.byLength.size === 0) return false;
	const { shortest } = parts;
	let layer = new Set([typeof value === 'string' ? value : JSON.stringify(value)]);
	const seen = new Set<string>();
	for (let depth = 0; depth <= DECODING_DEPTH && layer.size > 0; depth++) {
		const next = new Set<string>();
		for (const text of layer) {
			// Decoding never lengthens a text: one shorter than a part of the secret cannot lead to it.
			if (text.length < shortest || seen.has(text)) continue;
			seen.add(text);
			if (text.length > budget.left) return true;
			budget.left -= text.length;
			if (holdsPart(squeezed(text), parts)) return true;
			if (depth < DECODING_DEPTH) for (const reading of decodedOnce(text)) next.add(reading);
		}
		layer = next;
	}
	return false;
}

/** How the fields of a delivery are left out: by name, and where a name ends and its value starts. */
export interface FieldKind {
	leftOutByName: (name: string) => boolean;
	/** What joins a name to its value as sent: `=` in a query, nothing (`:`, squeezed) in a header. */
	joiner: string;
}

const asText = (value: unknown): string =>
	typeof value === 'string' ? value : JSON.stringify(value ?? '');

/**
 * The fields (headers, query parameters) safe to output: without those `kind` leaves out by name,
 * without any whose name, value, or name and value together hold the secret in some encoding (`?<secret>`
 * reaches n8n as a name, and a secret holding `=` as a name and a value), and without both of two fields
 * side by side whose values, put together, hold it. All readings share one delivery's `budget`.
 */
export function withoutSecret(
	fields: Record<string, unknown>,
	secret: string,
	kind: FieldKind,
	budget: DecodingBudget = decodingBudget(),
): Record<string, unknown> {
	const names = Object.keys(fields);
	const carries = (value: unknown) => carriesSecret(value, secret, budget);
	const left = new Set(
		names.filter(
			(name) =>
				kind.leftOutByName(name) ||
				carries(name) ||
				carries(fields[name]) ||
				carries(`${name}${kind.joiner}${asText(fields[name])}`),
		),
	);
	// A secret split over two fields side by side: both are left out.
	for (let index = 1; index < names.length; index++) {
		const [before, after] = [names[index - 1], names[index]];
		if (
			!left.has(before) &&
			!left.has(after) &&
			carries(`${asText(fields[before])}${asText(fields[after])}`)
		)
			left.add(before).add(after);
	}
	const copy: Record<string, unknown> = {};
	for (const name of names) if (!left.has(name)) copy[name] = fields[name];
	return copy;
}

const HEADERS: FieldKind = { leftOutByName: (name) => CREDENTIAL_HEADER.test(name), joiner: '' };

/** The headers safe to output: also without those that carry credentials by their name. */
export const headersWithoutSecret = (
	headers: Record<string, unknown>,
	secret: string,
	budget: DecodingBudget = decodingBudget(),
): Record<string, unknown> => withoutSecret(headers, secret, HEADERS, budget);
