import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawAnswer {
	status: number;
	headers: IncomingHttpHeaders;
	text: string;
}

/**
 * A raw HTTP call to a server on 127.0.0.1, so that the test chooses every header, Host included (it is
 * `127.0.0.1:<port>` unless given).
 */
export function rawHttp(
	port: number,
	method: string,
	path: string,
	headers: OutgoingHttpHeaders,
	body?: string,
): Promise<RawAnswer> {
	return new Promise((resolve, reject) => {
		const req = request(
			{ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
			(res) => {
				let text = '';
				res.on('data', (chunk: Buffer) => (text += chunk.toString()));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}
