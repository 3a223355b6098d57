import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { generateCACertificate, getLocal, type MockedEndpoint, type Mockttp } from 'mockttp';

/** n8n's default registry, the only one n8n installs from without a licence (its getNpmRegistry). */
export const NPMJS = 'registry.npmjs.org';

const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

/**
 * A stand-in for registry.npmjs.org on this machine, reached through the proxy settings n8n and npm
 * honour: an HTTPS proxy (mockttp) with a certificate authority made here, which may only vouch for
 * registry.npmjs.org (a name constraint). It forwards requests for that host to the local registry and
 * refuses every other host, so nothing leaves the machine. mockttp listens on every interface and has no
 * setting for that; the stand-in answers only clients on loopback.
 */
export class NpmjsStandIn {
	private readonly dir = mkdtempSync(join(tmpdir(), 'mm-npmjs-'));

	private proxy?: Mockttp;

	private forwarding?: MockedEndpoint;

	private refusing?: MockedEndpoint;

	/** Hosts whose TLS handshake failed at the stand-in: the CA vouches for no other name. */
	readonly refusedHandshakes: string[] = [];

	/** What an n8n process needs to reach the stand-in: for its own requests, and for the npm it runs. */
	env: NodeJS.ProcessEnv = {};

	/** Starts forwarding registry.npmjs.org to `registryUrl` (http://127.0.0.1:<port>/). */
	async start(registryUrl: string): Promise<void> {
		const ca = await generateCACertificate({
			subject: { commonName: 'n8n-nodes-maintenance-management queue suite' },
			nameConstraints: { permitted: [NPMJS] },
		});
		const caFile = join(this.dir, 'ca.pem');
		writeFileSync(caFile, ca.cert);
		this.proxy = getLocal({ https: { key: ca.key, cert: ca.cert }, http2: false });
		this.forwarding = await this.proxy
			.forAnyRequest()
			.forHostname(NPMJS)
			.matching((request) => LOOPBACK.includes(request.remoteIpAddress ?? ''))
			.thenForwardTo(new URL(registryUrl).origin);
		this.refusing = await this.proxy
			.forUnmatchedRequest()
			.thenReply(403, `Refused: only ${NPMJS} is served here, to this machine`);
		this.proxy.on('tls-client-error', (failure) =>
			this.refusedHandshakes.push(failure.tlsMetadata.sniHostname ?? '(no name)'),
		);
		await this.proxy.start();
		const proxy = `http://127.0.0.1:${this.proxy.port}`;
		this.env = {
			// n8n's own requests (its check that a version exists, its calls to n8n's services).
			HTTPS_PROXY: proxy,
			NODE_EXTRA_CA_CERTS: caFile,
			// npm, which n8n runs to fetch the package (npm reads no CA from NODE_EXTRA_CA_CERTS when
			// a cafile is configured, as Debian's npm is).
			npm_config_https_proxy: proxy,
			npm_config_cafile: caFile,
		};
	}

	/** The requests forwarded to the local registry, as `METHOD path`. */
	async forwarded(): Promise<string[]> {
		return (await this.forwarding!.getSeenRequests()).map((r) => `${r.method} ${r.path}`);
	}

	/** The requests refused, as `METHOD url`. */
	async refused(): Promise<string[]> {
		return (await this.refusing!.getSeenRequests()).map((r) => `${r.method} ${r.url}`);
	}

	async stop(): Promise<void> {
		try {
			await this.proxy?.stop();
		} finally {
			rmSync(this.dir, { recursive: true, force: true });
		}
	}
}
