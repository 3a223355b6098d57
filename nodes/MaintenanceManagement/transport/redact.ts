/**
 * Keeps a secret (the API token) out of everything the node outputs or reports, and keeps what the
 * API answers within a depth every later step can walk, every key of it an own field.
 *
 * The forms of the secret are worked out once per connection and compiled into one regular
 * expression. It finds, in any letter case:
 * - the secret as is, JSON-escaped (`\/`, `\"`, `\\`) and URL-encoded;
 * - any part of it at least `MIN_PART` characters long (a prefix, a suffix, a middle);
 * - its bytes in hex, plain (`746f6b`), percent-encoded (`%74%6F`), or as `\x74` or `\u0074` escapes;
 * - its bytes in Base64 or Base64url, with or without padding, at any of the three alignments, so also
 *   inside a longer Base64 text such as the Base64 of `Bearer <token>` or of `user:<token>`;
 * - each of these broken by white space, control or invisible characters between any two characters,
 *   also as the escapes JSON writes for them (`\b`, `\f`, `\n`, `\r`, `\t`, `\u0000` to `\u001f`);
 * - written as plain text for n8n's HTML (`&amp;`, `&lt;`, `&gt;`);
 * - split over two strings side by side: two elements of a list, or two fields of an object in a row.
 * What it cannot find: the secret encrypted, hashed, compressed, or encoded twice (the Base64 of its hex,
 * say), split over strings that are not side by side, or cut into parts shorter than `MIN_PART`.
 */

/** What takes the place of the secret. */
export const REDACTED = '***';

/** The shortest part of the secret redacted on its own: a prefix, a suffix, or a run inside it. */
export const MIN_PART = 16;

/** The deepest nesting an answer keeps, counted from its root; anything deeper becomes `CUT`. */
export const MAX_DEPTH = 64;

/** What takes the place of a value nested deeper than `MAX_DEPTH`. */
export const CUT = `[cut: nested deeper than ${MAX_DEPTH} levels]`;

/**
 * One character that may break the secret: white space, a control or invisible character, or an
 * escape JSON writes for a control character (also escaped twice, as in JSON inside a JSON string).
 */
const BREAK_CHAR = String.raw`[\s\x00-\x1f\x7f-\x9f\u00ad\u200b-\u200d\u2060\ufeff]|\\{1,2}(?:[bfnrt]|u00[01][0-9a-f])`;

/** Breaks, allowed between any two characters. */
const BREAK = `(?:${BREAK_CHAR})*`;

const escaped = (char: string): string => char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** `&`, `<` and `>` as the node's messages write them for n8n's HTML (see `plainText`). */
const ENTITY: Record<string, string> = { '&': '&(?:amp;)?', '<': '(?:<|&lt;)', '>': '(?:>|&gt;)' };

/**
 * A character of the secret as JSON may write it: `/`, `"` and `\` may come escaped; as a message
 * writes it: `&`, `<` and `>` may come as entities.
 */
const jsonChar = (char: string): string =>
	char === '\\'
		? String.raw`\\{1,2}`
		: Object.hasOwn(ENTITY, char)
			? ENTITY[char]
			: `${char === '/' || char === '"' ? String.raw`\\?` : ''}${escaped(char)}`;

/** One byte in hex, alone or as `%74`, `\x74` or `\u0074`. */
const hexByte = (byte: number): string =>
	String.raw`(?:%|\\{1,2}x|\\{1,2}u00)?` + byte.toString(16).padStart(2, '0');

/** A Base64 character of either alphabet (`+/` or `-_`), the slash possibly JSON-escaped. */
const base64Char = (char: string): string =>
	char === '+' || char === '-'
		? '[+-]'
		: char === '/' || char === '_'
			? String.raw`(?:\\?\/|_)`
			: char;

/**
 * The Base64 characters that depend on the secret's bytes alone, for each of the three positions its
 * first byte can take in a group of three: what any Base64 text containing the secret contains.
 */
function base64Cores(bytes: Buffer): string[] {
	const cores: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		const core = encoded.slice(
			Math.ceil((8 * offset) / 6),
			Math.floor((8 * (offset + bytes.length)) / 6),
		);
		if (core.length > 0) cores.push(core);
	}
	return cores;
}

/** The forms of a secret, each a list of patterns for its characters in order. */
function formsOf(secret: string): string[][] {
	const chars = [...secret];
	const bytes = Buffer.from(secret, 'utf8');
	const forms: string[][] = [];
	const parts =
		chars.length > MIN_PART
			? Array.from({ length: chars.length - MIN_PART + 1 }, (_, start) =>
					chars.slice(start, start + MIN_PART),
				)
			: [chars];
	for (const part of parts) forms.push(part.map(jsonChar));
	const urlEncoded = encodeURIComponent(secret);
	if (urlEncoded !== secret) forms.push([...urlEncoded].map(escaped));
	forms.push([...bytes].map(hexByte));
	for (const core of base64Cores(bytes)) forms.push([...core].map(base64Char));
	return forms;
}

export interface Redaction {
	/** The text with every form of the secret replaced by `REDACTED`. */
	text(value: string): string;
	/**
	 * Tidies parsed JSON (see `tidy`) and redacts every string in it, keys included: in place, without
	 * recursion, so an answer of any depth is walked safely. `text`, the JSON text the value was parsed
	 * from, spares writing it out again for the quick look, where it shows what that would (see
	 * `readsAsWritten`).
	 */
	answer<T>(value: T, text?: string): T;
}

type Span = [start: number, end: number];
type Container = Record<string | number, unknown>;

/** Ranges merged where they touch or overlap, in order. */
function merged(spans: Span[]): Span[] {
	const result: Span[] = [];
	for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
		const last = result.at(-1);
		if (last && start <= last[1]) last[1] = Math.max(last[1], end);
		else result.push([start, end]);
	}
	return result;
}

/** Which parts of a text a pattern (a lookahead with one group) finds, overlapping ones included. */
function spansIn(pattern: RegExp, text: string): Span[] {
	const spans: Span[] = [];
	pattern.lastIndex = 0;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		spans.push([match.index, match.index + match[1].length]);
		pattern.lastIndex = match.index + 1;
	}
	return merged(spans);
}

function replaced(text: string, spans: Span[]): string {
	let result = '';
	let from = 0;
	for (const [start, end] of spans) {
		result += text.slice(from, start) + REDACTED;
		from = end;
	}
	return result + text.slice(from);
}

/**
 * Whether a key may be nothing but breaks, as JSON writes it: empty, or not led by a printable ASCII
 * character other than `\`. Only across such a key does the quick look join two fields in a row.
 */
const mayBeBreaks = (key: string): boolean => {
	const code = key.charCodeAt(0);
	return !(code > 0x20 && code < 0x7f && code !== 0x5c);
};

/**
 * Makes parsed JSON safe to walk, in place and without recursion: every object or list nested deeper
 * than `MAX_DEPTH` becomes `CUT`, and every key an own field: a `__proto__` key is removed (copied by
 * assignment, it would set an object's prototype instead of a field), and an object whose prototype
 * was set that way gets a plain one back. One walk does both, answers being large; it reads each
 * object's keys with `for…in` and each list by index, which copy nothing.
 *
 * Returns whether the value is still as parsed, with no key that may be nothing but breaks: then the
 * text it was parsed from joins the same strings across their seams as the value written out again
 * would (see `readsAsWritten`).
 */
function tidy(value: unknown): boolean {
	let asParsed = true;
	const pending: Pending = { containers: [], depths: [] };
	if (typeof value === 'object' && value !== null) queue(pending, value as Container, 0);
	// `for…in` reads an object's own keys, and any a polluted prototype lends it.
	const lent = [Object.prototype, Array.prototype].some((shared) => Object.keys(shared).length);
	for (let container = pending.containers.pop(); container; container = pending.containers.pop()) {
		const depth = (pending.depths.pop() as number) + 1;
		const list = Array.isArray(container);
		const prototype: unknown = Object.getPrototypeOf(container);
		if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) {
			Object.setPrototypeOf(container, list ? Array.prototype : Object.prototype);
			asParsed = false;
		}
		if (list) {
			const { length } = container as unknown as unknown[];
			for (let index = 0; index < length; index++)
				asParsed = visit(pending, container, index, depth) && asParsed;
			continue;
		}
		if (Object.hasOwn(container, '__proto__')) {
			delete container['__proto__'];
			asParsed = false;
		}
		for (const key in container) {
			if (lent && !Object.hasOwn(container, key)) continue;
			if (asParsed && mayBeBreaks(key)) asParsed = false;
			asParsed = visit(pending, container, key, depth) && asParsed;
		}
	}
	return asParsed;
}

/** The containers `tidy` has still to walk, and the depth of each. */
interface Pending {
	containers: Container[];
	depths: number[];
}

const queue = (pending: Pending, container: Container, depth: number): void => {
	pending.containers.push(container);
	pending.depths.push(depth);
};

/**
 * Queues a container's child that is an object or a list, at `depth`, or puts `CUT` in its place when
 * that is deeper than `MAX_DEPTH`. Returns whether the container is left as it was.
 */
function visit(
	pending: Pending,
	container: Container,
	key: string | number,
	depth: number,
): boolean {
	const child = container[key];
	if (typeof child !== 'object' || child === null) return true;
	if (depth <= MAX_DEPTH) {
		queue(pending, child as Container, depth);
		return true;
	}
	container[key] = CUT;
	return false;
}

/** Renames the keys of an object that hold the secret, keeping the order of its fields. */
function renameKeys(object: Container, text: (value: string) => string): void {
	const names = Object.keys(object);
	if (names.every((name) => text(name) === name)) return;
	const entries = names.map((name) => [text(name), object[name]] as const);
	for (const name of names) delete object[name];
	for (const [name, value] of entries)
		Object.defineProperty(object, name, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
}

/** The first characters of a form: enough to tell that a text may hold it. */
const QUICK_LENGTH = 8;

/**
 * A quick test that any form may be in a JSON text: the start of each form, and for the parts of the
 * secret each block of `QUICK_LENGTH` characters at a multiple of it (every part of `MIN_PART`
 * characters holds one), with breaks and string seams (`","`, `":"`) allowed between characters.
 */
function quickPattern(secret: string, forms: string[][]): RegExp {
	const chars = [...secret];
	const blocks: string[][] = [];
	if (chars.length <= MIN_PART) blocks.push(chars.map(jsonChar));
	else
		for (let start = 0; start + QUICK_LENGTH <= chars.length; start += QUICK_LENGTH)
			blocks.push(chars.slice(start, start + QUICK_LENGTH).map(jsonChar));
	const encoded = forms.slice(chars.length > MIN_PART ? chars.length - MIN_PART + 1 : 1);
	const starts = encoded.map((form) => form.slice(0, QUICK_LENGTH));
	const seamOrBreak = String.raw`(?:${BREAK_CHAR}|"\s*[,:]\s*")*`;
	return new RegExp([...blocks, ...starts].map((form) => form.join(seamOrBreak)).join('|'), 'i');
}

/**
 * Whether the quick look may read the JSON text an answer was parsed from, as it would the answer
 * written out again (`JSON.stringify`), once `tidy` found it as parsed. The text shows every string as
 * that would, escapes aside (`\/`, which the forms allow), when it holds no `\u` escape; and it joins
 * the same strings across their seams: two elements of a list are side by side in both, and two fields
 * of an object in a row are joined only across a key of nothing but breaks, which `tidy` looks for
 * (parsing may move a field: those named by a number come first).
 */
const readsAsWritten = (text: string): boolean => !text.includes('\\u');

/** Tidies an answer, and redacts nothing: the redaction of an empty secret. */
const TIDY_ONLY: Redaction = {
	text: (value) => value,
	answer: <T>(value: T): T => {
		tidy(value);
		return value;
	},
};

/** The redaction of a secret, its forms compiled once. */
class SecretRedaction implements Redaction {
	/** Every start of every form (a lookahead finds overlapping ones), longest forms first. */
	private readonly pattern: RegExp;
	private readonly quick: RegExp;
	/** No shorter text can hold a form. */
	private readonly shortest: number;
	/** How far a form, with some breaks, can reach across the seam of two strings side by side. */
	private readonly reach: number;

	constructor(secret: string, forms: string[][]) {
		const alternatives = [...forms]
			.sort((a, b) => b.length - a.length)
			.map((form) => form.join(BREAK))
			.join('|');
		this.pattern = new RegExp(`(?=(${alternatives}))`, 'gi');
		this.quick = quickPattern(secret, forms);
		this.shortest = Math.min(...forms.map((form) => form.length));
		this.reach = Math.max(...forms.map((form) => form.length)) * 6 + 64;
	}

	private spansOf(value: string): Span[] {
		return value.length < this.shortest ? [] : spansIn(this.pattern, value);
	}

	readonly text = (value: string): string => {
		const spans = this.spansOf(value);
		return spans.length ? replaced(value, spans) : value;
	};

	/** The spans of a form across the seam of two strings side by side, in each of them. */
	private seam(left: string, right: string): [Span, Span] | undefined {
		const tail = left.slice(-this.reach);
		const head = right.slice(0, this.reach);
		const across = spansIn(this.pattern, tail + head).filter(
			([start, end]) => start < tail.length && end > tail.length,
		);
		if (across.length === 0) return undefined;
		const offset = left.length - tail.length;
		return [
			[offset + Math.min(...across.map(([start]) => start)), left.length],
			[0, Math.max(...across.map(([, end]) => end)) - tail.length],
		];
	}

	/** Redacts the strings of one object or list: each alone, and each two side by side. */
	private redactStrings(container: Container): void {
		const strings: Array<{ key: string; spans: Span[] }> = [];
		let previous: { key: string; spans: Span[] } | undefined;
		for (const key of Object.keys(container)) {
			const child = container[key];
			if (typeof child !== 'string') {
				previous = undefined;
				continue;
			}
			const current = { key, spans: this.spansOf(child) };
			if (previous) {
				const across = this.seam(container[previous.key] as string, child);
				if (across) {
					previous.spans.push(across[0]);
					current.spans.push(across[1]);
				}
			}
			strings.push(current);
			previous = current;
		}
		for (const { key, spans } of strings)
			if (spans.length) container[key] = replaced(container[key] as string, merged(spans));
		if (!Array.isArray(container)) renameKeys(container, this.text);
	}

	readonly answer = <T>(value: T, text?: string): T => {
		if (typeof value === 'string') return this.text(value) as T;
		if (typeof value !== 'object' || value === null) return value;
		const asParsed = tidy(value);
		// Most answers hold no form of the secret: one quick look at the whole answer tells.
		const written = text !== undefined && asParsed && readsAsWritten(text) ? text : undefined;
		if (!this.quick.test(written ?? JSON.stringify(value))) return value;
		const pending: Container[] = [value as Container];
		for (let container = pending.pop(); container; container = pending.pop()) {
			this.redactStrings(container);
			for (const child of Object.values(container))
				if (typeof child === 'object' && child !== null) pending.push(child as Container);
		}
		return value;
	};
}

/** The redaction of one secret; with an empty secret it only tidies answers. */
export function redactionFor(secret: string): Redaction {
	const forms = secret ? formsOf(secret) : [];
	return forms.length === 0 ? TIDY_ONLY : new SecretRedaction(secret, forms);
}
