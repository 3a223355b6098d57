import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:tls';

import { NPMJS, NpmjsStandIn } from '../queue/npmjs';

/**
 * The queue suite's stand-in for registry.npmjs.org (test/queue/npmjs.ts), by itself: it forwards that
 * host's requests to the local registry, and nothing else leaves it.
 */
const standIn = new NpmjsStandIn();
let registry: Server;
const seen: string[] = [];

beforeAll(async () => {
	registry = createServer((req, res) => {
		seen.push(`${req.method} ${req.url}`);
		res.end(`served ${req.url}`);
	});
	await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
	await standIn.start(`http://127.0.0.1:${(registry.address() as AddressInfo).port}/`);
});
afterAll(async () => {
	await standIn.stop();
	registry.closeAllConnections();
	await new Promise((resolve) => registry.close(resolve));
});

const proxyPort = () => Number(new URL(standIn.env.HTTPS_PROXY!).port);

/** A GET through a CONNECT tunnel to `host`, trusting only the stand-in's CA: the answer, or the error. */
const getThrough = (host: string, path: string) =>
	new Promise<string>((resolve) => {
		const tunnel = request({
			host: '127.0.0.1',
			port: proxyPort(),
			method: 'CONNECT',
			path: `${host}:443`,
		});
		tunnel.on('connect', (_answer, socket) => {
			const tls = connect(
				{ socket, servername: host, ca: readFileSync(standIn.env.NODE_EXTRA_CA_CERTS!) },
				() => tls.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
			);
			let answer = '';
			tls.on('data', (chunk) => (answer += chunk));
			tls.on('end', () => resolve(answer));
			tls.on('error', (error) => {
				socket.destroy();
				resolve(`error: ${error.message}`);
			});
		});
		tunnel.end();
	});

describe('the registry.npmjs.org stand-in', () => {
	it('forwards that host to the local registry, under the certificate its CA signed', async () => {
		const answer = await getThrough(NPMJS, '/pkg/-/pkg-1.0.0.tgz');
		expect(answer).toMatch(/^HTTP\/1\.1 200 /);
		expect(answer).toMatch(/served \/pkg\/-\/pkg-1\.0\.0\.tgz$/);
		expect(seen).toEqual(['GET /pkg/-/pkg-1.0.0.tgz']);
		expect(await standIn.forwarded()).toEqual(['GET /pkg/-/pkg-1.0.0.tgz']);
	});

	it('fails the handshake for another host, and notes it', async () => {
		expect(await getThrough('registry.example.org', '/pkg')).toMatch(/^error: Hostname\/IP/);
		const noted = async () => {
			for (let tries = 0; tries < 100; tries++) {
				if (standIn.refusedHandshakes.includes('registry.example.org')) return true;
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			return false;
		};
		expect(await noted()).toBe(true);
		expect(seen).toEqual(['GET /pkg/-/pkg-1.0.0.tgz']);
	});

	it('refuses a plain request for another host', async () => {
		const answer = await new Promise<string>((resolve) =>
			request({ host: '127.0.0.1', port: proxyPort(), path: 'http://example.com/x' }, (res) => {
				let body = '';
				res.on('data', (chunk) => (body += chunk));
				res.on('end', () => resolve(`${res.statusCode} ${body}`));
			}).end(),
		);
		expect(answer).toBe(`403 Refused: only ${NPMJS} is served here, to this machine`);
		expect(await standIn.refused()).toEqual(['GET http://example.com/x']);
	});

	it('hands out a CA that may vouch for registry.npmjs.org only (a name constraint)', () => {
		const ca = standIn.env.NODE_EXTRA_CA_CERTS!;
		expect(standIn.env.npm_config_cafile).toBe(ca);
		const constraints = execFileSync(
			'openssl',
			['x509', '-noout', '-ext', 'nameConstraints', '-in', ca],
			{
				encoding: 'utf8',
			},
		);
		expect(constraints.replace(/\s+/g, ' ').trim()).toBe(
			`X509v3 Name Constraints: critical Permitted: DNS:${NPMJS}`,
		);
	});
});
