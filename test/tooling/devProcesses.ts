import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

import { identity, stat } from '../../scripts/devRuns';

/**
 * What runs on this machine, read from /proc, and what listens on loopback: for the tests that stop
 * the dev tools (`npm run dev`, `npm run sandbox`) and check that nothing of theirs is left.
 */

const ROOT = join(__dirname, '..', '..');

/** A live process's parent and process group, from /proc; undefined once it is gone or a zombie. */
export function processInfo(pid: number): { ppid: number; pgid: number } | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return state === 'Z' ? undefined : { ppid: Number(ppid), pgid: Number(pgid) };
	} catch {
		return undefined;
	}
}

/** A process and every live process below it, however deep. */
export function treeOf(root: number): number[] {
	const parents = new Map<number, number>();
	for (const entry of readdirSync('/proc')) {
		const info = /^\d+$/.test(entry) ? processInfo(Number(entry)) : undefined;
		if (info) parents.set(Number(entry), info.ppid);
	}
	const tree = [root];
	for (let index = 0; index < tree.length; index++)
		for (const [pid, ppid] of parents) if (ppid === tree[index]) tree.push(pid);
	return tree.filter((pid) => processInfo(pid));
}

export const portOpen = (port: number) =>
	new Promise<boolean>((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});

/** Waits, checking every 100 ms, until `done` holds; fails with `what` after `ms`. */
export async function within(ms: number, what: string, done: () => Promise<boolean> | boolean) {
	const deadline = Date.now() + ms;
	while (!(await done())) {
		if (Date.now() > deadline) throw new Error(`${what} after ${ms / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** Every live process whose process group is one of `groups`. */
export function groupMembers(groups: Set<number>): number[] {
	return readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.map(Number)
		.filter((pid) => groups.has(processInfo(pid)?.pgid ?? -1));
}

export const commandOf = (pid: number): string => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
	} catch {
		return '';
	}
};

/** A process as scripts/devRuns.js names it: pid and start time, never mistaken for a later one. */
export type Named = { pid: number; start: string };

/** The live processes among `pids`, named. */
export const named = (pids: number[]): Named[] =>
	pids.flatMap((pid) => {
		const found = identity(pid);
		return found ? [found] : [];
	});

/** `child` and every live process below it, named; none once it has exited (its pid may be another's). */
export const treeOfChild = (child: ChildProcess): Named[] =>
	child.exitCode === null && child.signalCode === null ? named(treeOf(child.pid!)) : [];

/** SIGKILLs each of `processes` that is still the one named; one gone meanwhile is passed over. */
export function killSame(processes: Named[]) {
	for (const { pid, start } of processes)
		try {
			if (stat(pid)?.start === start) process.kill(pid, 'SIGKILL');
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
		}
}

/**
 * Runs `command` to its end: its exit code and output (standard output and error), once both have
 * closed. After `ms` it SIGKILLs the command and what it started, and fails with the output so far.
 */
export function runToEnd(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	ms: number,
): Promise<{ code: number | null; output: string }> {
	const child = spawn(command, args, {
		cwd: ROOT,
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			killSame(treeOfChild(child));
			reject(new Error(`${command} ${args.join(' ')} did not end in ${ms / 1000} s:\n${output}`));
		}, ms);
		child.once('close', (code) => {
			clearTimeout(timer);
			resolve({ code, output });
		});
	});
}

/** `npm run <script>` in its own process group, and its output as it comes. */
export function npmRun(script: string, env: NodeJS.ProcessEnv) {
	const npm = spawn('npm', ['run', script], {
		cwd: ROOT,
		detached: true,
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const waiters: Array<() => void> = [];
	const append = (chunk: Buffer) => {
		output += chunk.toString();
		for (const waiter of waiters.splice(0)) waiter();
	};
	npm.stdout.on('data', append);
	npm.stderr.on('data', append);
	const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
	/** Resolves when the output holds `text`; fails when npm exits first or after `ms`. */
	const printed = (text: string, ms: number) =>
		new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no "${text}" in ${ms / 1000} s`)), ms);
			const check = () => {
				if (output.includes(text)) {
					clearTimeout(timer);
					resolve();
				} else waiters.push(check);
			};
			void exited.then(() => {
				clearTimeout(timer);
				reject(new Error(`npm run ${script} exited before "${text}":\n${output.slice(-3000)}`));
			});
			check();
		});
	/**
	 * Ends whatever is left of the processes (and of `signalled`), after a test: npm's tree while npm
	 * runs (once it has exited, its pid may be another process's).
	 */
	const cleanUp = (signalled: Named[] = []) => killSame([...treeOfChild(npm), ...signalled]);
	return { npm, printed, output: () => output, cleanUp };
}

/** A TCP port free on loopback right now. */
export const freePort = (): Promise<number> =>
	new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
