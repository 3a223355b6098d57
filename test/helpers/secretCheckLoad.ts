import { createHash } from 'node:crypto';

/**
 * Deliveries' fields for the trigger's secret check (nodes/MaintenanceManagementTrigger/secretFilter.ts):
 * headers built to multiply its decodings, a thousand short query parameters, and an ordinary
 * delivery's headers. The tests count the check's work on them, the benchmarks time it.
 */

const hex = (text: string) => Buffer.from(text).toString('hex');
const base64 = (text: string) => Buffer.from(text).toString('base64');

/** A 7.9 KB header value of one chunk repeated, under the HTTP server's 16 KB for all headers. */
const repeated = (chunk: string) => chunk.repeat(Math.floor(7900 / chunk.length));

/**
 * Two 7.9 KB headers: the first decodes in five ways at each layer (percent, form, quoted-printable,
 * backslash, HTML), the second is hex of Base64 of spaced hex, three layers of runs to decode.
 */
export const multiplyingHeaders = (): Record<string, string> => ({
	'x-a': repeated('%25+=3D\\x41&#37;'),
	'x-b': repeated(`${hex(base64('41 42 43 44 45 '.repeat(2)))},`),
	'user-agent': 'Service/1.0',
});

/** A thousand short query parameters (`a0=%410`…), as one URL within n8n's 16 KB of headers carries them. */
export const thousandParameters = (): Record<string, string> =>
	Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`a${index}`, `%41${index}`]));

/** An ordinary delivery's headers, a 1.8 KB JSON Web Token among them. */
export const ordinaryHeaders = (): Record<string, string> => {
	const token = [
		{ alg: 'RS256', typ: 'JWT' },
		{ sub: '1234567890', roles: Array.from({ length: 60 }, (_, index) => `role-${index}`) },
	]
		.map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
		.join('.');
	return {
		'user-agent':
			'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
		'x-id-token': `${token}.${Buffer.alloc(256, 7).toString('base64url')}`,
		traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
		'x-forwarded-for': '203.0.113.9, 10.0.0.1',
		referer: `https://example.com/callback?state=${'a%20b%2Fc+d'.repeat(50)}`,
	};
};

/** A 2,000-character secret of Base64 text, as a credential may hold: its parts are about 4,000. */
export const longSecret = (): string => {
	let secret = '';
	for (let index = 0; secret.length < 2000; index++)
		secret += createHash('sha512').update(String(index)).digest('base64');
	return secret.slice(0, 2000);
};
