import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { claim, describe, stat, type Run } from '../scripts/devRuns';
import { parsePageCaps, startSandbox } from './index';

/**
 * `npm run sandbox`: prints one JSON line with the URLs and tokens, then serves until stopped. It checks
 * requests and answers against spec/openapi.yaml and prints each violation (SANDBOX_CONTRACT=0 turns that
 * off); SANDBOX_PAGE_CAPS="failures=100,locations=50" sets page-size caps; SANDBOX_WEBHOOK_SECRET is the
 * secret its console adds to a pasted n8n webhook URL.
 *
 * It runs under tsx (`npm run sandbox`, `npm run dev`) and follows tsx's parent, the npm process or dev:
 * when either is gone, killed outright too, it stops. On a port of its own (SANDBOX_PORT, 4010 unless
 * set; 0 is any free port) it keeps a run record, sandbox-<port>.json in the dev folder (DEV_USER_FOLDER,
 * else .dev), so that a later start on that port stops a sandbox a run that is gone left serving, or
 * says that a running one holds it.
 */
const FOLDER = process.env.DEV_USER_FOLDER ?? join(__dirname, '..', '.dev');

/** Stops with one line on standard error, and exit code 1. */
function fail(message: string): never {
	process.stderr.write(`[sandbox] ${message}\n`);
	process.exit(1);
}

/** The port SANDBOX_PORT asks for: 4010 when unset, any free port when empty or 0. */
function portOf(asked = '4010'): number {
	const port = asked === '' ? 0 : Number(asked);
	if ((asked !== '' && asked.trim() === '') || !Number.isInteger(port) || port < 0 || port > 65535)
		fail(`SANDBOX_PORT=${asked} is not a port number: choose one from 0 (any free port) to 65535`);
	return port;
}

const anotherPort = (port: number) =>
	`choose another port, e.g. SANDBOX_PORT=${port === 65535 ? port - 1 : port + 1} npm run sandbox`;

/** The one line for a port another program holds. */
const heldByAnother = (port: number) =>
	`Port ${port} (SANDBOX_PORT) is in use by another program: stop it or ${anotherPort(port)}`;

/** Whether nothing listens on `port` on loopback now. */
const free = (port: number) =>
	new Promise<boolean>((resolve) => {
		const probe = createServer();
		probe.once('error', () => resolve(false));
		probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
	});

/**
 * Claims the port's run record for this sandbox: stops a sandbox of this checkout that a run that is
 * gone left on the port; stops with one line when a running one, or another program, holds it.
 */
async function claimPort(port: number, starter: number): Promise<Run> {
	const another = anotherPort(port);
	mkdirSync(FOLDER, { recursive: true, mode: 0o700 });
	// Held only while a sandbox it records runs: its starter may be a shell that outlives a crash.
	const run = await claim(join(FOLDER, `sandbox-${port}.json`), starter, { whileRunning: true });
	if (run.holder)
		fail(
			`Port ${port} (SANDBOX_PORT) is in use by a running sandbox of this checkout, started by ${describe(run.holder)}: stop it or ${another}`,
		);
	run.add(process.pid, false);
	for (const named of run.stopped)
		process.stderr.write(
			`[sandbox] stopped an earlier sandbox of this checkout on port ${port}: ${describe(named)}\n`,
		);
	if (!(await free(port))) {
		run.release();
		fail(heldByAnother(port));
	}
	return run;
}

async function main(): Promise<void> {
	const seed: Record<string, number> = {};
	for (const [name, value] of Object.entries(process.env)) {
		const match = name.match(/^SANDBOX_SEED_([A-Z_]+)$/);
		if (match && value)
			seed[match[1].toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] =
				Number(value);
	}
	const port = portOf(process.env.SANDBOX_PORT);
	const tsx = process.ppid;
	const starter = stat(tsx)?.ppid ?? tsx;
	const run = port === 0 ? undefined : await claimPort(port, starter);
	const sandbox = await startSandbox({
		port,
		seed,
		contract: process.env.SANDBOX_CONTRACT !== '0',
		lenientQuery: process.env.SANDBOX_LENIENT_QUERY === '1',
		pageCaps: parsePageCaps(process.env.SANDBOX_PAGE_CAPS ?? ''),
		webhookSecret: process.env.SANDBOX_WEBHOOK_SECRET,
		n8nUrl: process.env.SANDBOX_N8N_URL,
	}).catch((error: NodeJS.ErrnoException) => {
		// Taken in the moment between the check above and the listen.
		if (error.code !== 'EADDRINUSE') throw error;
		run?.release();
		return fail(heldByAnother(port));
	});
	const { url, controlUrl, consoleUrl, environments } = sandbox;
	process.stdout.write(`${JSON.stringify({ url, controlUrl, consoleUrl, environments })}\n`);
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		void sandbox.close().then(() => {
			run?.release();
			process.exit(0);
		});
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	// tsx or its parent gone (killed outright: no signal came on): the sandbox goes too.
	setInterval(() => {
		if (process.ppid !== tsx || (stat(tsx)?.ppid ?? starter) !== starter) stop();
	}, 1000).unref();
}

void main();
