/**
 * `node scripts/steps.js <script>…`: runs the npm scripts named, in order, each to its end whatever
 * the others did (npm test's steps after its build), then fails, naming each step that failed, if any did.
 */
const { spawnSync } = require('node:child_process');

// The npm running this script, when npm runs it.
const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];

const failed = [];
for (const step of process.argv.slice(2)) {
	const { status, signal, error } = spawnSync(npm[0], [...npm[1], 'run', step], {
		stdio: 'inherit',
	});
	if (status !== 0) failed.push(`"${step}" exited with ${status ?? signal ?? error?.message}`);
}
for (const line of failed) process.stderr.write(`[npm test] ${line}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
