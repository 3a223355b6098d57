/**
 * Reports every 8 seconds (PROGRESS_INTERVAL_MS) on a long step that prints nothing itself: an install
 * step of scripts/runtime.js (npm prints nothing without a terminal), and each step of a start in
 * scripts/dev.js (the sandbox's start, the build, the import, n8n's start), so that no gap of a start is
 * silent for more than 10 seconds. Each line names the step and says what is true and moving:
 * - npm install, given its lockfile: how many of the packages the lockfile installs on this machine are
 *   unpacked (their package.json is on disk; npm makes every package folder up front, so folders alone
 *   say nothing), an estimate of the time left from the pace so far, and the packages npm is writing;
 * - any step: what its processes run, read from /proc (the compiler and its source file while sqlite3
 *   builds), with the time so far.
 *
 * node scripts/progress.js <label> <step> [<dir> [<package-lock.json>]], started by showProgress: the
 * step is a child of this script's parent (which starts both), and runs in <dir> when one is given.
 */
const { spawn } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, readlinkSync, statSync } = require('node:fs');
const { homedir } = require('node:os');
const { basename, join } = require('node:path');

/** This machine as npm matches a package's os, cpu and libc fields. */
function currentPlatform() {
	const glibc = process.report?.getReport().header.glibcVersionRuntime;
	return { os: process.platform, cpu: process.arch, libc: glibc ? 'glibc' : 'musl' };
}

/** Whether a package's os, cpu or libc list (absent: any; `!name` excludes) admits `value`. */
function admits(list, value) {
	if (!list) return true;
	const names = [].concat(list);
	if (names.includes(`!${value}`)) return false;
	const allowed = names.filter((name) => !name.startsWith('!'));
	return allowed.length === 0 || allowed.includes(value);
}

/**
 * The packages a lockfile installs on `platform`, each with its folder (`node_modules/…`) and its
 * tarball's integrity: not links, nor the entries npm marks extraneous (needed by nothing; it leaves
 * them out).
 */
function lockedPackages(lock, platform = currentPlatform()) {
	return Object.entries(lock.packages)
		.filter(
			([path, entry]) =>
				path.includes('node_modules/') &&
				!entry.link &&
				!entry.extraneous &&
				admits(entry.os, platform.os) &&
				admits(entry.cpu, platform.cpu) &&
				(platform.os !== 'linux' || admits(entry.libc, platform.libc)),
		)
		.map(([path, entry]) => ({ path, integrity: entry.integrity }));
}

/**
 * The size of a package's tarball in npm's cache (cacache keeps it under its integrity's digest), or
 * undefined while it is not there. Tarballs' sizes follow what unpacking them costs far better than
 * their number: the last packages to unpack are the largest.
 */
const cachedTarballSize =
	(cache = process.env.npm_config_cache || join(homedir(), '.npm')) =>
	(integrity) => {
		const [algorithm, digest] = (integrity ?? '').split(/-(.*)/s);
		if (!digest) return undefined;
		const hex = Buffer.from(digest, 'base64').toString('hex');
		const file = join(
			cache,
			'_cacache',
			'content-v2',
			algorithm,
			hex.slice(0, 2),
			hex.slice(2, 4),
			hex.slice(4),
		);
		try {
			return statSync(file).size;
		} catch {
			return undefined;
		}
	};

/** Every process of the machine: its id, its parent's, its start (in clock ticks) and its arguments. */
function processTable() {
	const table = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			// The fields after the command's name, which is in parentheses and may hold any character.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
			table.push({ pid: Number(name), ppid: Number(fields[1]), start: Number(fields[19]), argv });
		} catch {
			// The process ended while it was read.
		}
	}
	return table;
}

/** The files a process has open. */
function openFilesOf(pid) {
	try {
		return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
			try {
				return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
			} catch {
				return [];
			}
		});
	} catch {
		return [];
	}
}

/**
 * The step's processes: those `root` started since `self` (the step starts just after this script; the
 * parent's older children, such as dev's sandbox, are not the step's), and every process under them.
 */
function descendants(table, root, self) {
	const since = table.find((proc) => proc.pid === self)?.start ?? 0;
	let found = table.filter(
		(proc) => proc.ppid === root && proc.pid !== self && proc.start >= since,
	);
	let parents = new Set(found.map((proc) => proc.pid));
	while (parents.size) {
		const children = table.filter((proc) => parents.has(proc.ppid) && !found.includes(proc));
		found = [...found, ...children];
		parents = new Set(children.map((proc) => proc.pid));
	}
	return found;
}

/** node's options whose value is code to run rather than a script's path. */
const EVAL = new Set(['-e', '--eval', '-p', '--print']);
/** A name as a terminal shows it: control characters (any process may set its arguments) left out. */
const printable = (text) => text.replace(/\p{Cc}/gu, '');

const COMPILERS = new Set(['cc1', 'cc1plus', 'cc', 'c++', 'gcc', 'g++', 'clang', 'clang++']);
/** A source file's name: not an option such as cc1's `-dumpbase-ext .c`. */
const SOURCE = /^[^.-].*\.(c|cc|cpp|cxx)$/;

/**
 * A process's program: its executable's name, or for node its script's (after node's options): the
 * package the script is in (`@n8n/task-runner` for its `dist/start.js`), else the script's name
 * (node-gyp, or a command of `node_modules/.bin`). npm sets its title, which replaces its arguments
 * with one string: `npm install …`.
 */
const program = ({ argv }) => {
	const name = basename((argv[0] ?? '').split(' ')[0]);
	const options = argv.slice(1);
	const script = options.find((arg) => !arg.startsWith('-'));
	// A script given inline (`node -e <code>`) is code, not a name: it is said as node's.
	const inline = options.some((arg) => EVAL.has(arg));
	if (name !== 'node' || !script || inline) return printable(name);
	const inPackage = /.*\/node_modules\/((@[^/]+\/)?[^/.][^/]*)\//.exec(script);
	return printable(inPackage ? inPackage[1] : basename(script).replace(/(-cli)?\.js$/, ''));
};

/**
 * The packages whose files the step's processes have open under `dir`, as the lockfile names their
 * folders (`node_modules/a/node_modules/@s/b`); none without a `dir`.
 */
function packagesWritten(processes, openFiles, dir) {
	if (!dir) return new Set();
	const prefix = `${dir}/`;
	const folders = processes.flatMap(({ pid }) =>
		openFiles(pid).flatMap((file) => {
			if (!file.startsWith(`${prefix}node_modules/`)) return [];
			const folder = /^(.*node_modules\/(@[^/]+\/)?[^/]+)\//.exec(file.slice(prefix.length));
			return folder ? [folder[1]] : [];
		}),
	);
	return new Set(folders);
}

/** A package's name, from its folder. */
const nameOf = (folder) => /(?:^|\/)node_modules\/((@[^/]+\/)?[^/]+)$/.exec(folder)?.[1] ?? folder;

/**
 * What a step's processes do now, said for a person: the source file a compiler compiles, else the
 * packages whose files they have open under `dir`, else their newest program; undefined when none runs.
 */
function activity(processes, writing) {
	if (!processes.length) return undefined;
	const compiled = processes
		.filter((proc) => COMPILERS.has(program(proc)))
		.flatMap(({ argv }) => argv.map((arg) => basename(arg)).filter((name) => SOURCE.test(name)));
	if (compiled.length) return `compiling ${[...new Set(compiled)].join(', ')}`;
	const names = [...new Set([...writing].map(nameOf))].sort();
	if (names.length)
		return `writing ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`;
	const newest = processes.reduce((a, b) => (b.start > a.start ? b : a));
	return `running ${program(newest)}`;
}

/** A duration as a person reads it: `40 s`, `2 min 10 s`. */
function duration(ms) {
	const seconds = Math.round(ms / 1000);
	return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A time left, rounded as far as an estimate deserves: `about 40 s`, `about 3 min`. */
function estimate(ms) {
	const seconds = Math.max(10, Math.round(ms / 10_000) * 10);
	return seconds < 120 ? `about ${seconds} s` : `about ${Math.round(seconds / 60)} min`;
}

const count = (n) => n.toLocaleString('en');

/**
 * The share by size from which the time left is said. Before it, a projection misleads: a fresh install
 * of n8n unpacks many small packages while its large ones download, and said "about 940 min left" at 0%
 * and "54 min" at 3% of an npm install that took 6 minutes (BENCHMARKS.md).
 */
const ESTIMATE_FROM = 0.25;

/**
 * A step's reporter: each call of the function it returns gives the next report line. With `packages`
 * (the lockfile's, see lockedPackages), it counts those unpacked in `dir` (their package.json is there
 * and npm writes none of their files any more), and estimates the time left from the share unpacked
 * (once it is ESTIMATE_FROM or more),
 * each package weighed by its tarball's size (a package not yet downloaded by the mean of the others),
 * and the time since the step began. `now`, `exists`, `tarballSize`, `processes` and `openFiles` read
 * the clock, the disk, npm's cache and /proc (replaced in tests); `parent` is the process that started
 * the step and this script, whose lines begin with `[label]`.
 */
function reporter({
	label = 'runtime',
	step,
	dir,
	packages = [],
	now = Date.now,
	exists = existsSync,
	tarballSize = cachedTarballSize(),
	processes = processTable,
	openFiles = openFilesOf,
	parent = process.ppid,
	self = process.pid,
}) {
	const started = now();
	/** The tarballs' sizes found so far (a tarball in the cache does not change). */
	const sizes = new Map();
	const sizeOf = ({ path, integrity }) => {
		if (!sizes.has(path)) {
			const size = tarballSize(integrity);
			if (size !== undefined) sizes.set(path, size);
		}
		return sizes.get(path);
	};
	return () => {
		const elapsed = now() - started;
		// A process that is ending (a zombie) has no arguments left: it does nothing to say.
		const running = descendants(processes(), parent, self).filter(({ argv }) => argv.length);
		const writing = packagesWritten(running, openFiles, dir);
		const doing = activity(running, writing);
		const parts = [];
		if (packages.length) {
			const unpacked = packages.filter(
				({ path }) => !writing.has(path) && exists(join(dir, path, 'package.json')),
			);
			const total = count(packages.length);
			const known = packages.map(sizeOf).filter((size) => size !== undefined);
			const mean = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
			const weight = (list) => list.reduce((sum, pkg) => sum + (sizeOf(pkg) ?? mean), 0);
			const share = weight(unpacked) / weight(packages);
			if (unpacked.length === 0)
				parts.push(`reading the lockfile and downloading, 0 of ${total} packages`);
			else if (unpacked.length < packages.length)
				parts.push(
					`${count(unpacked.length)} of ${total} packages unpacked (${Math.floor(share * 100)}% by size), ${share < ESTIMATE_FROM ? 'time left not known yet' : `${estimate((elapsed * (1 - share)) / share)} left`}`,
				);
			else parts.push(`all ${total} packages unpacked, npm is finishing`);
		}
		parts.push(doing ?? 'waiting on npm');
		return `[${label}]   ${step}: ${parts.join('; ')}; ${duration(elapsed)} so far`;
	};
}

/**
 * Writes a report line (`report()`) every `intervalMs` from now, until the function it returns is
 * called or the process that started the step is gone (`orphaned`): a step's progress outlives neither.
 */
function heartbeat({ report, write, intervalMs = 8_000, orphaned = () => false }) {
	let timer;
	const tick = () => {
		if (orphaned()) return;
		write(`${report()}\n`);
		timer = setTimeout(tick, intervalMs);
	};
	timer = setTimeout(tick, intervalMs);
	return () => clearTimeout(timer);
}

/**
 * Starts this script beside a step the calling process starts next (see above), its lines on stderr
 * beginning with `[label]`, telling it the calling process's pid: it stops once that is no longer its
 * parent. Returns its process: kill it when the step ends, however it ends.
 */
function showProgress({ label, step, dir, lockfile }) {
	const args = [
		join(__dirname, 'progress.js'),
		label,
		step,
		...(dir ? [dir] : []),
		...(lockfile ? [lockfile] : []),
	];
	return spawn(process.execPath, args, {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: { ...process.env, PROGRESS_PARENT_PID: String(process.pid) },
	});
}

module.exports = { reporter, heartbeat, showProgress, lockedPackages, duration, estimate };

if (require.main === module) {
	const [label, step, dir, lockfile] = process.argv.slice(2);
	const packages = lockfile ? lockedPackages(JSON.parse(readFileSync(lockfile, 'utf8'))) : [];
	// The starter names itself: a starter that died before this script read its parent (killed right
	// after the spawn) leaves it with another parent from the start, which reading the parent would miss.
	const parent = Number(process.env.PROGRESS_PARENT_PID) || process.ppid;
	heartbeat({
		report: reporter({ label, step, dir, packages, parent }),
		write: (line) => process.stderr.write(line),
		intervalMs: Number(process.env.PROGRESS_INTERVAL_MS) || undefined,
		orphaned: () => process.ppid !== parent,
	});
}
