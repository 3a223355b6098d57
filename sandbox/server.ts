import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ApiError, MESSAGES } from './answers';
import type { ApiHandler } from './apiHandler';
import type { Control } from './control';
import { apiRefusal, refusal } from './guard';
import { receive, send } from './http';
import type { SandboxOptions } from './options';

const selfOrigin = (host: string | undefined): string => {
	try {
		return new URL(`http://${host ?? ''}`).origin;
	} catch {
		return 'http://sandbox.local';
	}
};

/**
 * The HTTP server: refuses what a stranger's page sends on its headers alone, reads the body, and hands
 * the request to the control API (`/__sandbox/...` and `/`) or to the API.
 */
export class SandboxServer {
	private readonly server: Server;

	/** The port listened on, once listening. */
	port = 0;

	constructor(
		private readonly options: SandboxOptions,
		private readonly api: ApiHandler,
		private readonly control: Control,
	) {
		this.server = createServer((req, res) => {
			// Whatever a request does, the sandbox answers it or drops it, and keeps serving.
			this.handle(req, res).catch((error: unknown) => {
				if (!options.quiet) console.error(error);
				if (res.headersSent) res.destroy();
				else send(res, 500, new ApiError(500, MESSAGES[500]).body(), { Connection: 'close' });
			});
		});
		this.server.keepAliveTimeout = 5000;
	}

	/** Listens on the options' host and port (a free port unless set), and returns the base URL. */
	async listen(): Promise<string> {
		const host = this.options.host ?? '127.0.0.1';
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.options.port ?? 0, host, () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		({ port: this.port } = this.server.address() as AddressInfo);
		return `http://${host}:${this.port}`;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		let url: URL;
		try {
			// Links name the address the client used, as the live API's name its own host.
			url = new URL(req.url ?? '/', selfOrigin(req.headers.host));
		} catch {
			return send(
				res,
				400,
				new ApiError(400, MESSAGES[400], {
					url: ['The request target is not a valid URL.'],
				}).body(),
				{ Connection: 'close' },
			);
		}
		const isControl = url.pathname === '/' || url.pathname.startsWith('/__sandbox/');
		// Nothing of a request from a stranger's page is read: a control call from another origin, or an API
		// call to another Host or with a body that is not JSON, is refused on its headers alone.
		const refused = isControl
			? refusal(req.method ?? 'GET', req.headers, this.port)
			: apiRefusal(req.headers, this.port);
		if (typeof refused === 'string')
			return send(res, 403, { error: refused }, { Connection: 'close' });
		if (refused)
			return send(res, refused.status, new ApiError(refused.status, refused.message).body(), {
				Connection: 'close',
			});
		const received = await receive(req);
		if (!received) return void res.destroy();
		if (isControl) return await this.control.handle(req.method ?? 'GET', url, received, res);
		return await this.api.handle(req, res, url, received);
	}
}
