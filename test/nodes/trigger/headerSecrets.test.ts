import { createHash } from 'node:crypto';

import {
	carriesSecret,
	DECODING_BUDGET,
	decodingBudget,
	headersWithoutSecret,
	TEXT_COST,
	withoutSecret,
} from '../../../nodes/MaintenanceManagementTrigger/secretFilter';
import {
	longSecret,
	multiplyingHeaders,
	ordinaryHeaders,
	thousandParameters,
} from '../../helpers/secretCheckLoad';
import { basicAuth, deliver, startedItem, type Delivery, type TriggerSettings } from './harness';

/** A Base64-style secret, as the credential allows: `+`, `/` and `=` all change when encoded. */
const SECRET = 'Zm9v+YmFy/YmF6=Qk9P7x';
const credentials = { secret: SECRET, username: 'svc' };
const body = { event: 'FAILURE_CREATED', data: { id: '1' } };

const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
const base64 = (text: string) => Buffer.from(text).toString('base64');
const encoded = encodeURIComponent(SECRET);
const hex = (text: string) => Buffer.from(text).toString('hex');

const bytesOf = (text: string) =>
	[...Buffer.from(text)].map((byte) => hex(String.fromCharCode(byte)));
const groups = (text: string, size: number, separator: string) =>
	text.match(new RegExp(`.{1,${size}}`, 'g'))?.join(separator) ?? text;

/**
 * The separator variants of each encoding: white space, `:`, `,` or `;` between its bytes, groups or
 * characters (`.` and `-` too between hex bytes), and numeric HTML references without their `;`.
 */
const separated: Array<[string, string]> = [
	['in hex with colons', bytesOf(SECRET).join(':')],
	['in hex with spaces', bytesOf(SECRET).join(' ')],
	['in hex with dashes', bytesOf(SECRET).join('-').toUpperCase()],
	[
		'in hex as 0x bytes and commas',
		bytesOf(SECRET)
			.map((byte) => `0x${byte},`)
			.join(''),
	],
	[
		'in hex as 0x bytes, comma and space',
		bytesOf(SECRET)
			.map((byte) => `0x${byte}`)
			.join(', '),
	],
	['in Base64 in space-separated groups of 8', groups(base64(SECRET), 8, ' ')],
	['in Base64 in groups of 4 split by colons', groups(base64(`svc:${SECRET}`), 4, ':')],
	['in Base64 over MIME lines', groups(base64(`Bearer ${SECRET}`), 8, '\r\n')],
	['as decimal HTML references without ;', [...SECRET].map((c) => `&#${c.charCodeAt(0)}`).join('')],
	['as hex HTML references without ;', [...SECRET].map((c) => `&#x${hex(c)}`).join('')],
	['as decimal HTML references, spaced', [...SECRET].map((c) => `&#${c.charCodeAt(0)};`).join(' ')],
	['percent-encoded, spaced', [...SECRET].map((c) => `%${hex(c)}`).join(' ')],
	['as \\x escapes, comma-separated', [...SECRET].map((c) => `\\x${hex(c)}`).join(',')],
	['as is, its characters spaced', [...SECRET].join(' ')],
];

/** Every form a proxy or client gives the secret in, each in a header the node cannot know by name. */
const forms: Array<[string, string]> = [
	['raw', `token ${SECRET}`],
	['in another letter case', SECRET.toUpperCase()],
	['URL-encoded in a forwarded URI', `/webhook/abc?token=${encoded}&x=1`],
	[
		'percent-encoded with lower-case hex',
		`https://proxy.example/webhook?token=${lowerHex(encoded)}`,
	],
	['percent-encoded twice', `/webhook?token=${encodeURIComponent(encoded)}`],
	[
		'percent-encoded in every character',
		[...SECRET].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
	],
	['as Basic credentials', basicAuth('svc', SECRET)],
	['as Basic credentials with a lower-case scheme', `basic ${base64(`svc:${SECRET}`)}`],
	['as Base64url', `v1=${Buffer.from(SECRET).toString('base64url')}`],
	['as Base64 inside a path, at an odd offset', `/a/bc/${base64(`x:${SECRET}`)}`],
	['as Base64 of the URL-encoded secret', base64(`token=${encoded}`)],
	['in a JSON-like value', `{"token":"${SECRET}"}`],
	[
		'in JSON with escaped slashes, as PHP writes it',
		JSON.stringify({ token: SECRET }).replace(/\//g, '\\/'),
	],
	['in hex', `sig=${hex(SECRET)}`],
	['in hex of UTF-16', Buffer.from(SECRET, 'utf16le').toString('hex').toUpperCase()],
	[
		'as \\u escapes',
		[...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
	],
	['as \\x escapes', [...SECRET].map((c) => `\\x${hex(c)}`).join('')],
	['as decimal HTML references', [...SECRET].map((c) => `&#${c.charCodeAt(0)};`).join('')],
	[
		'as hex and named HTML references',
		SECRET.replace('+', '&plus;').replace('/', '&#x2F;').replace('=', '&equals;'),
	],
	['quoted-printable', `token=${SECRET.replace(/[+/=]/g, (c) => `=${hex(c).toUpperCase()}`)}`],
	[
		'quoted-printable with a soft line break',
		`${SECRET.slice(0, 9)}=\r\n${SECRET.slice(9).replace('=', '=3D')}`,
	],
	['as Base64 of UTF-16', Buffer.from(SECRET, 'utf16le').toString('base64')],
	['as Base64 of big-endian UTF-16', Buffer.from(SECRET, 'utf16le').swap16().toString('base64')],
	['four layers deep', base64(encodeURIComponent(hex(base64(SECRET))))],
	['Base64 four times over', base64(base64(base64(base64(SECRET))))],
	['as its first 16 characters', `${SECRET.slice(0, 16)}…`],
	['as its first 16 characters, in Base64', base64(SECRET.slice(0, 16))],
	['as its last 16 characters', `…${SECRET.slice(-16)}`],
	['as 16 characters from its middle, percent-encoded', encodeURIComponent(SECRET.slice(3, 19))],
	...separated,
];

describe('Include Headers', () => {
	it.each(forms)('leaves out a header holding the secret %s', async (_label, value) => {
		const run = await deliver(
			{ authentication: 'query', credentials, options: { includeHeaders: true } },
			{
				body,
				query: { token: SECRET },
				headers: { 'X-Carrier': value, 'X-Request-Id': 'r-1', 'User-Agent': 'Service/1.0' },
			},
		);
		const item = startedItem(run);
		expect(item?.headers).toEqual({
			'content-type': 'application/json',
			'x-request-id': 'r-1',
			'user-agent': 'Service/1.0',
		});
		expect(JSON.stringify(item)).not.toContain(value);
	});

	it('leaves out a form-encoded secret, where + stands for a space', async () => {
		const spaced = 'open sesame+plus 0123456789';
		const form = `token=${encodeURIComponent(spaced).replace(/%20/g, '+')}`;
		const run = await deliver(
			{
				authentication: 'header',
				credentials: { secret: spaced },
				options: { includeHeaders: true },
			},
			{ body, headers: { 'X-Webhook-Secret': spaced, 'X-Original-Body': form, Accept: '*/*' } },
		);
		expect(startedItem(run)?.headers).toEqual({
			'content-type': 'application/json',
			accept: '*/*',
		});
	});

	it.each([
		['in two halves', [SECRET.slice(0, 10), SECRET.slice(10)]],
		['in two halves of its Base64', [base64(SECRET).slice(0, 12), base64(SECRET).slice(12)]],
	])(
		'leaves out both of two headers side by side holding the secret %s',
		async (_label, [a, b]) => {
			const run = await deliver(
				{ authentication: 'query', credentials, options: { includeHeaders: true } },
				{
					body,
					query: { token: SECRET },
					headers: { Accept: '*/*', 'X-Part-A': a, 'X-Part-B': b, 'User-Agent': 'Service/1.0' },
				},
			);
			expect(startedItem(run)?.headers).toEqual({
				'content-type': 'application/json',
				accept: '*/*',
				'user-agent': 'Service/1.0',
			});
		},
	);

	it('leaves out Authorization-like headers whatever they hold, in Basic auth mode too', async () => {
		const run = await deliver(
			{ authentication: 'basicAuth', credentials, options: { includeHeaders: true } },
			{
				body,
				headers: {
					Authorization: basicAuth('svc', SECRET),
					'X-Forwarded-Authorization': basicAuth('svc', SECRET),
					'X-Original-Authorization': 'Bearer other',
					'Proxy-Authorization': 'Basic b3RoZXI6b3RoZXI=',
					Cookie: 'session=1',
					Host: 'n8n.example',
				},
			},
		);
		expect(startedItem(run)?.headers).toEqual({
			'content-type': 'application/json',
			host: 'n8n.example',
		});
	});

	it('leaves out other query parameters that hold the secret', async () => {
		const run = await deliver(
			{ authentication: 'header', credentials },
			{
				body,
				query: { copy: SECRET.toLowerCase(), keep: 'yes' },
				headers: { 'X-Webhook-Secret': SECRET },
			},
		);
		expect(startedItem(run)?.query).toEqual({ keep: 'yes' });
	});

	it('keeps every header when the trigger has no protection (no secret to hide)', async () => {
		const run = await deliver(
			{ authentication: 'none', options: { includeHeaders: true } },
			{ body, headers: { 'X-Carrier': basicAuth('svc', SECRET), Accept: '*/*' } },
		);
		expect(startedItem(run)?.headers).toEqual({
			'content-type': 'application/json',
			'x-carrier': basicAuth('svc', SECRET),
			accept: '*/*',
		});
	});
});

/** A query string as n8n's parser gives it: `+` a space, percent-escapes decoded, a bare name empty. */
const queryOf = (search: string) => Object.fromEntries(new URLSearchParams(search));

/** How each protection is passed, so that the delivery starts the workflow. */
const authorized: Array<[string, TriggerSettings, Delivery]> = [
	['query', { authentication: 'query', credentials }, { query: { token: SECRET } }],
	[
		'header',
		{ authentication: 'header', credentials },
		{ headers: { 'X-Webhook-Secret': SECRET } },
	],
	[
		'basicAuth',
		{ authentication: 'basicAuth', credentials },
		{ headers: { Authorization: basicAuth('svc', SECRET) } },
	],
];

/** The secret as a query parameter's name, as a URL may carry it. */
const names: Array<[string, string]> = [
	['as is (`+` read as a space, `=` splitting it into a name and a value)', SECRET],
	['percent-encoded', encodeURIComponent(SECRET)],
	['in Base64', encodeURIComponent(base64(SECRET))],
	['in Base64url', Buffer.from(SECRET).toString('base64url')],
	['after a prefix, with a value', `sig_${encodeURIComponent(SECRET)}=yes`],
	['as is, after a prefix', `sig_${SECRET}=yes`],
	['as its last 16 characters', encodeURIComponent(SECRET.slice(-16))],
];

describe('the query', () => {
	describe.each(authorized)('under %s protection', (_protection, settings, delivery) => {
		it.each(names)(
			'leaves out a parameter whose name holds the secret %s',
			async (_label, name) => {
				const run = await deliver(
					{ ...settings, options: { includeHeaders: true } },
					{
						...delivery,
						body,
						query: { ...delivery.query, ...queryOf(`${name}&keep=yes`) },
					},
				);
				const item = startedItem(run);
				expect(item?.query).toEqual({ keep: 'yes' });
				const output = JSON.stringify(item);
				for (const form of [
					SECRET,
					SECRET.replace('+', ' '),
					base64(SECRET),
					encodeURIComponent(SECRET),
				])
					expect(output).not.toContain(form.slice(0, 12));
			},
		);
	});

	it('leaves out a value holding the secret with its `+` read as a space', async () => {
		const run = await deliver(
			{ authentication: 'header', credentials },
			{ body, query: queryOf(`copy=${SECRET}&keep=yes`), headers: { 'X-Webhook-Secret': SECRET } },
		);
		expect(startedItem(run)?.query).toEqual({ keep: 'yes' });
	});
});

/**
 * Puts `wrapper` in place of the method `name` of `owner` (a built-in prototype) and returns what puts
 * the method back.
 */
function counting<O extends object, K extends keyof O>(
	owner: O,
	name: K,
	wrapper: O[K],
): () => void {
	const method = owner[name];
	owner[name] = wrapper;
	return () => {
		owner[name] = method;
	};
}

describe('the work of the secret check', () => {
	it('reads a delivery built to multiply its decodings within one budget, leaving out what it did not reach', () => {
		const budget = decodingBudget();
		const kept = headersWithoutSecret(multiplyingHeaders(), SECRET, budget);
		// Unbounded, the same check read 580,000 characters of decodings for such a delivery.
		expect(budget.left).toBeGreaterThanOrEqual(0);
		expect(DECODING_BUDGET - budget.left).toBeLessThanOrEqual(DECODING_BUDGET);
		expect(Object.keys(kept)).not.toContain('x-a');
		expect(Object.keys(kept)).not.toContain('x-b');
	});

	it('reads an ordinary delivery, a JSON Web Token among its headers, in a fraction of the budget, keeping it whole', () => {
		const headers = ordinaryHeaders();
		const budget = decodingBudget();
		expect(headersWithoutSecret(headers, SECRET, budget)).toEqual(headers);
		expect(DECODING_BUDGET - budget.left).toBeLessThan(DECODING_BUDGET / 2);
	});

	/**
	 * The characters the check handles while `check` runs, counted where it compares: each text searched
	 * with `includes`, each piece cut with `slice`, each text looked up in or added to a Set. The methods
	 * are wrapped for the run, not spied on with jest: a jest spy keeps every call's arguments, and the
	 * check makes millions of these calls.
	 */
	function workOf(check: () => void): number {
		let work = 0;
		const length = (value: unknown) => (typeof value === 'string' ? value.length : 1);
		const { includes, slice } = String.prototype;
		const { has, add } = Set.prototype;
		const restore = [
			counting(String.prototype, 'includes', function (this: string, ...args) {
				work += this.length;
				return includes.apply(this, args);
			}),
			counting(String.prototype, 'slice', function (this: string, ...args) {
				const piece = slice.apply(this, args);
				work += piece.length;
				return piece;
			}),
			counting(Set.prototype, 'has', function (this: Set<unknown>, value) {
				work += length(value);
				return has.call(this, value);
			}),
			counting(Set.prototype, 'add', function (this: Set<unknown>, value) {
				work += length(value);
				return add.call(this, value);
			}),
		];
		try {
			check();
		} finally {
			for (const undo of restore) undo();
		}
		return work;
	}

	it("does work that grows with what it reads, not with the secret's length", () => {
		const work = (secret: string) =>
			workOf(() => {
				const budget = decodingBudget();
				headersWithoutSecret(multiplyingHeaders(), secret, budget);
				headersWithoutSecret(ordinaryHeaders(), secret, budget);
			});
		const short = work(SECRET);
		const longWork = work(longSecret());
		// Comparing every reading with each of the long secret's 4,000 parts, its parts built again for
		// each field, cost 220 million characters against 1.8 million; rolled windows, 1.1 against 0.9.
		expect(longWork).toBeLessThan(2 * short);
	});

	/**
	 * What the check writes and reads while `check` runs: the characters of every text it keeps in a
	 * Set (each text it reads, each reading a decoding writes) and the texts it compares (each is put
	 * in lower case once).
	 */
	function textsOf(check: () => void): { characters: number; texts: number } {
		let characters = 0;
		let texts = 0;
		const { add } = Set.prototype;
		const { toLowerCase } = String.prototype;
		const restore = [
			counting(Set.prototype, 'add', function (this: Set<unknown>, value) {
				if (typeof value === 'string') characters += value.length;
				return add.call(this, value);
			}),
			counting(String.prototype, 'toLowerCase', function (this: string) {
				texts += 1;
				return toLowerCase.call(this);
			}),
		];
		try {
			check();
		} finally {
			for (const undo of restore) undo();
		}
		return { characters, texts };
	}

	const QUERY = { leftOutByName: () => false, joiner: '=' };

	/** Secrets whose decodings cost the most, by what makes them costly. */
	const COSTLY: Record<string, string> = {
		'a Base64 secret': 'Q3x+T9/kLm2Pz8wRb4Vn+Yh1cA==',
		'a plain 32-letter secret': 'abcdefghijklmnopqrstuvwxyzABCDEF',
		'a secret of spaced letters': 'a b c d e f g h i j k l m n o p q r s t',
		'a secret mostly of spaces': `x${' '.repeat(15)}y${' '.repeat(15)}z`,
		'a secret of groups and commas': 'ab, cd, ef, gh, ij, kl, mn, op, qr',
	};

	it.each([
		['two crafted 7.9 KB headers', 'a Base64 secret'],
		['two crafted 7.9 KB headers', 'a plain 32-letter secret'],
		['two crafted 7.9 KB headers', 'a secret of spaced letters'],
		['a thousand short query parameters', 'a secret of spaced letters'],
		['a thousand short query parameters', 'a secret mostly of spaces'],
		['a thousand short query parameters', 'a secret of groups and commas'],
	])('bounds its work by its budget for %s with %s', (fields, costly) => {
		const secret = COSTLY[costly];
		const budget = decodingBudget();
		const work = textsOf(() =>
			fields === 'a thousand short query parameters'
				? withoutSecret(thousandParameters(), secret, QUERY, budget)
				: headersWithoutSecret(multiplyingHeaders(), secret, budget),
		);
		// Unbounded by their number, the texts were 18,842 for the thousand parameters and a secret mostly
		// of spaces, and the characters written 670,000 against a budget of 100,000.
		expect(work.texts).toBeLessThanOrEqual(DECODING_BUDGET / TEXT_COST + 64);
		expect(work.characters).toBeLessThanOrEqual(1.5 * DECODING_BUDGET);
		expect(budget.left).toBeGreaterThanOrEqual(0);
	});

	it('leaves out query parameters built to multiply its decodings, as it does headers', async () => {
		const { 'x-a': a, 'x-b': b } = multiplyingHeaders();
		const run = await deliver(
			{ authentication: 'header', credentials },
			{ body, query: { a, b }, headers: { 'X-Webhook-Secret': SECRET } },
		);
		expect(startedItem(run)?.query).toBeUndefined();
	});
});

describe('carriesSecret', () => {
	it.each(forms)('finds the secret %s', (_label, value) => {
		expect(carriesSecret(value, SECRET)).toBe(true);
	});

	it.each([
		['an unrelated value', 'Mozilla/5.0 (X11; Linux x86_64)'],
		['Base64 of something else', basicAuth('svc', 'another-secret-entirely')],
		['a part of the secret', SECRET.slice(0, 10)],
		['its first 15 characters', SECRET.slice(0, 15)],
		[
			'a browser User-Agent',
			'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
		],
		['a request ID in hex', 'a3f09c1e5b7d4e2f8c6a1b0d9e8f7a6b'],
		['HTML and escapes of something else', '&lt;b&gt;\\u0041 &#65;=41'],
		['broken percent-encoding', '%zz%4'],
		['nothing', ''],
	])('finds no secret in %s', (_label, value) => {
		expect(carriesSecret(value, SECRET)).toBe(false);
	});

	/** The limits the security notes state: these forms are not recognised, and the header is output. */
	it.each([
		['in hex with another separator (|)', bytesOf(SECRET).join('|')],
		['in Base64 in groups split by a dot', groups(base64(SECRET), 8, '.')],
		['its characters split by another separator (|)', [...SECRET].join('|')],
		['cut into parts of 15 characters, not side by side', SECRET.slice(0, 15)],
		['hashed', createHash('sha256').update(SECRET).digest('hex')],
		[
			'encrypted (reversed and shifted)',
			[...SECRET]
				.reverse()
				.map((c) => String.fromCharCode(c.charCodeAt(0) + 1))
				.join(''),
		],
	])('a stated limit: does not find the secret %s', (_label, value) => {
		expect(carriesSecret(value, SECRET)).toBe(false);
	});

	it('counts 16 characters of the secret in a row without its separators, however many it holds', () => {
		const spaced = 'a b c d e f g h i j k l m n o p q r s t';
		expect(carriesSecret('x-abcdefghijklmnop', spaced)).toBe(true);
		expect(carriesSecret('e f g h i j k l m n o p q r s t', spaced)).toBe(true);
		expect(carriesSecret(Buffer.from('eFGhijklmnopqrst').toString('base64'), spaced)).toBe(true);
		// 16 of its characters as typed, half of them spaces, and 15 without them: no part.
		expect(carriesSecret('a b c d e f g h ', spaced)).toBe(false);
		expect(carriesSecret('abcdefghijklmno', spaced)).toBe(false);
	});

	/** One part of the secret, 16 characters in a row, in each encoding the check undoes. */
	const part = SECRET.slice(3, 19);
	const partForms: Array<[string, string]> = [
		['as is', part],
		[
			'percent-encoded',
			[...Buffer.from(part)].map((byte) => `%${hex(String.fromCharCode(byte))}`).join(''),
		],
		['form-encoded', encodeURIComponent(part).replace(/%20/g, '+')],
		['quoted-printable', part.replace(/[+/=]/g, (c) => `=${hex(c).toUpperCase()}`)],
		['JSON-escaped', part.replace(/\//g, '\\/')],
		[
			'as \\u escapes',
			[...part].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
		],
		['as HTML references', [...part].map((c) => `&#${c.charCodeAt(0)};`).join('')],
		['in hex', hex(part)],
		['in Base64', base64(part)],
		['in Base64 of UTF-16', Buffer.from(part, 'utf16le').toString('base64')],
		['in the Base64 of its percent-encoding', base64(encodeURIComponent(part))],
	];

	it.each(partForms)(
		'finds a part of the secret %s, in a form at least as long as the part',
		(_label, value) => {
			expect(carriesSecret(value, SECRET)).toBe(true);
			expect(value.length).toBeGreaterThanOrEqual(part.length);
		},
	);

	it('does no work for a value shorter than every part of the secret, not even building the parts', () => {
		const budget = decodingBudget();
		for (const value of [
			SECRET.slice(0, 15),
			'FAILURE_CREATED',
			'x-request-id',
			{ a: 1 },
			['svc', 'erp'],
		])
			expect(carriesSecret(value, SECRET, budget)).toBe(false);
		expect(budget.left).toBe(DECODING_BUDGET);
		expect(budget.parts).toBeUndefined();
		// A value of 16 characters or more is read.
		expect(carriesSecret(`${SECRET.slice(0, 16)}`, SECRET, budget)).toBe(true);
		expect(budget.parts).toBeDefined();
	});

	it('reads a value as long as a secret shorter than 16 characters, without its separators', () => {
		const short = 'a+b c';
		const budget = decodingBudget();
		expect(carriesSecret('ab', short, budget)).toBe(false);
		expect(budget.parts).toBeUndefined();
		// Its forms are `a+bc` and, with `+` as a space, `abc`: a value of 3 characters can hold it.
		expect(carriesSecret('ABC', short, budget)).toBe(true);
		expect(carriesSecret('xa+bcx', short, budget)).toBe(true);
		expect(carriesSecret('tok', 'tok', decodingBudget())).toBe(true);
		expect(carriesSecret('to', 'tok', decodingBudget())).toBe(false);
	});

	it('looks inside repeated headers (arrays) and finds nothing without a secret', () => {
		expect(carriesSecret(['a=1', `b=${encoded}`], SECRET)).toBe(true);
		expect(carriesSecret(SECRET, '')).toBe(false);
		expect(carriesSecret(undefined, SECRET)).toBe(false);
	});
});
