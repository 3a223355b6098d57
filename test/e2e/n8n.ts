import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
	closeSync,
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { freePort } from '../tooling/devProcesses';

export { freePort };

const ROOT = join(__dirname, '..', '..');
/** How long a REST call to n8n may take before the test fails naming it. */
const REST_TIMEOUT_MS = 240_000;
export const PACKAGE_NAME = 'n8n-nodes-maintenance-management';
export const OWNER = { email: 'owner@example.com', password: 'E2e-Owner-password-1' };

/**
 * Node 24 and the n8n under test (the pinned one by default), as the scripts that run these suites
 * (scripts/e2e.js, compat.js, queue.js) set them: the install cache's entries. Nothing else is run, and
 * no folder of .runtime/ (which may hold an install from before the cache) is looked at.
 */
function installed(name: 'E2E_NODE_BIN' | 'E2E_N8N_BIN'): string {
	const path = process.env[name];
	if (!path)
		throw new Error(
			`${name} is not set: run the end-to-end suite with npm run test:e2e (one file: node scripts/e2e.js -- test/e2e/<file>; the queue suite with npm run test:queue), which installs Node 24 and the pinned n8n into the install cache and names them to jest.`,
		);
	return path;
}
export const NODE_BIN = installed('E2E_NODE_BIN');
const N8N = installed('E2E_N8N_BIN');
/** That n8n's node_modules: N8N is <node_modules>/n8n/bin/n8n. */
const N8N_MODULES = join(dirname(N8N), '..', '..');

/**
 * n8n's optional modules this suite does without, among those the n8n under test has: n8n refuses to
 * start when N8N_DISABLED_MODULES names a module it does not know (1.123 has none of these).
 */
function disabledModules(): NodeJS.ProcessEnv {
	const unused = [
		'promotions',
		'mcp-registry',
		'instance-reporting',
		'workflow-builder',
		'instance-ai',
	];
	const script = 'process.stdout.write(JSON.stringify(require(process.argv[1]).MODULE_NAMES))';
	const config = join(N8N_MODULES, '@n8n/backend-common/dist/modules/modules.config.js');
	const known = JSON.parse(execFileSync(NODE_BIN, ['-e', script, config]).toString()) as string[];
	const disabled = unused.filter((name) => known.includes(name));
	return disabled.length ? { N8N_DISABLED_MODULES: disabled.join(',') } : {};
}

/**
 * A real n8n process with this package installed as a community package, in a fresh user folder of its
 * own (as on a machine of its own). What it prints goes to .runtime/logs/<name>.log.
 */
export class N8nInstance {
	readonly userFolder = mkdtempSync(join(tmpdir(), 'mm-e2e-'));

	readonly logFile: string;

	constructor(readonly name = 'e2e') {
		this.logFile = join(ROOT, '.runtime', 'logs', `${name}.log`);
	}

	/** n8n's SQLite database in the user folder. */
	private get database(): string {
		return join(this.userFolder, '.n8n', 'database.sqlite');
	}

	readonly packageDir = join(this.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);

	port = 0;

	private server?: ChildProcess;

	private cookie = '';

	private env: NodeJS.ProcessEnv = {};

	/** What the last `execute` printed (n8n's log lines among it). */
	printed = '';

	/**
	 * Prepares the user folder and n8n's environment, `extraEnv` added to it. With `copyPackage: false`,
	 * nothing is installed: n8n's own installer puts the package there (test/e2e/installer.e2e.test.ts).
	 */
	async setup(
		extraEnv: NodeJS.ProcessEnv = {},
		{ copyPackage = true }: { copyPackage?: boolean } = {},
	): Promise<void> {
		// A copy of the built package without node_modules, as a community install has it: zod and
		// n8n-workflow can only come from n8n itself.
		if (copyPackage) {
			mkdirSync(this.packageDir, { recursive: true });
			cpSync(join(ROOT, 'dist'), join(this.packageDir, 'dist'), { recursive: true });
			cpSync(join(ROOT, 'package.json'), join(this.packageDir, 'package.json'));
		}
		this.port = await freePort();
		const bcrypt = createRequire(__filename)(join(N8N_MODULES, 'bcryptjs')) as {
			hashSync: (text: string, rounds: number) => string;
		};
		this.env = {
			PATH: process.env.PATH,
			HOME: this.userFolder,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: 'e2e-encryption-key-not-secret',
			DB_TYPE: 'sqlite',
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			// A worker's health server, on loopback, is where it reports ready.
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(this.port),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			...disabledModules(),
			N8N_SECURE_COOKIE: 'false',
			N8N_LOG_LEVEL: 'warn',
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(OWNER.password, 10),
			...extraEnv,
		};
	}

	/** Runs one n8n CLI command and returns what it printed. */
	cli(
		args: string[],
		extraEnv: NodeJS.ProcessEnv = {},
	): Promise<{ stdout: string; stderr: string }> {
		return new Promise((resolve, reject) => {
			execFile(
				NODE_BIN,
				[N8N, ...args],
				{ env: { ...this.env, ...extraEnv }, maxBuffer: 256 * 1024 * 1024 },
				(error, stdout, stderr) => {
					if (error)
						reject(
							Object.assign(
								new Error(
									`n8n ${args[0]} failed: ${error.message}\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
								),
								{ stdout, stderr },
							),
						);
					else resolve({ stdout, stderr });
				},
			);
		});
	}

	/**
	 * Publishes a workflow, so that `n8n start` activates it: with publish:workflow where n8n has that
	 * command (2.x), else with update:workflow --active=true (1.x). publish:workflow publishes the
	 * workflow's current version from its history, where import:workflow puts it from n8n 2.3.6 on;
	 * with an older 2.x, the version is put there first, as a later import would (else nothing changes).
	 */
	async publishWorkflow(id: string): Promise<void> {
		if (!existsSync(join(N8N_MODULES, 'n8n/dist/commands/publish/workflow.js'))) {
			await this.cli(['update:workflow', `--id=${id}`, '--active=true']);
			return;
		}
		const script = `
			const [database, workflowId] = process.argv.slice(1);
			const db = new (require('node:sqlite').DatabaseSync)(database);
			db.prepare("INSERT INTO workflow_history (versionId, workflowId, nodes, connections, authors) SELECT w.versionId, w.id, w.nodes, w.connections, 'import' FROM workflow_entity w WHERE w.id = ? AND NOT EXISTS (SELECT 1 FROM workflow_history h WHERE h.versionId = w.versionId)").run(workflowId);
			db.close();`;
		execFileSync(NODE_BIN, ['--no-warnings', '-e', script, this.database, id]);
		await this.cli(['publish:workflow', `--id=${id}`]);
	}

	async importFiles(credentials: unknown[], workflows: Array<{ id: string }>): Promise<void> {
		const dir = join(this.userFolder, 'import');
		mkdirSync(join(dir, 'workflows'), { recursive: true });
		writeFileSync(join(dir, 'credentials.json'), JSON.stringify(credentials));
		for (const workflow of workflows)
			writeFileSync(join(dir, 'workflows', `${workflow.id}.json`), JSON.stringify(workflow));
		await this.cli(['import:credentials', `--input=${join(dir, 'credentials.json')}`]);
		await this.cli(['import:workflow', '--separate', `--input=${join(dir, 'workflows')}`]);
	}

	/**
	 * Executes a workflow with `n8n execute`, `extraEnv` added to its settings, and returns its run data.
	 * The data is read back from n8n's database rather than from the printed output: n8n prints it
	 * through its logger and exits right after, so the printed JSON can come out cut short.
	 */
	async execute(id: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<ExecutionResult> {
		const before = await this.lastExecutionId(id);
		// Its own task-broker port, so it can run beside a started n8n. A failed run exits non-zero;
		// its stored data still says why, so that is what the caller gets.
		const outcome = await this.cli(['execute', `--id=${id}`], {
			...extraEnv,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		}).catch((error: Error & { stdout?: string; stderr?: string }) => error);
		// All of it, a failed run's too: its message keeps only the end, after n8n's log lines.
		this.printed =
			outcome instanceof Error
				? `${outcome.message}\n${outcome.stdout ?? ''}${outcome.stderr ?? ''}`
				: outcome.stdout + outcome.stderr;
		const file = join(this.userFolder, `execution-${id}.json`);
		await this.storedExecution(id, file);
		const stored = JSON.parse(readFileSync(file, 'utf8')) as
			(ExecutionResult & { id: number }) | null;
		if (!stored || stored.id === before) {
			throw new Error(
				`n8n execute stored no execution of ${id}${outcome instanceof Error ? `: ${outcome.message}` : ''}`,
			);
		}
		return stored;
	}

	private async lastExecutionId(workflowId: string): Promise<number | undefined> {
		return (await this.newestExecution(workflowId))?.id;
	}

	/** The newest execution of a workflow as n8n stored it in its database, or null. */
	async newestExecution(workflowId: string): Promise<(ExecutionResult & { id: number }) | null> {
		const file = join(this.userFolder, `execution-${workflowId}.json`);
		await this.storedExecution(workflowId, file);
		return JSON.parse(readFileSync(file, 'utf8')) as (ExecutionResult & { id: number }) | null;
	}

	/** Writes the newest stored execution of a workflow (or null) to a file, read with Node 24's sqlite. */
	private storedExecution(workflowId: string, file: string): Promise<void> {
		const script = `
			const [database, flattedPath, workflowId, file] = process.argv.slice(1);
			const { DatabaseSync } = require('node:sqlite');
			const { existsSync, writeFileSync } = require('node:fs');
			let result = null;
			if (existsSync(database)) {
				const db = new DatabaseSync(database, { readOnly: true });
				const row = db.prepare('SELECT e.id, e.status, d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = ? ORDER BY e.id DESC LIMIT 1').get(workflowId);
				if (row) {
					const data = require(flattedPath).parse(row.data);
					// n8n 1.123 writes an ended execution's status before its data: until the data says
					// how the run ended, the execution is still being stored.
					const stored = data?.resultData?.lastNodeExecuted !== undefined || data?.resultData?.error !== undefined;
					const ended = row.status === 'success' || row.status === 'error';
					result = { id: row.id, status: ended && !stored ? 'running' : row.status, data };
				}
				db.close();
			}
			writeFileSync(file, JSON.stringify(result));`;
		const args = [
			'--no-warnings',
			'-e',
			script,
			this.database,
			join(N8N_MODULES, 'flatted'),
			workflowId,
			file,
		];
		return new Promise((resolve, reject) => {
			execFile(NODE_BIN, args, (error, _stdout, stderr) =>
				error ? reject(new Error(`reading the execution failed: ${stderr}`)) : resolve(),
			);
		});
	}

	/** Starts `n8n start` (or `n8n worker`, `n8n webhook`) and waits until it reports ready on its port. */
	async start(
		command: 'start' | 'worker' | 'webhook' = 'start',
		args: string[] = [],
	): Promise<void> {
		this.server = spawnLogged([N8N, command, ...args], this.logFile, this.env);
		const exited = new Promise<never>((_resolve, reject) =>
			this.server!.once('exit', (code) =>
				reject(new Error(`n8n ${command} exited with ${code}; see ${this.logFile}`)),
			),
		);
		exited.catch(() => undefined);
		await Promise.race([
			this.waitFor(
				async () => (await fetch(this.url('/healthz/readiness'))).status === 200,
				`n8n ${command} to be ready`,
				120_000,
			),
			exited,
		]);
	}

	/** What the process has printed so far. */
	log(): string {
		return readFileSync(this.logFile, 'utf8');
	}

	/** The process id of the started n8n, to read its memory. */
	get pid(): number | undefined {
		return this.server?.pid;
	}

	url(path: string): string {
		return `http://127.0.0.1:${this.port}${path}`;
	}

	/** Polls until the check passes; a webhook answers 404 for a moment after readiness. */
	async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
		await waitUntil(check, what, timeoutMs);
	}

	/** GET on n8n's REST API as the owner, or POST when a body is given. */
	async getAsOwner(path: string, body?: unknown): Promise<unknown> {
		return (await this.requestAsOwner(body === undefined ? 'GET' : 'POST', path, body)).body;
	}

	/** A request to n8n's REST API as the owner: the status and the JSON body (null when not JSON). */
	async requestAsOwner(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; body: unknown }> {
		if (!this.cookie) {
			// An n8n that does not take its owner from N8N_INSTANCE_OWNER_* (1.x) asks for one to be set up,
			// which also logs in.
			const settings = (await (await fetch(this.url('/rest/settings'))).json()) as {
				data?: { userManagement?: { showSetupOnFirstLoad?: boolean } };
			};
			const setUp = settings.data?.userManagement?.showSetupOnFirstLoad === true;
			const login = await fetch(this.url(setUp ? '/rest/owner/setup' : '/rest/login'), {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(
					setUp
						? { email: OWNER.email, password: OWNER.password, firstName: 'E2e', lastName: 'Owner' }
						: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
				),
			});
			this.cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
		}
		const init: RequestInit =
			body === undefined
				? { method, headers: { cookie: this.cookie } }
				: {
						method,
						headers: { cookie: this.cookie, 'Content-Type': 'application/json' },
						body: JSON.stringify(body),
					};
		// An install or update runs npm inside n8n before it answers: minutes on a loaded machine.
		const response = await fetch(this.url(path), {
			...init,
			signal: AbortSignal.timeout(REST_TIMEOUT_MS),
		}).catch((error: Error) => {
			throw new Error(
				`n8n did not answer ${method} ${path} within ${REST_TIMEOUT_MS / 1000} s: ${error.message}`,
			);
		});
		const text = await response.text();
		let parsed: unknown = null;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON: an empty answer, say
		}
		return { status: response.status, body: parsed };
	}

	async stop(): Promise<void> {
		if (this.server) await stopProcess(this.server, 15_000);
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}

/** Polls until the check passes (a check that throws has not passed yet), or fails naming what it waited for. */
export async function waitUntil(
	check: () => Promise<boolean>,
	what: string,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		try {
			if (await check()) return;
		} catch {
			// not up yet
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`);
}

/** Runs each step of a teardown in turn, each even when one before it throws; then throws the first error. */
export async function inTurn(...steps: Array<() => unknown>): Promise<void> {
	const failures: unknown[] = [];
	for (const step of steps) {
		try {
			await step();
		} catch (error) {
			failures.push(error);
		}
	}
	if (failures.length) throw failures[0];
}

/** Starts Node 24 on `args` with `env`, writing its output to `logFile` (anew). */
export function spawnLogged(args: string[], logFile: string, env: NodeJS.ProcessEnv): ChildProcess {
	mkdirSync(dirname(logFile), { recursive: true });
	const log = openSync(logFile, 'w');
	try {
		return spawn(NODE_BIN, args, { env, stdio: ['ignore', log, log] });
	} finally {
		closeSync(log);
	}
}

/** Stops a started process: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill('SIGTERM');
	let timer: NodeJS.Timeout | undefined;
	await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
	clearTimeout(timer);
	if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface NodeRun {
	data?: { main: Array<Array<{ json: Record<string, unknown>; pairedItem?: unknown }> | null> };
	error?: { message: string; description?: string };
}

export interface ExecutionResult {
	status?: string;
	data: { resultData: { runData: Record<string, NodeRun[]>; error?: { message: string } } };
}

/**
 * Where plain Node module resolution finds a module from a folder (NODE_PATH cleared), or null. n8n
 * 2.41 adds its own module paths to NODE_PATH when it loads nodes, which is how a community package
 * without node_modules gets n8n-workflow and zod.
 */
export function resolveFrom(dir: string, request: string): string | null {
	const script =
		'try { process.stdout.write(require.resolve(process.argv[1], { paths: [process.argv[2]] })) } catch { }';
	const found = execFileSync(process.execPath, ['-e', script, request, dir], {
		env: { PATH: process.env.PATH },
	}).toString();
	return found || null;
}

export const N8N_NODE_MODULES = N8N_MODULES;

const versionIn = (file: string): string =>
	(JSON.parse(readFileSync(file, 'utf8')) as { version?: string; dependencies?: { n8n?: string } })
		.version ?? '';
/** Whether the n8n under test is the pinned one (scripts/n8n/), not an older one of the matrix. */
export const TESTING_PINNED_N8N =
	versionIn(join(N8N_MODULES, 'n8n', 'package.json')) ===
	(
		JSON.parse(readFileSync(join(ROOT, 'scripts', 'n8n', 'package.json'), 'utf8')) as {
			dependencies: { n8n: string };
		}
	).dependencies.n8n;

/** The items (JSON and pairing) of one output of a node in an execution: 0 is Success, 1 Error. */
export const itemsOf = (result: ExecutionResult, nodeName: string, output: number) =>
	result.data.resultData.runData[nodeName]?.[0]?.data?.main?.[output] ?? [];

/** The JSON items a node output in an execution. */
export const outputOf = (result: ExecutionResult, nodeName: string) =>
	(result.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
