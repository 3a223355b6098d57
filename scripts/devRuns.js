/**
 * What a dev tool (`npm run dev`, `npm run sandbox`) has running, kept in a run record: a file in its
 * folder naming the run's owner (the process whose life the run follows) and the processes it started.
 * A later start claims the record: when the owner still runs, the folder or port is in use and the start
 * says by whom; when the owner is gone (killed outright, SIGKILL), the start stops what it left first.
 *
 * A process is named by its pid, its start time and the machine's boot, never by its pid alone (another
 * process may have the pid by then). A process started in a group of its own (`group`) is stopped with
 * its group, which holds its children (n8n's task runner, tsx's esbuild); once stopping it has begun,
 * the group is still the one recorded while any process is in it, even once its leader is gone, as no
 * pid is given again while a group holds it. It reads /proc: without it (not Linux, where dev's runtime
 * does not run anyway) no record is kept.
 *
 * A record read back is data, not a command: a process it names is stopped only when its pid is a whole
 * number above 1, neither this process's nor its parent's nor its process group's, and the process
 * with that pid has the recorded start time and command line (a process that renames itself, as npm
 * does, is left to end by itself). Nothing else of a record is ever signalled.
 *
 * `node scripts/devRuns.js watch <record> <owner pid>` is the watchdog of `npm run dev`: it reads its
 * standard input, a pipe from the owner, and when that ends (the owner is gone, however) it stops what
 * the record holds, removes it and exits.
 */
const {
	linkSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} = require('node:fs');

const { plainText } = require('./plainText');

/** How long stopping may take politely (SIGTERM), then after SIGKILL. */
const POLITE_MS = 10_000;
const KILL_MS = 5_000;

/** The machine's boot; undefined without /proc, where a run keeps no record. */
const BOOT = (() => {
	try {
		return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
	} catch {
		return undefined;
	}
})();

/** A live process's parent, process group and start time (clock ticks since boot); undefined when gone. */
function stat(pid) {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
		if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
		return { ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] };
	} catch {
		return undefined;
	}
}

/** A live process as a record names it: pid, start time and command line; undefined when gone. */
function identity(pid) {
	const now = stat(pid);
	if (!now) return undefined;
	let command = '';
	try {
		command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
	} catch {
		// Gone meanwhile: named without its command.
	}
	return { pid, start: now.start, command };
}

/** Whether the process a record names still runs (the same one, not another with its pid). */
const alive = (named) => stat(named.pid)?.start === named.start;

/**
 * Whether `named` may be signalled: a pid that is a whole number above 1 (0 and -1 would signal this
 * process's group or every process), not this process's, its parent's or its process group's, and a
 * start time to tell it from a later process with its pid.
 */
function signallable(named) {
	const { pid, start } = named ?? {};
	if (!Number.isSafeInteger(pid) || pid < 2 || typeof start !== 'string' || start === '')
		return false;
	return ![process.pid, process.ppid, stat(process.pid)?.pgid].includes(pid);
}

/** Whether a process a record read back names runs now, by pid, start time and command line. */
function sameProcess(named) {
	if (!Number.isSafeInteger(named?.pid) || named.pid < 1) return false;
	const now = identity(named.pid);
	return now !== undefined && now.start === named.start && now.command === named.command;
}

/** The processes a record read back names that may be stopped (see above). */
const recordedProcesses = (record) =>
	Array.isArray(record?.processes)
		? record.processes.filter((named) => signallable(named) && sameProcess(named))
		: [];

/** The live processes in process group `pgid`. */
const groupMembers = (pgid) =>
	readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && stat(entry)?.pgid === pgid);

/** Whether anything of a recorded process runs: the process, or for a group any process in it. */
function running(named) {
	if (!named.group) return alive(named);
	const leader = stat(named.pid);
	// A leader with the pid and another start time is another process: the recorded group ended.
	if (leader) return leader.start === named.start;
	return groupMembers(named.pid).length > 0;
}

const signal = (named, name) => {
	try {
		process.kill(named.group ? -named.pid : named.pid, name);
	} catch {
		// Gone already.
	}
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits, checking every 100 ms, until `done` holds or `ms` have passed; returns whether it holds. */
async function until(ms, done) {
	const deadline = Date.now() + ms;
	while (!done()) {
		if (Date.now() > deadline) return false;
		await sleep(100);
	}
	return true;
}

/**
 * Stops what of `processes` still runs: SIGTERM (and SIGCONT, for a stopped one), then SIGKILL after
 * 10 seconds. Resolves with what it stopped, once all of it is gone; fails naming what is left.
 */
async function stop(processes) {
	const left = processes.filter((named) => signallable(named) && running(named));
	for (const named of left) {
		signal(named, 'SIGTERM');
		signal(named, 'SIGCONT');
	}
	if (!(await until(POLITE_MS, () => !left.some(running)))) {
		for (const named of left) signal(named, 'SIGKILL');
		if (!(await until(KILL_MS, () => !left.some(running))))
			throw new Error(`could not stop ${left.filter(running).map(describe).join(', ')}`);
	}
	return left;
}

/** A process for a message: its pid and the start of its command line, as plain text. */
const describe = (named) =>
	`pid ${named.pid} (${plainText(named.command.length > 80 ? `${named.command.slice(0, 79)}…` : named.command)})`;

function readRecord(file) {
	try {
		return JSON.parse(readFileSync(file, 'utf8'));
	} catch (error) {
		if (error.code === 'ENOENT' || error instanceof SyntaxError) return undefined;
		throw error;
	}
}

/** Writes a record whole: to a file of its own first, so nothing ever reads half of one. */
function writeRecord(file, record, { exclusive = false } = {}) {
	const part = `${file}.${process.pid}`;
	writeFileSync(part, JSON.stringify(record), { mode: 0o600 });
	try {
		// A link is made only where no file is: two starts never both claim the record.
		if (exclusive) linkSync(part, file);
		else renameSync(part, file);
	} finally {
		rmSync(part, { force: true });
	}
}

/** A number for this process's files, one per claim: two claims in one process never share one. */
let claims = 0;

/**
 * Claims the run record `file` for a run whose owner is `owner` (a pid). When a live run holds it,
 * resolves with that run's owner in `holder`, and leaves it; otherwise stops what a run that is gone
 * left (in `stopped`) and writes the record anew. Returns the run, whose `add` records a process.
 * With `whileRunning`, a run counts as live only while one of its recorded processes runs too: for an
 * owner that may outlive its run (a sandbox's is tsx's parent, which may be an interactive shell).
 *
 * Of two starts after a run that is gone, one claims: a start takes the record it judged left (a rename,
 * which only one start can make), writes its own record holding what that run left, and only then
 * stops it; the other start finds no record to take, or finds the new one held.
 */
async function claim(file, owner, { whileRunning = false } = {}) {
	if (BOOT === undefined) return { stopped: [], processes: [], add() {}, release() {} };
	const record = { boot: BOOT, owner: identity(owner), processes: [] };
	const live = (earlier) =>
		earlier?.boot === BOOT &&
		sameProcess(earlier.owner) &&
		(!whileRunning || recordedProcesses(earlier).length > 0);
	const taken = `${file}.${process.pid}-${++claims}.taken`;
	const stopped = [];
	for (;;) {
		try {
			writeRecord(file, record, { exclusive: true });
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
		}
		const earlier = readRecord(file);
		if (live(earlier)) return { holder: earlier.owner };
		try {
			renameSync(file, taken);
		} catch (error) {
			if (error.code === 'ENOENT') continue;
			throw error;
		}
		// What was renamed may be a record another start wrote since: then it goes back.
		const left = readRecord(taken);
		if (live(left)) {
			try {
				linkSync(taken, file);
			} catch (error) {
				if (error.code !== 'EEXIST') throw error;
			}
			rmSync(taken, { force: true });
			continue;
		}
		const processes = left?.boot === BOOT ? recordedProcesses(left) : [];
		let claimed = true;
		try {
			// Recorded as this run's first, so that a start after it crashed stops them still.
			writeRecord(file, { ...record, processes }, { exclusive: true });
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			claimed = false;
		}
		stopped.push(...(await stop(processes)));
		rmSync(taken, { force: true });
		if (claimed) {
			writeRecord(file, record);
			break;
		}
	}
	return {
		stopped,
		/** What the run started, as recorded. */
		processes: record.processes,
		/** Records a process the run started (`group`: in a process group of its own). */
		add(pid, group) {
			const named = identity(pid);
			if (named) record.processes.push({ ...named, group });
			writeRecord(file, record);
		},
		/** Removes the record, when the run has stopped what it started. */
		release: () => rmSync(file, { force: true }),
	};
}

/** The watchdog (see above): stops the record's processes once the owner's pipe ends. */
function watch(file, ownerPid) {
	process.stdin.resume();
	process.stdin.once('close', async () => {
		const record = readRecord(file);
		if (record?.owner?.pid !== ownerPid) return;
		const stopped = await stop(recordedProcesses(record));
		rmSync(file, { force: true });
		if (stopped.length > 0)
			process.stderr.write(
				`[dev] pid ${ownerPid} ended without stopping what it started; stopped ${stopped.map(describe).join(', ')}\n`,
			);
	});
}

module.exports = { claim, describe, identity, stat, stop };

if (require.main === module && process.argv[2] === 'watch')
	watch(process.argv[3], Number(process.argv[4]));
