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

	/** A record left by an owner that is gone, naming `processes`; its file. */
	async function leftRecord(processes: object[]): Promise<string> {
		const owner = sleeper(false, false);
		const ownerPid = owner.pid!;
		record(ownerPid, processes);
		owner.kill('SIGKILL');
		await within(10_000, 'the owner still runs', () => !processInfo(ownerPid));
		return join(folder, 'dev-run.json');
	}

	it('signals nothing a record names by a pid that is no whole number above 1, or is this process, its parent or its group', async () => {
		const self = identity(process.pid)!;
		const parent = identity(process.ppid)!;
		const group = processInfo(process.pid)!.pgid;
		const file = await leftRecord([
			// Without a start time: -1 would signal every process the user may signal.
			{ pid: -1, command: '' },
			{ pid: -1, start: '1', command: '', group: true },
			// 0 signals this process's own group.
			{ pid: 0, start: '1', command: '', group: true },
			{ pid: 1, start: identity(1)?.start, command: identity(1)?.command, group: false },
			{ pid: 2.5, start: '1', command: '' },
			{ pid: String(process.pid), start: self.start, command: self.command },
			{ ...self, group: false },
			{ ...parent, group: true },
			{ ...identity(group), group: true },
		]);
		// No signal leaves this process, whatever the code under test does.
		const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
		try {
			const run = await claim(file, process.pid);
			expect(run.holder).toBeUndefined();
			expect(kill).not.toHaveBeenCalled();
			if (run.holder === undefined) {
				expect(run.stopped).toEqual([]);
				run.release();
			}
		} finally {
			kill.mockRestore();
		}
	});

	it('a start after a run that is gone stops a process it left only while its start time and command line are the recorded ones', async () => {
		const left = sleeper(false, false);
		const renamed = sleeper(false, false);
		const file = await leftRecord([
			{ ...identity(left.pid!), group: false },
			{ ...identity(renamed.pid!), command: 'node scripts/dev.js', group: false },
			{ ...identity(renamed.pid!), command: 'node scripts/dev.js', group: true },
		]);
		const run = await claim(file, process.pid);
		try {
			expect(run.holder).toBeUndefined();
			if (run.holder === undefined)
				expect(run.stopped.map(({ pid, group }) => ({ pid, group }))).toEqual([
					{ pid: left.pid, group: false },
				]);
			expect(processInfo(left.pid!)).toBeUndefined();
			expect(processInfo(renamed.pid!)).toBeDefined();
		} finally {
			if (run.holder === undefined) run.release();
		}
	});

	it("dev's watchdog stops only what its record names by pid, start time and command line", async () => {
		const left = sleeper(true);
		const renamed = sleeper(false, false);
		const leftTree = await withChild(left);
		const file = join(folder, 'dev-run.json');
		const owner = sleeper(false, false);
		record(owner.pid!, [
			{ ...identity(left.pid!), group: true },
			{ ...identity(renamed.pid!), command: 'node scripts/dev.js', group: true },
		]);
		const watchdog = spawn(
			process.execPath,
			[join(ROOT, 'scripts', 'devRuns.js'), 'watch', file, String(owner.pid)],
			{ stdio: ['pipe', 'ignore', 'pipe'] },
		);
		started.push(watchdog);
		let output = '';
		watchdog.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const exited = new Promise((resolve) => watchdog.once('close', resolve));
		// The owner's pipe ends: the watchdog acts on the record.
		watchdog.stdin.end();
		await exited;
		expect(output).toContain(`stopped pid ${left.pid} (`);
		expect(output).not.toContain(`pid ${renamed.pid} (`);
		for (const pid of leftTree) expect(processInfo(pid)).toBeUndefined();
		expect(processInfo(renamed.pid!)).toBeDefined();
		expect(existsSync(file)).toBe(false);
	});
});
