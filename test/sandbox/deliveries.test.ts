import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import type { EventName } from '../../nodes/MaintenanceManagementTrigger/events';
import { startSandbox, type Delivery, type RunningSandbox } from '../../sandbox';
import { Deliveries } from '../../sandbox/deliveries';
import { specEventNames } from '../helpers/contract';

const ROOT = join(__dirname, '..', '..');

/** The sandbox's, the nodes' and the scripts' own sources, generated files left out. */
const sourceFiles = () =>
	['sandbox', 'nodes', 'scripts']
		.flatMap((folder) =>
			readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).map((file) =>
				join(folder, file),
			),
		)
		.filter((path) => /\.(ts|js|html)$/.test(path) && !/\.generated\.|\.d\.ts$/.test(path))
		.map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

/** How many letters must change, be added or be dropped to turn one name into the other. */
function editDistance(a: string, b: string): number {
	let row = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const next = [i];
		for (let j = 1; j <= b.length; j++)
			next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
		row = next;
	}
	return row[b.length];
}

/**
 * Webhook deliveries to receivers that misbehave: a huge answer, no answer, a redirect to another origin.
 * Each test waits on servers on loopback, so the suite has a deliberate time-out.
 */
jest.setTimeout(20_000);

const SECRET = 'delivery-secret-0123456789';
/** The sandbox gives up a delivery after this long here (10 s by default). */
const TIMEOUT_MS = 300;

let sandbox: RunningSandbox;
const servers: Server[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true, deliveryTimeoutMs: TIMEOUT_MS });
});
afterAll(async () => {
	await sandbox.close();
	for (const server of servers) server.closeAllConnections();
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A receiver on loopback; returns its base URL. */
async function receiver(
	handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
	const server = createServer(handle);
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function control(method: string, path: string, body: unknown) {
	const response = await fetch(`${sandbox.controlUrl}${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Registers only `url`, with the secret in a header and the query, and fires one event to it. */
async function fireTo(url: string): Promise<Delivery> {
	await control('POST', '/reset', {});
	await control('POST', '/webhooks', {
		url: `${url}/hook?token=${SECRET}`,
		events: ['*'],
		headers: { 'X-Webhook-Secret': SECRET },
	});
	const fired = await control('POST', '/events', { event: 'FAILURE_CREATED' });
	expect(fired.status).toBe(200);
	const [delivery] = fired.body.deliveries as Delivery[];
	return delivery;
}

describe('webhook deliveries', () => {
	it('read at most 64 KB of the receiver answer and hang up on the rest', async () => {
		const answerBytes = 64 * 1024 * 1024;
		let written = 0;
		let hungUp!: () => void;
		const closed = new Promise<void>((resolve) => (hungUp = resolve));
		const url = await receiver((req, res) => {
			req.resume();
			res.writeHead(200, { 'Content-Type': 'application/json' });
			const chunk = Buffer.alloc(64 * 1024, 'a');
			const more = () => {
				while (written < answerBytes && !res.destroyed) {
					written += chunk.length;
					if (!res.write(chunk)) return void res.once('drain', more);
				}
				res.end();
			};
			res.on('close', hungUp);
			more();
		});
		const delivery = await fireTo(url);
		await closed;
		expect(delivery).toMatchObject({ status: 200, response: 'a'.repeat(2000) });
		// Socket buffers take a few megabytes at most before the sandbox hangs up.
		expect(written).toBeLessThan(answerBytes / 4);
	});

	it('give up a receiver that never answers, and the console action that fired it returns', async () => {
		const silent = await receiver(() => undefined);
		const silentBody = await receiver((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.write('{"received":');
		});
		for (const url of [silent, silentBody]) {
			await control('POST', '/reset', {});
			await control('POST', '/webhooks', { url: `${url}/hook`, events: ['*'] });
			const reported = await control('POST', '/failures', { description: 'Leaking tap' });
			expect(reported.status).toBe(201);
			expect(reported.body.deliveries).toEqual([
				expect.objectContaining({
					event: 'FAILURE_CREATED',
					error: `No answer within ${TIMEOUT_MS / 1000} s: the delivery was given up.`,
				}),
			]);
		}
	});

	it('never take the secret to another origin on a redirect', async () => {
		const stolen: IncomingMessage[] = [];
		const elsewhere = await receiver((req, res) => {
			stolen.push(req);
			res.end('{}');
		});
		for (const status of [301, 302, 307, 308]) {
			const redirecting = await receiver((_req, res) => {
				res.writeHead(status, { Location: `${elsewhere.replace('127.0.0.1', 'localhost')}/steal` });
				res.end();
			});
			const delivery = await fireTo(redirecting);
			expect(delivery).toMatchObject({
				status,
				error: expect.stringContaining('deliveries do not follow redirects'),
			});
		}
		expect(stolen).toEqual([]);
	});
});

describe('npm run sandbox', () => {
	it('stops on SIGTERM after an API write, while a delivery still waits on its receiver', async () => {
		const silent = await receiver(() => undefined);
		const child = spawn(process.execPath, ['--import', 'tsx', join('sandbox', 'cli.ts')], {
			cwd: join(__dirname, '..', '..'),
			env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_CONTRACT: '0' },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		const exited = new Promise<string>((resolve) =>
			child.once('exit', (code, signal) => resolve(`exited (${code ?? signal})`)),
		);
		try {
			const line = await new Promise<string>((resolve) =>
				createInterface({ input: child.stdout }).once('line', resolve),
			);
			const started = JSON.parse(line) as {
				controlUrl: string;
				environments: { sandbox: { baseUrl: string; token: string } };
			};
			await fetch(`${started.controlUrl}/webhooks`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ url: `${silent}/hook`, events: ['*'] }),
			});
			const { baseUrl, token } = started.environments.sandbox;
			const write = await fetch(`${baseUrl}/sales/buy-orders/3`, {
				method: 'PATCH',
				headers: {
					Authorization: `Bearer ${token}`,
					Accept: 'application/json',
					'Content-Type': 'application/json',
				},
				body: JSON.stringify({ external_sale_id: 'E-1' }),
			});
			expect(write.status).toBe(200);
			child.kill('SIGTERM');
			// A deliberate bound, not a measure of speed: the delivery would wait 10 s, the test 20 s.
			let timer: NodeJS.Timeout | undefined;
			const outcome = await Promise.race([
				exited,
				new Promise<string>(
					(resolve) => (timer = setTimeout(() => resolve('still running'), 8000)),
				),
			]);
			clearTimeout(timer);
			expect(outcome).toBe('exited (0)');
		} finally {
			child.kill('SIGKILL');
		}
	});
});

describe('the events the sandbox fires', () => {
	it('are events of spec/openapi.yaml: another name fails, naming it', async () => {
		const deliveries = new Deliveries();
		const misspelt = 'FAILURE_CRATED' as EventName;
		const message =
			'The sandbox fires "FAILURE_CRATED", which is no event of spec/openapi.yaml (webhooks): fix the name';
		await expect(deliveries.deliver(misspelt, {})).rejects.toThrow(message);
		expect(() => deliveries.emit(misspelt, { id: '1', type: 'failure', attributes: {} })).toThrow(
			message,
		);
	});

	it('are spelt as the document spells them wherever the sandbox, the nodes or the scripts name one', () => {
		const events = specEventNames();
		const misspelt = sourceFiles().flatMap(({ path, text }) =>
			[
				...new Set(
					[...text.matchAll(/['"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"`]/g)].map(([, name]) => name),
				),
			]
				.filter((name) => !events.includes(name))
				.flatMap((name) => {
					// Names whose lengths differ by more than two are more than two letters apart.
					const meant = events.find(
						(event) => Math.abs(event.length - name.length) <= 2 && editDistance(event, name) <= 2,
					);
					return meant ? [`${path}: ${name} is no event of spec/openapi.yaml (${meant}?)`] : [];
				}),
		);
		expect(misspelt).toEqual([]);
	});

	it('are fired on request by name only: an unknown name gets 400, naming it', async () => {
		const answer = await control('POST', '/events', { event: 'FAILURE_CRATED' });
		expect(answer.status).toBe(400);
		expect(answer.body.error).toMatch(
			/^Unknown event "FAILURE_CRATED": use one of the event names/,
		);
	});
});
