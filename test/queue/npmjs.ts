import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
	createServer,
	request,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, TLSSocket } from 'node:tls';

/** n8n's default registry, the only one n8n installs from without a licence (its getNpmRegistry). */
export const NPMJS = 'registry.npmjs.org';

/**
 * A certificate authority made here, which may only vouch for registry.npmjs.org (a name constraint),
 * and the certificate it signed for that name, made with openssl in `dir`: the paths of the CA's
 * certificate and of the server's key and certificate.
 */
function makeCertificates(dir: string): { ca: string; key: string; cert: string } {
	const path = (name: string) => join(dir, name);
	const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
	const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl(
		'req',
		'-x509',
		...ecKey,
		'-keyout',
		path('ca.key'),
		'-out',
		path('ca.pem'),
		'-days',
		'2',
		'-subj',
		'/CN=n8n-nodes-maintenance-management queue suite',
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign,cRLSign',
		'-addext',
		`nameConstraints=critical,permitted;DNS:${NPMJS}`,
	);
	openssl(
		'req',
		...ecKey,
		'-keyout',
		path('server.key'),
		'-out',
		path('server.csr'),
		'-subj',
		`/CN=${NPMJS}`,
	);
	writeFileSync(
		path('server.ext'),
		`subjectAltName=DNS:${NPMJS}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
	);
	openssl(
		'x509',
		'-req',
		'-in',
		path('server.csr'),
		'-CA',
		path('ca.pem'),
		'-CAkey',
		path('ca.key'),
		'-CAcreateserial',
		'-days',
		'2',
		'-extfile',
		path('server.ext'),
		'-out',
		path('server.pem'),
	);
	return { ca: path('ca.pem'), key: path('server.key'), cert: path('server.pem') };
}

/** The host of a `host:port` (a CONNECT target or a Host header), without brackets or port. */
const hostOf = (target = '') => target.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');

/**
 * A stand-in for registry.npmjs.org on this machine, reached through the proxy settings n8n and npm
 * honour: an HTTPS proxy on loopback (node:http, CONNECT) that ends each tunnel's TLS itself with a
 * certificate signed by a certificate authority made here, which may only vouch for registry.npmjs.org
 * (a name constraint). It forwards requests for that host to the local registry and refuses every other
 * host, so nothing leaves the machine: a tunnel to another host fails its handshake (the certificate is
 * not for that name), a plain request for another host is answered 403.
 */
export class NpmjsStandIn {
	private readonly dir = mkdtempSync(join(tmpdir(), 'mm-npmjs-'));

	private proxy?: Server;

	private readonly sockets = new Set<Socket>();

	private readonly forwardedRequests: string[] = [];

	private readonly refusedRequests: string[] = [];

	/** Hosts whose TLS handshake failed at the stand-in: the CA vouches for no other name. */
	readonly refusedHandshakes: string[] = [];

	/** What an n8n process needs to reach the stand-in: for its own requests, and for the npm it runs. */
	env: NodeJS.ProcessEnv = {};

	/** Starts forwarding registry.npmjs.org to `registryUrl` (http://127.0.0.1:<port>/). */
	async start(registryUrl: string): Promise<void> {
		const files = makeCertificates(this.dir);
		const secureContext = createSecureContext({
			key: readFileSync(files.key),
			cert: readFileSync(files.cert),
		});
		const registry = new URL(registryUrl);
		const refuse = (res: ServerResponse, what: string) => {
			this.refusedRequests.push(what);
			res.writeHead(403, { 'content-type': 'text/plain' });
			res.end(`Refused: only ${NPMJS} is served here, to this machine`);
		};
		// The requests of the tunnels, once their TLS is set up: those for registry.npmjs.org go on.
		const requesting = new WeakSet<Socket>();
		const refused = new WeakSet<Socket>();
		const tunnelled = createServer((req, res) => {
			requesting.add(req.socket);
			const host = hostOf(req.headers.host);
			if (host !== NPMJS) return refuse(res, `${req.method} https://${host}${req.url}`);
			this.forwardedRequests.push(`${req.method} ${req.url}`);
			this.forward(req, res, registry);
		});
		this.proxy = createServer((req, res) => refuse(res, `${req.method} ${req.url}`));
		this.proxy.on('connection', (socket: Socket) => {
			this.sockets.add(socket);
			socket.once('close', () => this.sockets.delete(socket));
		});
		this.proxy.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
			const host = hostOf(req.url);
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length > 0) socket.unshift(head);
			const tls = new TLSSocket(socket, { isServer: true, secureContext });
			let secured = false;
			tls.once('secure', () => {
				secured = true;
				tunnelled.emit('connection', tls);
			});
			// A client that refuses the certificate hangs up before the handshake ends or, in TLS 1.3,
			// where it checks the certificate after the server is done, sends an alert before any request.
			const ended = (error?: Error) => {
				const failed = !secured || (error !== undefined && !requesting.has(tls));
				if (failed && !refused.has(tls)) {
					refused.add(tls);
					this.refusedHandshakes.push(host || '(no name)');
				}
				socket.destroy();
			};
			tls.once('end', () => ended());
			tls.once('close', () => ended());
			tls.once('error', ended);
		});
		await new Promise<void>((resolve) => this.proxy!.listen(0, '127.0.0.1', resolve));
		const proxy = `http://127.0.0.1:${(this.proxy.address() as AddressInfo).port}`;
		this.env = {
			// n8n's own requests (its check that a version exists, its calls to n8n's services).
			HTTPS_PROXY: proxy,
			NODE_EXTRA_CA_CERTS: files.ca,
			// npm, which n8n runs to fetch the package (npm reads no CA from NODE_EXTRA_CA_CERTS when
			// a cafile is configured, as Debian's npm is).
			npm_config_https_proxy: proxy,
			npm_config_cafile: files.ca,
		};
	}

	/** Sends one request on to the local registry and its answer back. */
	private forward(req: IncomingMessage, res: ServerResponse, registry: URL): void {
		const upstream = request(
			{
				host: registry.hostname,
				port: registry.port,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: registry.host },
				agent: false,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	}

	/** The requests forwarded to the local registry, as `METHOD path`. */
	async forwarded(): Promise<string[]> {
		return [...this.forwardedRequests];
	}

	/** The requests refused, as `METHOD url`. */
	async refused(): Promise<string[]> {
		return [...this.refusedRequests];
	}

	async stop(): Promise<void> {
		try {
			for (const socket of this.sockets) socket.destroy();
			await new Promise<void>((resolve) =>
				this.proxy ? this.proxy.close(() => resolve()) : resolve(),
			);
		} finally {
			rmSync(this.dir, { recursive: true, force: true });
		}
	}
}
