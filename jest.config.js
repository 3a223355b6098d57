/**
 * The suites, one jest project each (test/<name>/):
 * - nodes: both nodes, the credentials and the transport, run in n8n-core in-process, against the sandbox
 *   and scripted servers on loopback;
 * - sandbox: the local API sandbox against spec/openapi.yaml;
 * - tooling: the package's manifest, release, verify, benchmark report, CI workflow and README table checks
 *   (a few of them run one gulp task or `npm pack --dry-run`, a few seconds each; the fast suite's
 *   nodes project builds the codex files the same way);
 * - devtools: the tooling tests that start the dev tools in processes of their own (`npm run sandbox`, the
 *   gulp build, `npm test`'s runner, a first install's progress, dev's process tree, dev's reading of n8n's
 *   database with Node 24, which `npm run test:devtools` installs first): test/tooling/ files
 *   listed in DEV_TOOL_TESTS, kept out of the inner loop for their time (BENCHMARKS.md) and run by `npm test`;
 * - e2e: a real n8n (scripts/e2e.js); queue: n8n's queue mode with Redis and PostgreSQL (scripts/queue.js).
 * `npm run test:fast` runs the first three and `npm run test:devtools` the fourth, both through scripts/jest.js,
 * on the pinned n8n's Node 24.
 *
 * In the in-process suites, n8n-workflow and n8n-core are loaded once per worker, not once per file
 * (test/setup/environment.js), which halves their CPU time.
 *
 * TypeScript is only transpiled here (SWC, file by file); `npm run typecheck`, which `npm test` runs,
 * checks the types. Each project sets its test time-out: a test there that waits longer than that has
 * hung, however busy the machine (the in-process suites start servers and a workflow engine per file).
 */
const DEV_TOOL_TESTS = [
	'devProcesses',
	'devRuns',
	'devSandboxCli',
	'devWorkflows',
	'documentationLinks',
	'progress',
	'sandboxPort',
	'testCommand',
].map((name) => `<rootDir>/test/tooling/${name}.test.ts`);

const swc = [
	'@swc/jest',
	{ jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
];
const suite = (name, testTimeout, extra = {}) => ({
	displayName: name,
	testEnvironment: 'node',
	// The sources too, so that jest --findRelatedTests (and --onlyChanged) finds the tests of a source file.
	roots: ['<rootDir>/test', '<rootDir>/nodes', '<rootDir>/credentials', '<rootDir>/sandbox'],
	testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
	transform: { '^.+\\.ts$': swc },
	globals: { testTimeout },
	setupFilesAfterEnv: ['<rootDir>/test/setup/timeout.ts'],
	...extra,
});
/**
 * The schemas import `zod/v3`, which zod 3.25 (n8n's copy, the root export zod 3) and zod 4 both ship.
 * With TEST_ZOD=4 (`npm run test:zod4`) the suites get zod 4's copy of it instead (docs/compatibility.md).
 */
const zod4 =
	process.env.TEST_ZOD === '4' ? { '^zod/v3$': '<rootDir>/node_modules/zod-v4/v3/index.cjs' } : {};
const inProcess = {
	testEnvironment: '<rootDir>/test/setup/environment.js',
	moduleNameMapper: {
		...zod4,
		'^n8n-workflow$': '<rootDir>/test/setup/n8n/workflow.js',
		'^n8n-core$': '<rootDir>/test/setup/n8n/core.js',
		'^@n8n/di$': '<rootDir>/test/setup/n8n/di.js',
		'^@n8n/config$': '<rootDir>/test/setup/n8n/config.js',
	},
	setupFiles: ['<rootDir>/test/setup/yamlCache.ts'],
};

module.exports = {
	// One worker for each of two cores; jest's own process only hands out the files (see BENCHMARKS.md).
	maxWorkers: 2,
	projects: [
		suite('nodes', 60_000, inProcess),
		suite('sandbox', 60_000, inProcess),
		suite('tooling', 120_000, { ...inProcess, testPathIgnorePatterns: DEV_TOOL_TESTS }),
		suite('devtools', 120_000, { ...inProcess, testMatch: DEV_TOOL_TESTS }),
		suite('e2e', 600_000),
		suite('queue', 600_000),
	],
};
