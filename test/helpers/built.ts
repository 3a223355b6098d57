import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Builds what a gulp task of gulpfile.js writes into dist/ (`build:dist`, `build:codex`) into a folder
 * of the test file's own for its tests, removed after them; returns the folder's path, once built.
 */
export function builtPackage(task: string): () => string {
	let folder = '';
	beforeAll(() => {
		folder = mkdtempSync(join(tmpdir(), 'mm-built-'));
		execFileSync('npx', ['--no-install', 'gulp', task], {
			cwd: ROOT,
			env: { ...process.env, BUNDLE_OUTDIR: folder },
			stdio: 'ignore',
		});
	});
	afterAll(() => rmSync(folder, { recursive: true, force: true }));
	return () => folder;
}
