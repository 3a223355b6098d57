/**
 * `npm run test:compat`: the end-to-end suite (scripts/e2e.js) in every n8n of the compatibility
 * matrix, one after the other: the pinned n8n (scripts/n8n/) and each scripts/n8n/compat/n8n-<version>/. Each is
 * installed by scripts/runtime.js into .runtime/ on first use. `npm run test:compat -- <version>…` runs
 * only those; `npm run test:compat -- --others` every version but the pinned one, whose suite `npm test`
 * has run already (CI's .ci/run). Ends with a table of each version's install and test time and whether
 * it passed.
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const { ensureRuntime, supportedVersions, PINNED_VERSION, ROOT } = require('./runtime');

const log = (message) => process.stderr.write(`[compat] ${message}\n`);
const seconds = (since) => Math.round((Date.now() - since) / 1000);

/**
 * End-to-end files that never run the n8n under test: dev.test.ts runs `npm run dev`, which starts the
 * pinned n8n whatever the version, and console.test.ts the sandbox's console alone. The pinned n8n's run
 * has them; in another version they would only run the same again.
 */
const PINNED_ONLY = ['test/e2e/dev.test.ts', 'test/e2e/console.test.ts'];

/** The jest arguments of a version's end-to-end run: the pinned n8n runs every file. */
const jestArgsFor = (version) =>
	version === PINNED_VERSION
		? []
		: ['--testPathIgnorePatterns', ...PINNED_ONLY.map((file) => file.replace(/\./g, '\\.'))];

/** The n8n versions the arguments name: every supported one by default. */
function versionsToRun(args) {
	if (args.includes('--others')) return supportedVersions().filter((v) => v !== PINNED_VERSION);
	return args.length ? args : supportedVersions();
}

function main() {
	const versions = versionsToRun(process.argv.slice(2));
	log(`n8n versions: ${versions.join(', ')}`);

	if (spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0)
		process.exit(1);

	const results = [];
	for (const version of versions) {
		log(`n8n ${version}: installing if needed…`);
		let started = Date.now();
		ensureRuntime(version);
		const install = seconds(started);
		log(`n8n ${version}: the end-to-end suite…`);
		started = Date.now();
		const e2e = spawnSync(
			process.execPath,
			[join(ROOT, 'scripts', 'e2e.js'), ...jestArgsFor(version)],
			{
				cwd: ROOT,
				stdio: 'inherit',
				env: { ...process.env, E2E_N8N_VERSION: version },
			},
		);
		results.push({ version, install, tests: seconds(started), passed: e2e.status === 0 });
	}

	log('n8n version | install (s) | e2e (s) | result');
	for (const { version, install, tests, passed } of results)
		log(`${version} | ${install} | ${tests} | ${passed ? 'passed' : 'FAILED'}`);
	process.exit(results.every((result) => result.passed) ? 0 : 1);
}

module.exports = { versionsToRun, jestArgsFor, PINNED_ONLY };

if (require.main === module) main();
