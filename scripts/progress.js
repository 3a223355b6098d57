/**
 * Reports every 10 seconds (PROGRESS_INTERVAL_MS) on a long install step that prints nothing itself,
 * with what is true and moving: the step's phase, and how much the disk's used space has grown since
 * the step began (read from the file system, so it costs nothing; other writers on the same disk count
 * too). When nothing grew, it says what it waits on instead of repeating itself.
 *
 * node scripts/progress.js <step> <dir> [<total packages>]: with a total, the phase is npm install's:
 * resolving and downloading until <dir>/node_modules has a package folder, then unpacking, with how
 * many of the locked top-level packages have a folder.
 */
const { readdirSync, statfsSync } = require('node:fs');
const { join } = require('node:path');

/** The bytes in use on the file system that holds `dir`. */
function diskUsed(dir) {
	const stats = statfsSync(dir);
	return (stats.blocks - stats.bfree) * stats.bsize;
}

/** The top-level packages with a folder in `dir`/node_modules. */
function packages(dir) {
	let n = 0;
	try {
		const modules = join(dir, 'node_modules');
		for (const name of readdirSync(modules)) {
			if (name.startsWith('.')) continue;
			n += name.startsWith('@') ? readdirSync(join(modules, name)).length : 1;
		}
	} catch {
		// No node_modules yet.
	}
	return n;
}

const mb = (bytes) => `${Math.max(0, Math.round(bytes / 1e6)).toLocaleString('en')} MB`;
const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/**
 * A step's reporter: each call of the function it returns gives the next report line. `now` and `used`
 * read the clock and the disk (replaced in tests).
 */
function reporter({ step, dir, total, intervalMs, now = Date.now, used = () => diskUsed(dir) }) {
	const started = now();
	const before = used();
	let most = before;
	let stillSince = started;
	return () => {
		const usedNow = used();
		if (usedNow > most) {
			most = usedNow;
			stillSince = now();
		}
		let phase = step;
		if (total) {
			const n = packages(dir);
			phase +=
				n === 0 ? ', resolving and downloading' : `, unpacking: ${n} of about ${total} packages`;
		}
		const still = now() - stillSince;
		const disk =
			still < intervalMs
				? `${mb(most - before)} written so far`
				: `nothing new on disk for ${seconds(still)}, waiting on ${step.split(' ')[0]}`;
		return `[runtime]   ${phase}; ${disk}, ${seconds(now() - started)}`;
	};
}

module.exports = { reporter };

if (require.main === module) {
	const [step, dir, total] = process.argv.slice(2);
	const intervalMs = Number(process.env.PROGRESS_INTERVAL_MS) || 10_000;
	const report = reporter({ step, dir, total, intervalMs });
	/** Reports on every interval until the step's process stops this one. */
	const tick = () => {
		process.stderr.write(`${report()}\n`);
		setTimeout(tick, intervalMs);
	};
	setTimeout(tick, intervalMs);
}
