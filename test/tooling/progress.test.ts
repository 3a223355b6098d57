import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { reporter } from '../../scripts/progress';

/**
 * The progress of a long install step (scripts/progress.js, beside npm install and the sqlite3 build):
 * each report says something true that moves, or what it waits on, never the same line again and again.
 * The reports are taken one by one, each after the change it must show, so no timing is involved.
 */
jest.setTimeout(30_000);

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'progress.js');

describe('the install progress', () => {
	let dir: string;
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mm-progress-'))));
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('names the phase and counts the package folders as npm makes them', () => {
		const report = reporter({ step: 'npm install', dir, total: '3', intervalMs: 10_000 });
		expect(report()).toMatch(/^\[runtime\] {3}npm install, resolving and downloading; /);
		mkdirSync(join(dir, 'node_modules', 'a'), { recursive: true });
		expect(report()).toContain('unpacking: 1 of about 3 packages');
		mkdirSync(join(dir, 'node_modules', '@scope', 'b'), { recursive: true });
		mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
		expect(report()).toContain('unpacking: 2 of about 3 packages');
	});

	it('reports how much was written since the step began, then what it waits on', () => {
		let clock = 0;
		let disk = 5_000_000_000;
		const report = reporter({
			step: 'npm rebuild sqlite3',
			dir,
			intervalMs: 10_000,
			now: () => clock,
			used: () => disk,
		});
		clock = 10_000;
		disk += 8_000_000;
		expect(report()).toBe('[runtime]   npm rebuild sqlite3; 8 MB written so far, 10 s');
		// Other writers freeing space never make the figure go back.
		clock = 15_000;
		disk -= 100_000_000;
		expect(report()).toBe('[runtime]   npm rebuild sqlite3; 8 MB written so far, 15 s');
		clock = 40_000;
		expect(report()).toBe(
			'[runtime]   npm rebuild sqlite3; nothing new on disk for 30 s, waiting on npm, 40 s',
		);
	});

	it('as a script, reads the real folder and disk on its interval until it is stopped', async () => {
		const child = spawn(process.execPath, [SCRIPT, 'npm install', dir, '3'], {
			env: { ...process.env, PROGRESS_INTERVAL_MS: '100' },
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		const first = await new Promise<string>((resolve) =>
			child.stderr.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\n')[0])),
		);
		child.kill();
		expect(first).toMatch(/^\[runtime\] {3}npm install, resolving and downloading; .*, \d+ s$/);
	});
});
