/**
 * What a delivery's output leaves out: every field (header, query parameter) that holds the webhook
 * secret in some encoding, within a bounded amount of work per delivery.
 */

import { decodedOnce, SEPARATOR } from './decodings';

/** Header names that carry credentials whatever their value: never output. */
const CREDENTIAL_HEADER = /(^|-)authorization$|^(set-)?cookie$|^x-webhook-secret$/i;

/** How many layers of encoding are undone (the Base64 of a percent-encoded URL is two). */
const DECODING_DEPTH = 4;

/**
 * How much work the secret check may do for one delivery, in characters: each text it reads counts
 * its length and `TEXT_COST`, and each decoding the characters it writes. About three times what an
 * ordinary delivery with a 1.8 KB JSON Web Token among its headers needs, and the bound on the CPU
 * one delivery costs, whatever the secret. A value the budget does not reach counts as holding the
 * secret.
 */
export const DECODING_BUDGET = 150_000;

/**
 * What reading one text costs beyond its characters: the passes of its decodings start afresh for each
 * text, so a delivery of many short texts (a thousand query parameters) costs by their number too.
 */
export const TEXT_COST = 256;

/** What the secret check may still do for one delivery (see `DECODING_BUDGET`). */
export interface DecodingBudget {
	left: number;
	/** The parts of the secret to look for, built once per delivery on its first check. */
	parts?: SecretParts;
	/** How long a part of the secret is at least (`leastPartLength`), worked out once per delivery. */
	least?: { secret: string; length: number };
}

/**
 * The parts of one secret (see `partsOf`), found in one pass over a reading whatever their lengths:
 * each window of the shortest part's length is hashed (see `hashOf`) and looked up among the parts'
 * starts of that length, and only a window whose hash matches is compared with the parts it starts.
 */
interface SecretParts {
	secret: string;
	/** The parts by their start of `shortest` units. */
	byStart: Map<string, string[]>;
	/** The hashes of those starts. */
	hashes: Set<number>;
	shortest: number;
	/** The weight of a window's first unit in its hash. */
	lead: number;
	/**
	 * A run of `shortest` characters that are text: neither U+FFFD, which a decoding writes for bytes
	 * that are no UTF-8, nor a control character other than white space. The secret and each of its
	 * encodings are such a run, so a reading without one (Base64 or hex decoded at a wrong alignment,
	 * say) holds neither, and is not read or decoded further.
	 */
	legible: RegExp;
}

export const decodingBudget = (): DecodingBudget => ({ left: DECODING_BUDGET });

/** Takes `cost` from the budget when it has that much left, and says whether it had. */
function spend(budget: DecodingBudget, cost: number): boolean {
	if (cost > budget.left) return false;
	budget.left -= cost;
	return true;
}

/**
 * How much of the secret is enough to leave a value out: any 16 characters of it in a row, separators
 * aside (the shortest secret the credential accepts, and the shortest part of a token the action node's
 * redaction finds), or the whole secret when shorter.
 */
const LEAKED_PART = 16;

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
 * The squeezed secret, and the same with its `+` read as a space as a URL's query parser reads it
 * (`?copy=a+b` gives `a b`, squeezed to `ab`): the forms its parts come from.
 */
const formsOf = (secret: string) =>
	new Set([squeezed(secret), squeezed(secret.replaceAll('+', ' '))]);

/**
 * Every run of `LEAKED_PART` characters of each form. The separators the check ignores count for
 * nothing: a secret holding many gives parts as long as one holding none.
 */
function partsOf(secret: string): SecretParts {
	const parts = new Set<string>();
	for (const form of formsOf(secret)) {
		const chars = [...form];
		const length = Math.min(LEAKED_PART, chars.length);
		for (let start = 0; start + length <= chars.length; start++)
			parts.add(chars.slice(start, start + length).join(''));
	}
	parts.delete('');
	const shortest = parts.size === 0 ? 0 : Math.min(...[...parts].map((part) => part.length));
	const byStart = new Map<string, string[]>();
	for (const part of parts) {
		const start = part.slice(0, shortest);
		byStart.set(start, [...(byStart.get(start) ?? []), part]);
	}
	const hashes = new Set([...byStart.keys()].map(hashOf));
	const legible = new RegExp(`[^\\ufffd\\x00-\\x08\\x0e-\\x1f\\x7f]{${shortest}}`);
	return { secret, byStart, hashes, shortest, lead: leadOf(shortest), legible };
}

/** The secret's parts, built on the delivery's first check and kept on its budget for the others. */
function partsFor(secret: string, budget: DecodingBudget): SecretParts {
	if (budget.parts?.secret !== secret) budget.parts = partsOf(secret);
	return budget.parts;
}

/**
 * A length, in UTF-16 units, that no part of the secret is shorter than, known without building the
 * parts: each part is `LEAKED_PART` characters of a form (`formsOf`), or the whole form when it is
 * shorter, and each character is at least one unit. So it is at most the parts' `shortest`.
 */
function leastPartLength(secret: string, budget: DecodingBudget): number {
	if (budget.least?.secret !== secret) {
		const lengths = [...formsOf(secret)].map((form) => [...form].length);
		budget.least = { secret, length: Math.min(LEAKED_PART, ...lengths) };
	}
	return budget.least.length;
}

/**
 * Whether a squeezed reading holds a part, in one pass: the hash of each window of the shortest part's
 * length is rolled along the reading and looked up, and only a window whose hash matches is compared
 * with the parts it starts, so the work grows with the reading's length, not with the secret's.
 */
function holdsPart(read: string, { byStart, hashes, shortest, lead }: SecretParts): boolean {
	if (read.length < shortest) return false;
	let hash = hashOf(read.slice(0, shortest));
	for (let start = 0; ; start++) {
		if (hashes.has(hash)) {
			const parts = byStart.get(read.slice(start, start + shortest));
			if (parts?.some((part) => read.startsWith(part, start))) return true;
		}
		if (start + shortest >= read.length) return false;
		const kept = (hash - Math.imul(read.charCodeAt(start), lead)) | 0;
		hash = (Math.imul(kept, HASH_BASE) + read.charCodeAt(start + shortest)) | 0;
	}
}

/**
 * Whether a value holds the secret, or any 16 characters of it in a row, in any of the forms proxies, clients and
 * other languages give it: as is, percent-, form-, quoted-printable-, hex- or Base64-encoded (UTF-8 or
 * UTF-16), JSON-, JavaScript- or HTML-escaped, in any letter case, or up to four of these in layers;
 * each also with white space, `:`, `,` or `;` between its characters, bytes or groups (`SEPARATOR`).
 * The readings share the delivery's `budget`: a value it does not reach counts as carrying the secret.
 *
 * A value shorter than every part of the secret holds none, in any of these forms, and costs no work:
 * not even the parts are built. No decoding lengthens a text, in UTF-16 units: a percent, hex or
 * quoted-printable byte takes two or three characters and a Base64 one four thirds of a character, and
 * UTF-8 bytes give at most one unit each (a four-byte character two units, a byte that is no UTF-8 one
 * U+FFFD); `+` gives a space; a backslash escape (two characters or more) or an HTML reference (three or more) gives
 * one or two units; the UTF-16 reading drops characters. So every reading of a value is at most as
 * long as the value, every encoding of a part at least as long as the part, and a reading shorter than
 * the shortest part is never searched: the value gives the same answer, false, as when it was read.
 */
export function carriesSecret(
	value: unknown,
	secret: string,
	budget: DecodingBudget = decodingBudget(),
): boolean {
	if (secret === '' || value === undefined || value === null) return false;
	if (Array.isArray(value)) return value.some((element) => carriesSecret(element, secret, budget));
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	if (text.length < LEAKED_PART && text.length < leastPartLength(secret, budget)) return false;
	const parts = partsFor(secret, budget);
	if (parts.byStart.size === 0) return false;
	const { shortest, legible } = parts;
	let layer = new Set([text]);
	const seen = new Set<string>();
	for (let depth = 0; depth <= DECODING_DEPTH && layer.size > 0; depth++) {
		const next = new Set<string>();
		for (const text of layer) {
			// Decoding never lengthens a text: one shorter than a part of the secret cannot lead to it.
			if (text.length < shortest || seen.has(text) || !legible.test(text)) continue;
			seen.add(text);
			if (!spend(budget, text.length + TEXT_COST)) return true;
			if (holdsPart(squeezed(text), parts)) return true;
			if (depth === DECODING_DEPTH) continue;
			for (const reading of decodedOnce(text)) {
				if (!spend(budget, reading.length)) return true;
				next.add(reading);
			}
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
