/**
 * `npm test`: runs the package's npm scripts named as arguments, in order, each to its end whatever the
 * others gave, then prints each one's result and fails when any failed. So a failing fast suite still
 * leaves the end-to-end suite's result to see. A name ending in `!` is one the later steps need (the
 * build): when it fails, they are skipped, and shown so.
 *
 *   node scripts/test.js build! typecheck lint test:fast test:devtools test:e2e
 */
const { spawnSync } = require('node:child_process');

const steps = process.argv.slice(2).map((arg) => ({
	name: arg.replace(/!$/, ''),
	needed: arg.endsWith('!'),
}));
if (!steps.length) {
	console.error('Name the npm scripts to run: node scripts/test.js build! lint test:fast');
	process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = [];
let stopped;
for (const { name, needed } of steps) {
	if (stopped) {
		results.push({ name, outcome: `skipped: ${stopped} failed` });
		continue;
	}
	const started = Date.now();
	const run = spawnSync(npm, ['run', name], { stdio: 'inherit' });
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	const failed = run.status !== 0;
	const why = run.error ? run.error.message : run.signal ? run.signal : `exit ${run.status}`;
	results.push({ name, failed, outcome: `${failed ? `FAILED (${why})` : 'passed'}, ${seconds} s` });
	if (failed && needed) stopped = name;
}

const width = Math.max(...results.map((r) => r.name.length));
const failed = results.filter((r) => r.failed || r.outcome.startsWith('skipped'));
console.log(`\nnpm test, each step:`);
for (const { name, outcome } of results) console.log(`  ${name.padEnd(width)}  ${outcome}`);
console.log(
	failed.length
		? `${failed.length} of ${results.length} steps did not pass: ${failed.map((r) => r.name).join(', ')}`
		: `All ${results.length} steps passed.`,
);
process.exit(failed.length ? 1 : 0);
