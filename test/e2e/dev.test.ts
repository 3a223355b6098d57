import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './n8n';

/**
 * `npm run dev` refuses to start on a port that is taken, rather than report an editor that never came:
 * it stops at once, names the port and its variable, and exits non-zero.
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
});
