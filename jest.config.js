/**
 * The suites, one jest project each (test/<name>/):
 * - nodes: both nodes, the credentials and the transport, run in n8n-core in-process, against the sandbox
 *   and scripted servers on loopback;
 * - sandbox: the local API sandbox against spec/openapi.yaml;
 * - tooling: the package's manifest, release, verify, benchmark report and CI workflow checks;
 * - e2e: a real n8n (scripts/e2e.js); queue: n8n's queue mode with Redis and PostgreSQL (scripts/queue.js).
 * `npm run test:fast` runs the first three, on the machine's Node.
 */
const suite = (name, extra = {}) => ({
	displayName: name,
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	...extra,
});
const quiet = { setupFiles: ['<rootDir>/test/setup/quietLogs.ts'] };

module.exports = {
	projects: [
		suite('nodes', quiet),
		suite('sandbox', quiet),
		suite('tooling', quiet),
		suite('e2e'),
		suite('queue'),
	],
};
