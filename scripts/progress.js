/**
 * Reports every 8 seconds (PROGRESS_INTERVAL_MS) on a long install step of scripts/runtime.js, which
 * prints nothing itself without a terminal, so that no gap of the first start is silent for more than
 * 10 seconds. Each line says what is true and moving:
 * - npm install, given its lockfile: how many of the packages the lockfile installs on this machine are
 *   unpacked (their package.json is on disk; npm makes every package folder up front, so folders alone
 *   say nothing), an estimate of the time left from the pace so far, and the packages npm is writing;
 * - any step: what its processes run, read from /proc (the compiler and its source file while sqlite3
 *   builds), with the time so far.
 *
 * node scripts/progress.js <step> <dir> [<package-lock.json>]: the step runs in <dir>, and is a child of
 * this script's parent (scripts/runtime.js starts both).
 */
const { existsSync, readdirSync, readFileSync, readlinkSync } = require('node:fs');
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
 * The folders (`node_modules/…`) of the packages a lockfile installs on `platform`: not links, nor the
 * entries npm marks extraneous (needed by nothing; it leaves them out).
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
		.map(([path]) => path);
}

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

const COMPILERS = new Set(['cc1', 'cc1plus', 'cc', 'c++', 'gcc', 'g++', 'clang', 'clang++']);
/** A source file's name: not an option such as cc1's `-dumpbase-ext .c`. */
const SOURCE = /^[^.-].*\.(c|cc|cpp|cxx)$/;

/**
 * A process's program: its executable's name, or the script's for node (node-gyp). npm sets its title,
 * which replaces its arguments with one string: `npm install …`.
 */
const program = ({ argv }) => {
	const name = basename((argv[0] ?? '').split(' ')[0]);
	return name === 'node' && argv[1] ? basename(argv[1]).replace(/(-cli)?\.js$/, '') : name;
};

/** The package of a file under `dir`'s node_modules: its innermost node_modules/<name> or /@scope/<name>. */
const packageOf = (dir, file) =>
	file.startsWith(join(dir, 'node_modules') + '/')
		? /.*node_modules\/((@[^/]+\/)?[^/]+)\//.exec(file)?.[1]
		: undefined;

/**
 * What a step's processes do now, said for a person: the source file a compiler compiles, else the
 * packages whose files they have open under `dir`, else their newest program; undefined when none runs.
 */
function activity(running, openFiles, dir) {
	// A process that is ending (a zombie) has no arguments left: it does nothing to say.
	const processes = running.filter(({ argv }) => argv.length);
	if (!processes.length) return undefined;
	const compiled = processes
		.filter((proc) => COMPILERS.has(program(proc)))
		.flatMap(({ argv }) => argv.map((arg) => basename(arg)).filter((name) => SOURCE.test(name)));
	if (compiled.length) return `compiling ${[...new Set(compiled)].join(', ')}`;
	const writing = [
		...new Set(
			processes.flatMap(({ pid }) => openFiles(pid).flatMap((file) => packageOf(dir, file) ?? [])),
		),
	].sort();
	if (writing.length)
		return `writing ${writing.slice(0, 3).join(', ')}${writing.length > 3 ? ` and ${writing.length - 3} more` : ''}`;
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
 * A step's reporter: each call of the function it returns gives the next report line. With `packages`
 * (the lockfile's, see lockedPackages), it counts those unpacked in `dir` and estimates the time left
 * from the pace since the step began. `now`, `exists`, `processes` and `openFiles` read the clock, the
 * disk and /proc (replaced in tests); `parent` is the process that started the step and this script.
 */
function reporter({
	step,
	dir,
	packages = [],
	now = Date.now,
	exists = existsSync,
	processes = processTable,
	openFiles = openFilesOf,
	parent = process.ppid,
	self = process.pid,
}) {
	const started = now();
	return () => {
		const elapsed = now() - started;
		const doing = activity(descendants(processes(), parent, self), openFiles, dir);
		const parts = [];
		if (packages.length) {
			const done = packages.filter((path) => exists(join(dir, path, 'package.json'))).length;
			const total = count(packages.length);
			if (done === 0) parts.push(`reading the lockfile and downloading, 0 of ${total} packages`);
			else if (done < packages.length)
				parts.push(
					`${count(done)} of ${total} packages unpacked, ${estimate((elapsed * (packages.length - done)) / done)} left`,
				);
			else parts.push(`all ${total} packages unpacked, npm is finishing`);
		}
		parts.push(doing ?? 'waiting on npm');
		return `[runtime]   ${step}: ${parts.join('; ')}; ${duration(elapsed)} so far`;
	};
}

module.exports = { reporter, lockedPackages, duration, estimate };

if (require.main === module) {
	const [step, dir, lockfile] = process.argv.slice(2);
	const intervalMs = Number(process.env.PROGRESS_INTERVAL_MS) || 8_000;
	const packages = lockfile ? lockedPackages(JSON.parse(readFileSync(lockfile, 'utf8'))) : [];
	const report = reporter({ step, dir, packages });
	/** Reports on every interval until the step's process stops this one. */
	const tick = () => {
		process.stderr.write(`${report()}\n`);
		setTimeout(tick, intervalMs);
	};
	setTimeout(tick, intervalMs);
}
