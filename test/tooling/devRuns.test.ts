import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { claim, identity } from '../../scripts/devRuns';

import {
	freePort,
	killSame,
	named,
	processInfo,
	runToEnd,
	treeOf,
	treeOfChild,
	within,
	type Named,
} from './devProcesses';

/**
 * `npm run dev`'s run record (scripts/devRuns.js): a start on a folder a running dev holds stops at once,
 * naming it, so two n8n never share its database; a start after a run that is gone stops what that run
 * left, each process named by pid and start time, and nothing else. No n8n is started: a taken N8N_PORT
 * stops dev right after it has claimed its folder.
 */
const ROOT = join(__dirname, '..', '..');
const BOOT = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
const EXIT_MS = 60_000;

let folder: string;
let holder: Server;
let taken: number;
const started: ChildProcess[] = [];
/** What the test's processes started, named when seen. */
const seen: Named[] = [];

beforeEach(async () => {
	folder = mkdtempSync(join(tmpdir(), 'mm-dev-runs-'));
	taken = await freePort();
	holder = createServer();
	await new Promise<void>((resolve) => holder.listen(taken, '127.0.0.1', resolve));
});
afterEach(async () => {
	try {
		killSame([...started.splice(0).flatMap(treeOfChild), ...seen.splice(0)]);
	} finally {
		await new Promise((resolve) => holder.close(resolve));
		rmSync(folder, { recursive: true, force: true });
	}
});

const FOREVER = 'setInterval(() => {}, 1000)';

/**
 * A node process that runs until killed, in a process group of its own when `detached`, and with a
 * child of its own when `parent`; `argv0` is the start of its command line.
 */
function sleeper(detached: boolean, parent = true, argv0?: string): ChildProcess {
	const script = parent
		? `require('node:child_process').spawn(process.execPath, ['-e', '${FOREVER}'], { stdio: 'inherit' }); ${FOREVER}`
		: FOREVER;
	const child = spawn(process.execPath, ['-e', script], { detached, stdio: 'ignore', argv0 });
	started.push(child);
	return child;
}

/** scripts/dev.js on the folder, N8N_PORT taken: its exit code and output. */
const runDev = () =>
	runToEnd(
		process.execPath,
		[join(ROOT, 'scripts', 'dev.js')],
		{ DEV_USER_FOLDER: folder, N8N_PORT: String(taken) },
		EXIT_MS,
	);

const record = (owner: number, processes: object[]) =>
	writeFileSync(
		join(folder, 'dev-run.json'),
		JSON.stringify({ boot: BOOT, owner: identity(owner), processes }),
	);

/** Waits until `child` has started its own child; the two pids. */
async function withChild(child: ChildProcess): Promise<number[]> {
	await within(10_000, 'no child started', () => treeOf(child.pid!).length === 2);
	const tree = treeOf(child.pid!);
	seen.push(...named(tree));
	return tree;
}

describe("npm run dev's run record", () => {
	it('a start on a folder a running dev holds stops at once, naming it, and leaves it running', async () => {
		const running = sleeper(false);
		await withChild(running);
		record(running.pid!, []);
		const before = readFileSync(join(folder, 'dev-run.json'), 'utf8');
		const { code, output } = await runDev();
		expect(output).toContain(`${folder} is in use by a running npm run dev, pid ${running.pid} (`);
		expect(output).toContain('set DEV_USER_FOLDER to another folder');
		expect(output).not.toContain('is in use: free it');
		expect(code).toBe(1);
		expect(processInfo(running.pid!)).toBeDefined();
		expect(readFileSync(join(folder, 'dev-run.json'), 'utf8')).toBe(before);
	});

	it('names the running dev by its command line as plain text: escapes, controls and line breaks shown, not acted on', async () => {
		// A title escape, an erase-line, and a line break before a forged line of dev's.
		const running = sleeper(
			false,
			false,
			'\u001b]0;owned\u0007\u001b[2K\r\n[dev] editor: http://evil.example:5678\n',
		);
		record(running.pid!, []);
		const { code, output } = await runDev();
		expect(code).toBe(1);
		expect(output).toContain(
			`pid ${running.pid} (\\u001b]0;owned\\u0007\\u001b[2K\\u000d\\u000a[dev] editor: http://evil.example:5678\\u000a -e `,
		);
		expect(output.replaceAll('\n', '')).not.toMatch(/\p{Cc}/u);
		expect(output.split('\n').filter((line) => line.startsWith('[dev] editor:'))).toEqual([]);
	});

	it('a start after a run that is gone stops its process groups, and only what is its own', async () => {
		const owner = sleeper(false, false);
		const left = sleeper(true);
		const stranger = sleeper(false);
		const leftTree = await withChild(left);
		await withChild(stranger);
		const ownerIdentity = identity(owner.pid!);
		record(owner.pid!, [
			{ ...identity(left.pid!), group: true },
			// The stranger has the pid of a recorded process that has ended: another start time.
			{ ...identity(stranger.pid!), start: '1', group: false },
		]);
		owner.kill('SIGKILL');
		await within(10_000, 'the owner still runs', () => !processInfo(ownerIdentity!.pid));
		const { code, output } = await runDev();
		expect(output).toContain(`[dev] stopped what an earlier run left running: pid ${left.pid} (`);
		expect(output).not.toContain(`pid ${stranger.pid}`);
		expect(output).toContain(`Port ${taken} (N8N_PORT) is in use`);
		expect(code).toBe(1);
		for (const pid of leftTree) expect(processInfo(pid)).toBeUndefined();
		expect(processInfo(stranger.pid!)).toBeDefined();
		expect(existsSync(join(folder, 'dev-run.json'))).toBe(false);
	});

	it('two starts after a run that is gone: one claims the record and stops what it left, the other finds it held', async () => {
		const owner = sleeper(false, false);
		const left = sleeper(false, false);
		record(owner.pid!, [{ ...identity(left.pid!), group: false }]);
		const ownerPid = owner.pid!;
		owner.kill('SIGKILL');
		await within(10_000, 'the owner still runs', () => !processInfo(ownerPid));
		const file = join(folder, 'dev-run.json');
		const runs = await Promise.all([claim(file, process.pid), claim(file, process.pid)]);
		try {
			const owners = runs.filter((run) => run.holder === undefined);
			expect(owners).toHaveLength(1);
			expect(owners[0].stopped.map((named) => named.pid)).toEqual([left.pid]);
			expect(runs.find((run) => run.holder)?.holder?.pid).toBe(process.pid);
			expect(processInfo(left.pid!)).toBeUndefined();
			expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
				owner: identity(process.pid),
				processes: [],
			});
		} finally {
			for (const run of runs) if (run.holder === undefined) run.release();
		}
	});
});
