/**
 * One layer of the encodings a proxy, a client or another language gives a value: what the secret
 * check (`secretFilter.ts`) undoes before it searches a value for the secret.
 */

/** `%41`, `%e2%82%ac`: percent-encoded bytes in either case of hex; read as UTF-8 text. */
const PERCENT_RUN = /(?:%[0-9a-f]{2})+/gi;
/** `=2B=2F`: quoted-printable bytes, and its soft line breaks. */
const QUOTED_PRINTABLE_RUN = /(?:=[0-9a-f]{2})+/gi;
const SOFT_BREAK = /=\r?\n/g;
/** What may stand between the groups of an encoding, or the characters of a decoded text. */
export const SEPARATOR = /[\s:,;]+/g;
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
	return text.includes('\0') ? [text, text.replaceAll('\0', '')] : [text];
};
const codePoint = (value: number): string =>
	value <= 0x10ffff ? String.fromCodePoint(value) : '\ufffd';
const percentDecoded = (text: string): string =>
	text.replace(PERCENT_RUN, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));

/**
 * The readings one layer of decoding gives: percent-decoded as in a URL, with `+` as a space as in a
 * form, quoted-printable, backslash escapes and HTML references undone, and every Base64 run (at each
 * of its four alignments, so a Basic credential or an encoded token is read wherever it starts) and hex
 * run decoded, as UTF-8 and as UTF-16. A decoding whose mark (`%`, `+`, `=`, `\`, `&`) the text lacks
 * would give the text again, and is not run. Each reading is made when it is asked for, so a check
 * whose budget runs out stops decoding there.
 */
export function* decodedOnce(text: string): Generator<string> {
	if (text.includes('%')) yield percentDecoded(text);
	if (text.includes('+')) yield percentDecoded(text.replace(/\+/g, ' '));
	if (text.includes('='))
		yield text
			.replace(SOFT_BREAK, '')
			.replace(QUOTED_PRINTABLE_RUN, (run) =>
				Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'),
			);
	if (text.includes('\\'))
		yield text.replace(BACKSLASH_ESCAPE, (_all, u?: string, x?: string, char?: string) =>
			u || x ? String.fromCharCode(parseInt(u ?? x ?? '', 16)) : (char ?? ''),
		);
	if (text.includes('&'))
		yield text.replace(HTML_ENTITY, (all, decimal?: string, hex?: string, name?: string) =>
			decimal
				? codePoint(Number(decimal))
				: hex
					? codePoint(parseInt(hex, 16))
					: (NAMED_ENTITIES[(name ?? '').toLowerCase()] ?? all),
		);
	for (const [run] of text.matchAll(HEX_RUN)) yield* bytesRead(hexBytes(run));
	const base64Runs = new Set<string>();
	for (const [run] of text.matchAll(BASE64_RUN)) base64Runs.add(run);
	for (const [run] of text.matchAll(BASE64_GROUPS)) base64Runs.add(run.replace(SEPARATOR, ''));
	for (const run of base64Runs)
		for (let start = 0; start < 4 && run.length - start >= 4; start++)
			yield* bytesRead(Buffer.from(run.slice(start), 'base64'));
}
