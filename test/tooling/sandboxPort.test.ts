import { npmRun, within } from './devProcesses';

/**
 * SANDBOX_PORT as `npm run sandbox` reads it: empty or 0 is any free port, as it was before the CLI
 * checked the variable; anything that is not a port number stops the start with one line.
 */
const START_MS = 60_000;

describe('npm run sandbox with SANDBOX_PORT', () => {
	it('empty: serves on a free port the system chooses', async () => {
		const run = npmRun('sandbox', { SANDBOX_PORT: '' });
		try {
			await run.printed('consoleUrl', START_MS);
			const line = run
				.output()
				.split('\n')
				.find((text) => text.startsWith('{'));
			const { controlUrl } = JSON.parse(line!) as { controlUrl: string };
			const port = Number(new URL(controlUrl).port);
			// A port the system chooses is an ephemeral one, never the default 4010.
			expect(port).toBeGreaterThan(1024);
			expect(port).not.toBe(4010);
			expect((await fetch(`${controlUrl}/faults`)).status).toBe(200);
		} finally {
			process.kill(-run.npm.pid!, 'SIGTERM');
			await within(15_000, 'npm run sandbox to stop', () => run.npm.exitCode !== null);
			run.cleanUp();
		}
	});

	it.each(['abc', ' ', '4010x', '65536'])(
		'%j: stops with one line naming SANDBOX_PORT and what it takes, exit code 1',
		async (asked) => {
			const run = npmRun('sandbox', { SANDBOX_PORT: asked });
			try {
				await within(START_MS, 'npm run sandbox to exit', () => run.npm.exitCode !== null);
				expect(run.npm.exitCode).toBe(1);
				expect(run.output()).toContain(
					`[sandbox] SANDBOX_PORT=${asked} is not a port number: choose one from 0 (any free port) to 65535\n`,
				);
				expect(run.output()).not.toMatch(/\n\s+at /);
			} finally {
				run.cleanUp();
			}
		},
	);
});
