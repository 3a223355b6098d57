import { redactionFor } from '../../nodes/MaintenanceManagement/transport/redact';

/** The forms of the token an echo can carry, and what redaction leaves of them. */

const TOKEN = 'tok_5f3c9a7e1d2b4c6a8e0f/Ab+Cd';
const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');

/** Whether a text still shows the token, or 12 characters of it in a row, in any form tested here. */
function shows(text: string): boolean {
	const lower = text.toLowerCase();
	const plain = TOKEN.toLowerCase();
	for (let start = 0; start + 12 <= plain.length; start++)
		if (lower.includes(plain.slice(start, start + 12))) return true;
	return [
		base64(TOKEN).slice(0, 16),
		base64url(TOKEN).slice(0, 16),
		hex(TOKEN).slice(0, 16),
		base64(`Bearer ${TOKEN}`).slice(12, 28),
	].some((form) => lower.includes(form.toLowerCase()));
}

describe('the token in a text', () => {
	it.each([
		['as is', TOKEN],
		['upper case', TOKEN.toUpperCase()],
		['URL-encoded', encodeURIComponent(TOKEN)],
		[
			'JSON-escaped, with \\/ as PHP writes it',
			JSON.stringify(TOKEN).slice(1, -1).replace(/\//g, '\\/'),
		],
		['in Base64', base64(TOKEN)],
		['in Base64 without padding', base64(TOKEN).replace(/=+$/, '')],
		['in Base64url', base64url(TOKEN)],
		['in Base64url with padding', `${base64url(TOKEN)}==`],
		['as the Base64 of "Bearer <token>"', base64(`Bearer ${TOKEN}`)],
		['as the Base64url of "Bearer <token>"', base64url(`Bearer ${TOKEN}`)],
		['as Basic credentials', base64(`user:${TOKEN}`)],
		['inside a longer Base64 text', base64(`{"Authorization":"Bearer ${TOKEN}","x":1}`)],
		['in lower-case hex', hex(TOKEN)],
		['in upper-case hex', hex(TOKEN).toUpperCase()],
		['percent-encoded byte by byte', hex(TOKEN).replace(/(..)/g, '%$1')],
		['as \\x escapes', hex(TOKEN).replace(/(..)/g, '\\x$1')],
		['broken by a line break', `${TOKEN.slice(0, 10)}\n${TOKEN.slice(10)}`],
		[
			'broken by spaces and an escaped line break',
			`${TOKEN.slice(0, 7)} ${TOKEN.slice(7, 19)}\\r\\n${TOKEN.slice(19)}`,
		],
		['broken by a zero-width space', `${TOKEN.slice(0, 15)}\u200b${TOKEN.slice(15)}`],
		['in Base64 wrapped over lines', base64(`Bearer ${TOKEN}`).replace(/(.{10})/g, '$1\r\n')],
		['as a 16-character prefix', TOKEN.slice(0, 16)],
		['as a 16-character suffix', TOKEN.slice(-16)],
	])('is redacted %s, and the text around it kept', (_label, form) => {
		const text = `before ${form} after`;
		const result = redactionFor(TOKEN).text(text);
		expect(shows(result)).toBe(false);
		expect(result).toMatch(/^before .*\*\*\*.* after$/s);
	});

	it('leaves a text without the token unchanged, even one sharing its first characters', () => {
		const text = `tok_5f3c9a7e and ${TOKEN.slice(0, 15)}. ${hex('tok_')} Qm9va2luZw==`;
		expect(redactionFor(TOKEN).text(text)).toBe(text);
	});
});

describe('the token in an answer', () => {
	it('is redacted in every string and key, however deep', () => {
		const answer = {
			data: [
				{
					id: '1',
					attributes: {
						echo: `Bearer ${TOKEN}`,
						[`key ${TOKEN}`]: 'a key holding it',
						headers: [{ authorization: base64(`Bearer ${TOKEN}`) }],
					},
				},
			],
		};
		const result = redactionFor(TOKEN).answer(answer);
		expect(shows(JSON.stringify(result))).toBe(false);
		expect(result.data[0].attributes.echo).toBe('Bearer ***');
		expect(Object.keys(result.data[0].attributes)).toEqual(['echo', 'key ***', 'headers']);
	});

	it.each([
		['two list elements', (a: string, b: string) => ({ list: ['x', a, b, 'y'] })],
		['two fields in a row', (a: string, b: string) => ({ first: a, second: b, other: 1 })],
	])('is redacted when split over %s', (_label, shape) => {
		for (const cut of [4, 10, 15, TOKEN.length - 4]) {
			const result = redactionFor(TOKEN).answer(
				shape(`Bearer ${TOKEN.slice(0, cut)}`, TOKEN.slice(cut)),
			);
			expect(shows(Object.values(result).flat().join(''))).toBe(false);
		}
	});
});

/**
 * Every character JSON writes as an escape (`\b`, `\f`, `\n`, `\r`, `\t`, and `\u0000` to `\u001f` for
 * the others), put between every two characters of the token: raw in a text, in an answer (whose
 * quick check reads its JSON text, where the separator is an escape), and as the escape itself in a
 * text (JSON inside a string, as an API that double-encodes writes it).
 */
describe('the token split by every separator JSON writes', () => {
	const separators = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));
	const table = separators.map((separator) => [JSON.stringify(separator), separator] as const);
	const split = (separator: string) => [...TOKEN].join(separator);
	const escapeOf = (separator: string) => JSON.stringify(separator).slice(1, -1);

	it.each(table)('%s, raw in a text', (_label, separator) => {
		expect(
			shows(
				redactionFor(TOKEN)
					.text(`before ${split(separator)} after`)
					.replaceAll(separator, ''),
			),
		).toBe(false);
	});

	it.each(table)('%s, raw in a string of an answer', (_label, separator) => {
		const answer = redactionFor(TOKEN).answer({
			data: { note: `before ${split(separator)} after` },
		});
		expect(answer.data.note).toMatch(/^before .*\*\*\*.* after$/s);
		expect(shows(answer.data.note.replaceAll(separator, ''))).toBe(false);
	});

	it.each(table)('%s, written as its JSON escape in a text', (_label, separator) => {
		const text = `before ${split(escapeOf(separator))} after`;
		expect(shows(redactionFor(TOKEN).text(text).replaceAll(escapeOf(separator), ''))).toBe(false);
	});

	it.each(table)('%s, between two strings side by side', (_label, separator) => {
		const half = Math.floor(TOKEN.length / 2);
		const answer = redactionFor(TOKEN).answer({
			list: [split(separator).slice(0, half * 2), split(separator).slice(half * 2)],
		});
		expect(shows(answer.list.join('').replaceAll(separator, ''))).toBe(false);
	});
});

/**
 * The quick look reads the JSON text an answer was parsed from, when given, rather than the answer
 * written out again: what it redacts must be the same, whatever the text holds.
 */
describe('an answer redacted with the text it was parsed from', () => {
	const part = TOKEN.slice(3, 19);
	const [left, right] = [part.slice(0, 8), part.slice(8)];
	const escapedToken = [...TOKEN]
		.map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
		.join('');
	const texts: Array<[string, string]> = [
		['without the token', '{"data":[{"id":"1","attributes":{"name":"tok_5f3c9a7e"}}]}'],
		['holding it as is', `{"data":{"echo":"Bearer ${TOKEN}"}}`],
		['holding it as \\u escapes only', `{"data":{"echo":"${escapedToken}"}}`],
		[
			'holding it with its slash escaped',
			`{"data":{"echo":${JSON.stringify(TOKEN).replace('/', '\\/')}}}`,
		],
		[
			'written over lines, with spaces',
			`{\n  "data": [\n    "Bearer ${TOKEN.slice(0, 9)}",\n    "${TOKEN.slice(9)}"\n  ]\n}`,
		],
		// Parsing puts a field named by a number first: the part's halves are side by side only then.
		...['', ' ', '\\n'].map(
			(key) =>
				[
					`holding a part split over two fields that parsing puts in a row, across the key ${JSON.stringify(key)}`,
					`{"data":{"${key}":"${right}","1":"${left}"}}`,
				] as [string, string],
		),
		[
			'holding a part split over two fields a __proto__ key parts',
			`{"data":{"a":"${left}","__proto__":{},"":"${right}"}}`,
		],
	];

	it.each(texts)('as without it, %s', (_label, text) => {
		const redaction = redactionFor(TOKEN);
		expect(redaction.answer(JSON.parse(text), text)).toEqual(redaction.answer(JSON.parse(text)));
	});

	it.each(texts.slice(1))('shows no form of the token, %s', (_label, text) => {
		const result = redactionFor(TOKEN).answer(JSON.parse(text) as { data: unknown }, text);
		const strings = JSON.stringify(result);
		expect(shows(strings)).toBe(false);
		expect(strings).not.toContain(left);
		expect(strings).not.toContain(right);
		expect(strings).toContain('***');
	});
});

describe('a __proto__ key in an answer', () => {
	const parsed = () =>
		JSON.parse('{"error":{"__proto__":{"polluted":"yes"},"items":[{"__proto__":{"x":1}}]}}') as {
			error: { polluted?: string; items: Array<{ x?: number }> };
		};

	it.each([
		['with a token', TOKEN],
		['without one', ''],
	])('is removed, never becoming a prototype, %s', (_label, token) => {
		const answer = redactionFor(token).answer(parsed());
		expect(Object.hasOwn(answer.error, '__proto__')).toBe(false);
		expect(Object.hasOwn(answer.error.items[0], '__proto__')).toBe(false);
		expect(Object.getPrototypeOf(answer.error)).toBe(Object.prototype);
		expect(answer.error.polluted).toBeUndefined();
		expect(answer.error.items[0].x).toBeUndefined();
	});
});
