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

const [step, dir, total] = process.argv.slice(2);
const INTERVAL_MS = Number(process.env.PROGRESS_INTERVAL_MS) || 10_000;
const started = Date.now();
const used = () => {
	const stats = statfsSync(dir);
	return (stats.blocks - stats.bfree) * stats.bsize;
};
const before = used();
let most = before;
let stillSince = Date.now();

/** The top-level packages with a folder in node_modules. */
function packages() {
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

function report() {
	const now = used();
	if (now > most) {
		most = now;
		stillSince = Date.now();
	}
	let phase = step;
	if (total) {
		const n = packages();
		phase +=
			n === 0 ? ', resolving and downloading' : `, unpacking: ${n} of about ${total} packages`;
	}
	const disk =
		Date.now() - stillSince < INTERVAL_MS
			? `${mb(most - before)} written so far`
			: `nothing new on disk for ${seconds(Date.now() - stillSince)}, waiting on ${step.split(' ')[0]}`;
	process.stderr.write(`[runtime]   ${phase}; ${disk}, ${seconds(Date.now() - started)}\n`);
}

/** Reports on every interval until the step's process stops this one. */
function tick() {
	report();
	setTimeout(tick, INTERVAL_MS);
}
setTimeout(tick, INTERVAL_MS);
