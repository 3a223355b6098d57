import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

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
	/** Ends whatever is left of the processes (and of `signalled`), after a test. */
	const cleanUp = (signalled: number[] = []) => {
		for (const pid of [...treeOf(npm.pid!), ...signalled])
			if (processInfo(pid)) process.kill(pid, 'SIGKILL');
	};
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
