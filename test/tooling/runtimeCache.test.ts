import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const { cached, n8nEntry, sqlite3Entry } = createRequire(__filename)(
	'../../scripts/runtime.js',
) as {
	cached: (entry: string, install: (dir: string) => void) => string;
	n8nEntry: (manifest: string) => string;
	sqlite3Entry: (lockfile: string) => string;
};

const MANIFESTS = join(__dirname, '..', '..', 'scripts', 'n8n');

let work: string;
beforeEach(() => {
	work = mkdtempSync(join(tmpdir(), 'runtime-cache-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** An install that writes a marker file and counts its calls. */
function counting(): jest.Mock<void, [string]> {
	return jest.fn((dir: string) => writeFileSync(join(dir, 'installed'), dir));
}

describe('the install cache (scripts/runtime.js)', () => {
	it("names an n8n's entry by its version and a hash that changes with its lockfile", () => {
		const manifest = join(work, 'manifest');
		cpSync(join(MANIFESTS, 'compat', 'n8n-2.0.0'), manifest, { recursive: true });
		const before = basename(n8nEntry(manifest));
		expect(before).toMatch(/^n8n-2\.0\.0-[0-9a-f]{16}$/);
		expect(basename(n8nEntry(manifest))).toBe(before);

		const lockfile = join(manifest, 'package-lock.json');
		writeFileSync(lockfile, readFileSync(lockfile, 'utf8').replace('"lockfileVersion"', ' $&'));
		expect(basename(n8nEntry(manifest))).not.toBe(before);
	});

	it('gives every n8n of the matrix its own entry', () => {
		const entries = ['.', 'compat/n8n-1.123.81', 'compat/n8n-2.0.0'].map((folder) =>
			n8nEntry(join(MANIFESTS, folder)),
		);
		expect(new Set(entries).size).toBe(3);
	});

	it("names sqlite3's entry by the sqlite3, node-addon-api and node-gyp the lockfile locks", () => {
		const lockfile = readFileSync(join(MANIFESTS, 'package-lock.json'), 'utf8');
		const entry = basename(sqlite3Entry(lockfile));
		expect(entry).toMatch(/^sqlite3-5\.1\.7-[0-9a-f]{16}$/);
		// The versions of the matrix lock the same sqlite3: one build serves them all.
		for (const folder of ['compat/n8n-1.123.81', 'compat/n8n-2.0.0'])
			expect(
				basename(sqlite3Entry(readFileSync(join(MANIFESTS, folder, 'package-lock.json'), 'utf8'))),
			).toBe(entry);

		// Each change to what the build compiles or builds with names a new entry.
		const lock = JSON.parse(lockfile);
		const names = [entry];
		const changes = [
			() => (lock.packages['node_modules/node-addon-api'].integrity = 'sha512-other'),
			() =>
				(lock.packages['node_modules/sqlite3/node_modules/node-addon-api'] = { integrity: 'x' }),
			() => (lock.packages['node_modules/node-gyp'].integrity = 'sha512-other'),
			() => (lock.packages['node_modules/sqlite3'].integrity = 'sha512-other'),
		];
		for (const change of changes) {
			change();
			names.push(basename(sqlite3Entry(JSON.stringify(lock))));
		}
		expect(new Set(names).size).toBe(changes.length + 1);
	});

	it('installs a missing entry into a temporary folder renamed into place, then reuses it', () => {
		const entry = join(work, 'cache', 'n8n-2.0.0-0123456789abcdef');
		const install = counting();
		expect(cached(entry, install)).toBe(entry);
		expect(install).toHaveBeenCalledTimes(1);
		const [dir] = install.mock.calls[0];
		expect(dir).not.toBe(entry);
		expect(readFileSync(join(entry, 'installed'), 'utf8')).toBe(dir);
		expect(existsSync(dir)).toBe(false);

		const again = counting();
		expect(cached(entry, again)).toBe(entry);
		expect(again).not.toHaveBeenCalled();
	});

	it('never takes the folder of an install stopped halfway for the entry', () => {
		const entry = join(work, 'cache', 'n8n-2.0.0-0123456789abcdef');
		const stopped = jest.fn(() => {
			throw new Error('stopped');
		});
		expect(() => cached(entry, stopped)).toThrow('stopped');
		expect(existsSync(entry)).toBe(false);
		// A folder a killed run left beside it does not count either.
		mkdirSync(`${entry}.partial-killed`, { recursive: true });

		const install = counting();
		expect(cached(entry, install)).toBe(entry);
		expect(install).toHaveBeenCalledTimes(1);
		expect(existsSync(join(entry, 'installed'))).toBe(true);
	});

	it('keeps the entry of a run that completed it first, and removes its own folder', () => {
		const entry = join(work, 'cache', 'n8n-2.0.0-0123456789abcdef');
		let own = '';
		const racing = jest.fn((dir: string) => {
			own = dir;
			writeFileSync(join(dir, 'installed'), 'second');
			mkdirSync(entry);
			writeFileSync(join(entry, 'installed'), 'first');
		});
		expect(cached(entry, racing)).toBe(entry);
		expect(readFileSync(join(entry, 'installed'), 'utf8')).toBe('first');
		expect(existsSync(own)).toBe(false);
	});
});
