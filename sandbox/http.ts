/** Reading and writing HTTP messages: a request's body, a JSON answer, request text made printable. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { plainText } from '../scripts/plainText';

/** The largest request body the sandbox reads: 10 MB. A larger one is answered with 413 in the spec's error body. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** A request body larger than the limit. */
export class BodyTooLarge extends Error {}

/**
 * The whole body of a request, as text. Past `limit` bytes the rest is read and dropped, and the promise
 * rejects with BodyTooLarge; it rejects too when the client goes away before the body ends.
 */
export const readBody = (req: IncomingMessage, limit = Infinity): Promise<string> =>
	new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let ended = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) chunks.length = 0;
			else chunks.push(chunk);
		});
		req.on('end', () => {
			ended = true;
			if (size > limit) reject(new BodyTooLarge(`The body is larger than ${limit} bytes.`));
			else resolve(Buffer.concat(chunks).toString('utf8'));
		});
		req.on('error', reject);
		req.on('close', () => {
			if (!ended) reject(new Error('The client went away before the body ended.'));
		});
	});

/** Answers with a JSON body (none when `body` is undefined). */
export const send = (
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void => {
	const text = body === undefined ? '' : JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(text),
		...headers,
	});
	res.end(text);
};

/**
 * Text from a request made safe for a terminal and bounded: each control or format character written
 * as its `\u` escape (scripts/plainText.js), and anything past `max` characters cut with a note of how
 * much was cut.
 */
export function printable(text: string, max: number): string {
	return plainText(
		text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text,
	);
}

/** A request's body as the server read it. */
export interface ReceivedBody {
	text: string;
	/** The parsed JSON, or null when there is none or it is not JSON. */
	body: unknown;
	/** A body that is not valid JSON. */
	malformed: boolean;
	/** A body over MAX_BODY_BYTES, which was not kept. */
	tooLarge: boolean;
}

/** Reads and parses a request's body; undefined when the client went away before it ended. */
export async function receive(req: IncomingMessage): Promise<ReceivedBody | undefined> {
	let text = '';
	let tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
	if (!tooLarge) {
		try {
			text = await readBody(req, MAX_BODY_BYTES);
		} catch (error) {
			// A client that went away has no one to answer: its socket is let go.
			if (!(error instanceof BodyTooLarge)) return undefined;
			tooLarge = true;
		}
	}
	let body: unknown = null;
	let malformed = false;
	if (text) {
		try {
			body = JSON.parse(text);
		} catch {
			malformed = true;
		}
	}
	return { text, body, malformed, tooLarge };
}
