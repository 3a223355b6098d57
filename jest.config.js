/**
 * Unit and sandbox tests run in-process on the machine's Node; the end-to-end suite runs in a real n8n
 * (scripts/e2e.js), the queue suite in n8n's queue mode with Redis and PostgreSQL (scripts/queue.js).
 */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.test.json' }];

module.exports = {
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			roots: ['<rootDir>/test'],
			testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/sandbox/**/*.test.ts'],
			setupFiles: ['<rootDir>/test/unit/setup/quietLogs.ts'],
			transform: { '^.+\\.ts$': tsJest },
		},
		{
			displayName: 'e2e',
			testEnvironment: 'node',
			roots: ['<rootDir>/test'],
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			transform: { '^.+\\.ts$': tsJest },
		},
		{
			displayName: 'queue',
			testEnvironment: 'node',
			roots: ['<rootDir>/test'],
			testMatch: ['<rootDir>/test/queue/**/*.test.ts'],
			transform: { '^.+\\.ts$': tsJest },
		},
	],
};
