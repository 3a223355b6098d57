/**
 * The suites, one jest project each (test/<name>/):
 * - nodes: both nodes, the credentials and the transport, run in n8n-core in-process, against the sandbox
 *   and scripted servers on loopback;
 * - sandbox: the local API sandbox against spec/openapi.yaml;
 * - tooling: the package's manifest, release, verify, benchmark report and CI workflow checks;
 * - e2e: a real n8n (scripts/e2e.js); queue: n8n's queue mode with Redis and PostgreSQL (scripts/queue.js).
 * `npm run test:fast` runs the first three, on the machine's Node.
 *
 * TypeScript is only transpiled here (SWC, file by file); `npm run typecheck`, which `npm test` runs,
 * checks the types. Each project sets its test time-out: a test there that waits longer than that has
 * hung, however busy the machine (the in-process suites start servers and a workflow engine per file).
 */
const suite = (name, testTimeout, extra = {}) => ({
	displayName: name,
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
	transform: {
		'^.+\\.ts$': [
			'@swc/jest',
			{
				jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
				module: { type: 'commonjs' },
			},
		],
	},
	globals: { testTimeout },
	setupFilesAfterEnv: ['<rootDir>/test/setup/timeout.ts'],
	...extra,
});
const quiet = {
	setupFiles: ['<rootDir>/test/setup/quietLogs.ts', '<rootDir>/test/setup/yamlCache.ts'],
};

module.exports = {
	// One worker for each of two cores; jest's own process only hands out the files (see BENCHMARKS.md).
	maxWorkers: 2,
	projects: [
		suite('nodes', 60_000, quiet),
		suite('sandbox', 60_000, quiet),
		suite('tooling', 120_000, quiet),
		suite('e2e', 600_000),
		suite('queue', 600_000),
	],
};
