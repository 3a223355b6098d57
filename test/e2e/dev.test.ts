import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './n8n';

/**
 * `npm run dev` never reports an editor that did not come: on a taken port it stops at once, naming the
 * port and its variable; when n8n fails, it exits non-zero with n8n's reason. Both without "ready".
 */
jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..');

function runDev(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [join(ROOT, 'scripts', 'dev.js')], {
			cwd: ROOT,
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.once('exit', (code) => resolve({ code, output }));
	});
}

describe('npm run dev', () => {
	let holder: Server;
	let taken: number;
	const folder = mkdtempSync(join(tmpdir(), 'mm-dev-'));

	beforeAll(async () => {
		taken = await freePort();
		holder = createServer();
		await new Promise<void>((resolve) => holder.listen(taken, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		await new Promise((resolve) => holder.close(resolve));
		rmSync(folder, { recursive: true, force: true });
	});

	it.each(['N8N_PORT', 'N8N_RUNNERS_BROKER_PORT', 'SANDBOX_PORT'])(
		'stops with a non-zero exit when %s names a taken port, and says which',
		async (variable) => {
			const { code, output } = await runDev({
				DEV_USER_FOLDER: folder,
				[variable]: String(taken),
			});
			expect(code).toBe(1);
			expect(output).toContain(`Port ${taken} (${variable}) is in use`);
			expect(output).not.toContain('[dev] ready');
		},
	);

	it('refuses a port that is not a number', async () => {
		const { code, output } = await runDev({ DEV_USER_FOLDER: folder, N8N_PORT: 'abc' });
		expect(code).toBe(1);
		expect(output).toContain('N8N_PORT=abc is not a port number');
	});

	it('exits non-zero with the reason when n8n fails, and never says ready', async () => {
		// A user folder whose n8n settings hold another encryption key: n8n refuses to use it.
		const broken = mkdtempSync(join(tmpdir(), 'mm-dev-broken-'));
		mkdirSync(join(broken, '.n8n'));
		writeFileSync(join(broken, '.n8n', 'config'), JSON.stringify({ encryptionKey: 'another-key' }));
		try {
			const { code, output } = await runDev({ DEV_USER_FOLDER: broken });
			expect(code).toBe(1);
			expect(output).toMatch(/encryption key/i);
			expect(output).toMatch(/n8n import:credentials failed \(exit code 1\)/);
			expect(output).not.toContain('[dev] ready');
		} finally {
			rmSync(broken, { recursive: true, force: true });
		}
	});

	it('starts quietly: the console first, no call to an unregistered webhook, no community node fetch', async () => {
		const quiet = mkdtempSync(join(tmpdir(), 'mm-dev-quiet-'));
		// As a user's shell has it: without jest's NODE_ENV=test, under which n8n does not start.
		const shell = { ...process.env };
		delete shell.NODE_ENV;
		const child = spawn(process.execPath, [join(ROOT, 'scripts', 'dev.js')], {
			cwd: ROOT,
			detached: true,
			env: {
				...shell,
				DEV_USER_FOLDER: quiet,
				N8N_PORT: String(await freePort()),
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				SANDBOX_PORT: String(await freePort()),
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
		let timer: NodeJS.Timeout | undefined;
		try {
			const ready = await Promise.race([
				(async () => {
					while (!output.includes('[dev] ready')) await new Promise((r) => setTimeout(r, 500));
					return true;
				})(),
				exited.then(() => false),
				new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 240_000))),
			]);
			clearTimeout(timer);
			if (!ready) expect(output.slice(-3000)).toContain('[dev] ready');
			// The console is offered before n8n is started (and installed, on a first run).
			const consoleAt = output.indexOf('[dev] console:');
			expect(consoleAt).toBeGreaterThan(-1);
			expect(consoleAt).toBeLessThan(output.indexOf('[dev] starting n8n'));
			// The example trigger's Production URL is registered and answers a delivery.
			const controlUrl = /\[dev\] sandbox on (\S+)/.exec(output)![1] + '/__sandbox';
			const fired = await fetch(`${controlUrl}/events`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ event: 'FAILURE_CREATED' }),
			});
			const { deliveries } = (await fired.json()) as { deliveries: Array<{ status: number }> };
			expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
			expect(output).not.toMatch(/unknown webhook|is not registered/i);
			expect(output).not.toMatch(/community nodes/i);
		} finally {
			process.kill(-child.pid!, 'SIGTERM');
			await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
			if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
			rmSync(quiet, { recursive: true, force: true });
		}
	}, 300_000);
});
