import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { identity } from '../../scripts/devRuns';

import {
	commandOf,
	freePort,
	named,
	npmRun,
	portOpen,
	processInfo,
	runToEnd,
	treeOf,
	within,
} from './devProcesses';

/**
 * `npm run sandbox` on a port that is taken says so in one line, naming the port, what holds it when
 * that is a sandbox of this checkout, and SANDBOX_PORT; a SIGKILL to npm stops the sandbox; and a
 * sandbox left serving by a run that is gone is found and stopped by the next start on its port.
 */
const ROOT = join(__dirname, '..', '..');
/** How long a start of tsx and the sandbox may take on a busy machine, and a stop. */
const START_MS = 60_000;
const STOP_MS = 15_000;

let folder: string;
beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'mm-sandbox-cli-'))));
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** The sandbox CLI under tsx, as `npm run dev` starts it: its exit code and its output. */
const runCli = (port: number) =>
	runToEnd(
		join(ROOT, 'node_modules', '.bin', 'tsx'),
		['sandbox/cli.ts'],
		{ SANDBOX_PORT: String(port), DEV_USER_FOLDER: folder },
		START_MS,
	);

/** `npm run sandbox` on `port`, once it has printed its URLs; and the sandbox's own process. */
async function sandboxOn(port: number) {
	const run = npmRun('sandbox', { SANDBOX_PORT: String(port), DEV_USER_FOLDER: folder });
	await run.printed('consoleUrl', START_MS).catch((error: Error) => {
		run.cleanUp();
		throw error;
	});
	const server = treeOf(run.npm.pid!).find((pid) => /preflight/.test(commandOf(pid)))!;
	expect(server).toBeDefined();
	return { run, server };
}

const ONE_LINE_NO_STACK = /^[^\n]+\n$/;

describe('npm run sandbox on a taken port', () => {
	let holder: Server;
	afterEach(async () => {
		if (holder?.listening) await new Promise((resolve) => holder.close(resolve));
	});

	it('held by another program: one line naming the port and SANDBOX_PORT, exit code 1', async () => {
		const port = await freePort();
		holder = createServer();
		await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
		const { code, output } = await runCli(port);
		expect(output).toMatch(ONE_LINE_NO_STACK);
		expect(output).toContain(`Port ${port} (SANDBOX_PORT) is in use by another program`);
		expect(output).toMatch(/SANDBOX_PORT=\d+ npm run sandbox/);
		expect(code).toBe(1);
	});

	it('held by a running sandbox of this checkout: one line naming it, and that one keeps serving', async () => {
		const port = await freePort();
		const { run } = await sandboxOn(port);
		try {
			const { code, output } = await runCli(port);
			expect(output).toMatch(ONE_LINE_NO_STACK);
			expect(output).toContain(
				`Port ${port} (SANDBOX_PORT) is in use by a running sandbox of this checkout`,
			);
			expect(output).toContain(`started by pid ${run.npm.pid} (npm run sandbox)`);
			expect(code).toBe(1);
			expect(await portOpen(port)).toBe(true);
		} finally {
			run.cleanUp();
		}
	});
});

describe('npm run sandbox after a SIGKILL', () => {
	it('to npm: the sandbox and tsx stop, and the port is free', async () => {
		const port = await freePort();
		const { run } = await sandboxOn(port);
		const tree = named(treeOf(run.npm.pid!));
		try {
			process.kill(run.npm.pid!, 'SIGKILL');
			await within(STOP_MS, 'the sandbox still runs or its port is open', async () => {
				return tree.every(({ pid }) => !processInfo(pid)) && !(await portOpen(port));
			});
		} finally {
			run.cleanUp(tree);
		}
	});

	it(
		'left serving by a run that is gone: the next start on its port stops it and serves',
		async () => {
			const port = await freePort();
			const earlier = await sandboxOn(port);
			const tree = named(treeOf(earlier.run.npm.pid!));
			// A sandbox that cannot notice that its npm is gone: stopped (SIGSTOP) while npm is killed.
			process.kill(earlier.server, 'SIGSTOP');
			process.kill(earlier.run.npm.pid!, 'SIGKILL');
			const next = npmRun('sandbox', { SANDBOX_PORT: String(port), DEV_USER_FOLDER: folder });
			try {
				await next.printed('consoleUrl', START_MS);
				expect(next.output()).toContain(`"url":"http://127.0.0.1:${port}"`);
				expect(next.output()).toMatch(
					new RegExp(
						`stopped an earlier sandbox of this checkout on port ${port}: pid ${earlier.server}\\b`,
					),
				);
				expect(processInfo(earlier.server)).toBeUndefined();
			} finally {
				next.cleanUp();
				earlier.run.cleanUp(tree);
			}
		},
		// Longer than its two named waits, START_MS each: they fail first, saying what did not come.
		3 * START_MS,
	);
});

describe('npm run sandbox after a crash of the sandbox alone', () => {
	it('serves on the port although the run record names a starter that still runs', async () => {
		const port = await freePort();
		// A record whose starter (as an interactive shell would be: this process) runs, and whose
		// sandbox is gone: the process with its pid, if any, started at another time.
		const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
		const gone = { ...identity(process.pid)!, start: '1', group: false };
		writeFileSync(
			join(folder, `sandbox-${port}.json`),
			JSON.stringify({ boot, owner: identity(process.pid), processes: [gone] }),
		);
		const { run } = await sandboxOn(port);
		try {
			expect(run.output()).toContain(`"url":"http://127.0.0.1:${port}"`);
			expect(run.output()).not.toContain('in use');
		} finally {
			run.cleanUp();
		}
	});
});
