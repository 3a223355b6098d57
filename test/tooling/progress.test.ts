import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The progress of a long install step (scripts/progress.js, beside npm install and the sqlite3 build):
 * each report says something true that moves, or what it waits on, never the same line again and again.
 */
jest.setTimeout(30_000);

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'progress.js');

/** Runs the reporter every 150 ms on a folder; `act` changes the folder; resolves with the reports. */
async function reports(dir: string, total: string | undefined, act: (line: number) => void) {
	const child = spawn(process.execPath, [SCRIPT, 'npm install', dir, ...(total ? [total] : [])], {
		env: { ...process.env, PROGRESS_INTERVAL_MS: '150' },
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	const lines: string[] = [];
	await new Promise<void>((resolve) => {
		child.stderr.on('data', (chunk: Buffer) => {
			for (const line of chunk.toString().split('\n').filter(Boolean)) {
				lines.push(line);
				act(lines.length);
				if (lines.length === 6) resolve();
			}
		});
	});
	child.kill();
	return lines;
}

describe('the install progress', () => {
	let dir: string;
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mm-progress-'))));
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('names the phase and counts the package folders as npm makes them', async () => {
		const lines = await reports(dir, '3', (line) => {
			if (line === 2) mkdirSync(join(dir, 'node_modules', 'a'), { recursive: true });
			if (line === 4) mkdirSync(join(dir, 'node_modules', '@scope', 'b'), { recursive: true });
		});
		expect(lines[0]).toMatch(/^\[runtime\] {3}npm install, resolving and downloading; /);
		expect(lines[2]).toContain('unpacking: 1 of about 3 packages');
		expect(lines[5]).toContain('unpacking: 2 of about 3 packages');
	});

	it('reports how much reached the disk since the step began', async () => {
		const lines = await reports(dir, undefined, (line) => {
			// 8 MB of data, written after the second report.
			if (line === 2) writeFileSync(join(dir, 'blob'), randomBytes(8_000_000));
		});
		for (const line of lines) expect(line).toMatch(/^\[runtime\] {3}npm install; .*, \d+ s$/);
		// Other writers on the same disk only add to the figure, so at least the 8 MB show.
		const written = lines
			.slice(2)
			.map((line) => Number(/(\d[\d,]*) MB written so far/.exec(line)?.[1].replace(/,/g, '')))
			.filter((megabytes) => !Number.isNaN(megabytes));
		expect(Math.max(...written)).toBeGreaterThanOrEqual(8);
	});
});
