import { type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	commandOf,
	freePort,
	groupMembers,
	named,
	portOpen,
	processInfo,
	npmRun,
	runToEnd,
	treeOf,
	within,
	type Named,
} from '../tooling/devProcesses';

/**
 * `npm run dev` never reports an editor that did not come: on a taken port it stops at once, naming the
 * port and its variable; when n8n fails, it exits non-zero with n8n's reason. Both without "ready".
 * `npm run sandbox` and `npm run dev` stop with every process they started, leaving no port open,
 * when a process manager signals the `npm` process, the script, or the whole process group.
 */
jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..');

/** How long `npm run dev` may take to stop by itself, on a taken port or a failing n8n. */
const EXIT_MS = 240_000;

/** scripts/dev.js with `env`: its exit code and output. */
const runDev = (env: NodeJS.ProcessEnv) =>
	runToEnd(process.execPath, [join(ROOT, 'scripts', 'dev.js')], env, EXIT_MS);

/** The processes a test signalled, for the clean-up after a failed one. */
const signalled: Named[] = [];

/** How long stopping may take: n8n's own shutdown included. */
const STOP_MS = 30_000;

/**
 * Signals one process of a running npm script (`target`), then waits until every process of the tree
 * that was running, npm's included, and every process of their process groups (a child's child left
 * to init among them) is gone, and none of `ports` is open.
 */
async function expectStops(
	npm: ChildProcess,
	signal: NodeJS.Signals,
	target: (tree: number[]) => number,
	ports: number[],
) {
	const tree = treeOf(npm.pid!);
	const groups = new Set(tree.map((pid) => processInfo(pid)?.pgid ?? -1));
	signalled.push(...named(tree));
	for (const port of ports) expect(await portOpen(port)).toBe(true);
	process.kill(target(tree), signal);
	const left = async () =>
		[...new Set([...tree.filter((pid) => processInfo(pid)), ...groupMembers(groups)])]
			.map((pid) => `${pid} ${commandOf(pid).slice(0, 120)}`)
			.concat(
				(await Promise.all(ports.map(async (port) => ((await portOpen(port)) ? port : 0))))
					.filter(Boolean)
					.map((port) => `port ${port} open`),
			);
	await within(STOP_MS, 'still running', async () => (await left()).length === 0).catch(
		async (error: Error) => {
			throw new Error(`${error.message}:\n${(await left()).join('\n')}`);
		},
	);
}

describe('npm run sandbox stops with everything it started', () => {
	/** Whom a process manager signals: the npm process, the script (tsx, or the sandbox's own node), or the group. */
	const targets: Array<[string, (tree: number[]) => number]> = [
		['the npm process', (tree) => tree[0]],
		['tsx', (tree) => tree.find((pid) => /bin\/tsx/.test(commandOf(pid)))!],
		['the sandbox', (tree) => tree.find((pid) => /preflight/.test(commandOf(pid)))!],
		['the process group', (tree) => -tree[0]],
	];
	const cases = targets.flatMap(([label, target]) =>
		(['SIGTERM', 'SIGINT'] as const).map((signal) => [signal, label, target] as const),
	);

	it.each(cases)('on %s to %s, leaving no port open', async (signal, _label, target) => {
		const port = await freePort();
		const folder = mkdtempSync(join(tmpdir(), 'mm-dev-sandbox-'));
		const run = npmRun('sandbox', { SANDBOX_PORT: String(port), DEV_USER_FOLDER: folder });
		try {
			await run.printed('consoleUrl', 60_000);
			await expectStops(run.npm, signal, target, [port]);
		} finally {
			run.cleanUp(signalled.splice(0));
			rmSync(folder, { recursive: true, force: true });
		}
	});
});

describe('npm run dev', () => {
	let holder: Server;
	let taken: number;
	const folder = mkdtempSync(join(tmpdir(), 'mm-dev-'));

	beforeAll(async () => {
		taken = await freePort();
		holder = createServer();
		await new Promise<void>((resolve) => holder.listen(taken, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		await new Promise((resolve) => holder.close(resolve));
		rmSync(folder, { recursive: true, force: true });
	});

	it.each(['N8N_PORT', 'N8N_RUNNERS_BROKER_PORT', 'SANDBOX_PORT'])(
		'stops with a non-zero exit when %s names a taken port, and says which',
		async (variable) => {
			const { code, output } = await runDev({
				DEV_USER_FOLDER: folder,
				[variable]: String(taken),
			});
			expect(code).toBe(1);
			expect(output).toContain(`Port ${taken} (${variable}) is in use`);
			expect(output).not.toContain('[dev] ready');
		},
	);

	it('refuses a port that is not a number', async () => {
		const { code, output } = await runDev({ DEV_USER_FOLDER: folder, N8N_PORT: 'abc' });
		expect(code).toBe(1);
		expect(output).toContain('N8N_PORT=abc is not a port number');
	});

	it('exits non-zero with the reason when n8n fails, and never says ready', async () => {
		// A user folder whose n8n settings hold another encryption key: n8n refuses to use it.
		const broken = mkdtempSync(join(tmpdir(), 'mm-dev-broken-'));
		mkdirSync(join(broken, '.n8n'));
		writeFileSync(join(broken, '.n8n', 'config'), JSON.stringify({ encryptionKey: 'another-key' }));
		try {
			const { code, output } = await runDev({ DEV_USER_FOLDER: broken });
			expect(code).toBe(1);
			expect(output).toMatch(/encryption key/i);
			expect(output).toMatch(/n8n import:credentials failed \(exit code 1\)/);
			expect(output).not.toContain('[dev] ready');
		} finally {
			rmSync(broken, { recursive: true, force: true });
		}
	});

	it('starts quietly: the console first, no call to an unregistered webhook, no community node fetch; stops with everything on SIGTERM to npm', async () => {
		const quiet = mkdtempSync(join(tmpdir(), 'mm-dev-quiet-'));
		// As a user's shell has it: without jest's NODE_ENV=test, under which n8n does not start.
		const shell = { ...process.env };
		delete shell.NODE_ENV;
		const ports = [await freePort(), await freePort(), await freePort()];
		const run = npmRun('dev', {
			...shell,
			NODE_ENV: undefined,
			DEV_USER_FOLDER: quiet,
			N8N_PORT: String(ports[0]),
			N8N_RUNNERS_BROKER_PORT: String(ports[1]),
			SANDBOX_PORT: String(ports[2]),
		});
		try {
			await run.printed('[dev] ready', 240_000);
			const output = run.output();
			// The console is offered before n8n is started (and installed, on a first run).
			const consoleAt = output.indexOf('[dev] console:');
			expect(consoleAt).toBeGreaterThan(-1);
			expect(consoleAt).toBeLessThan(output.indexOf('[dev] starting n8n'));
			// The example trigger's Production URL is registered and answers a delivery.
			const controlUrl = /\[dev\] sandbox on (\S+)/.exec(output)![1] + '/__sandbox';
			const fired = await fetch(`${controlUrl}/events`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ event: 'FAILURE_CREATED' }),
			});
			const { deliveries } = (await fired.json()) as { deliveries: Array<{ status: number }> };
			expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
			expect(run.output()).not.toMatch(/unknown webhook|is not registered/i);
			expect(run.output()).not.toMatch(/community nodes/i);
			// As a process manager or a container stop does: one SIGTERM to the process it started.
			await expectStops(run.npm, 'SIGTERM', (tree) => tree[0], ports);
		} finally {
			run.cleanUp(signalled.splice(0));
			rmSync(quiet, { recursive: true, force: true });
		}
	}, 300_000);
});

/** The whole environment of a user's shell: without jest's NODE_ENV=test, under which n8n does not start. */
const shellEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ NODE_ENV: undefined, ...env });

/** A user's shell running dev in `folder` on `ports`: the editor's, n8n's task broker's, the sandbox's. */
const devEnv = (folder: string, ports: number[]) =>
	shellEnv({
		DEV_USER_FOLDER: folder,
		N8N_PORT: String(ports[0]),
		N8N_RUNNERS_BROKER_PORT: String(ports[1]),
		SANDBOX_PORT: String(ports[2]),
	});

/**
 * npm's exit code once it exits (`event` 'exit') or once its output is all read too ('close'; not where
 * a process it left holds that output open); fails after `ms`.
 */
const exitOf = (npm: ChildProcess, ms: number, event: 'exit' | 'close') =>
	new Promise<number | null>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`npm still runs after ${ms / 1000} s`)), ms);
		npm.once(event, (code: number | null) => {
			clearTimeout(timer);
			resolve(code);
		});
	});

/** The files under `dir` whose bytes hold `text`, as paths relative to it. */
function filesHolding(dir: string, text: string, under = ''): string[] {
	return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
		const path = join(under, entry.name);
		if (entry.isDirectory()) return filesHolding(dir, text, path);
		return entry.isFile() && readFileSync(join(dir, path)).includes(text) ? [path] : [];
	});
}

describe('npm run dev and its folder, while it runs and after a SIGKILL', () => {
	const folder = mkdtempSync(join(tmpdir(), 'mm-dev-kill-'));
	let ports: number[];
	let first: ReturnType<typeof npmRun>;
	const env = () => devEnv(folder, ports);

	beforeAll(async () => {
		// A folder as an earlier version left it: readable by all.
		chmodSync(folder, 0o755);
		ports = [await freePort(), await freePort(), await freePort()];
		first = npmRun('dev', env());
		await first.printed('[dev] ready', 480_000);
	}, 540_000);
	afterAll(() => {
		first.cleanUp(signalled.splice(0));
		rmSync(folder, { recursive: true, force: true });
	});

	it('keeps the webhook secret readable by its owner only, and no file of the import behind', () => {
		const { secret } = JSON.parse(readFileSync(join(folder, 'dev-webhook.json'), 'utf8')) as {
			secret: string;
		};
		expect(statSync(folder).mode & 0o777).toBe(0o700);
		expect(filesHolding(folder, secret)).toEqual(['dev-webhook.json']);
		expect(statSync(join(folder, 'dev-webhook.json')).mode & 0o077).toBe(0);
		expect(existsSync(join(folder, 'import'))).toBe(false);
	});

	it('refuses a second npm run dev on the folder, on other ports: one n8n per database', async () => {
		const dev = treeOf(first.npm.pid!).find((pid) => /scripts\/dev\.js/.test(commandOf(pid)));
		const other = [await freePort(), await freePort(), await freePort()];
		const second = npmRun('dev', devEnv(folder, other));
		try {
			expect(await exitOf(second.npm, 60_000, 'close')).toBe(1);
			expect(second.output()).toContain(
				`${folder} is in use by a running npm run dev, pid ${dev} (`,
			);
			expect(second.output()).not.toContain('[dev] sandbox on');
			expect(await portOpen(ports[0])).toBe(true);
		} finally {
			second.cleanUp();
		}
	});

	it('stops everything it started when scripts/dev.js is killed outright', async () => {
		await expectStops(
			first.npm,
			'SIGKILL',
			(tree) => tree.find((pid) => /scripts\/dev\.js/.test(commandOf(pid)))!,
			ports,
		);
		expect(existsSync(join(folder, 'dev-run.json'))).toBe(false);
	});

	it('stops, on its next start, what a run killed with its watchdog left, and takes the same port', async () => {
		const killed = npmRun('dev', env());
		let next: ReturnType<typeof npmRun> | undefined;
		try {
			await killed.printed('[dev] sandbox on', 60_000);
			const tree = treeOf(killed.npm.pid!);
			signalled.push(...named(tree));
			const pidOf = (pattern: RegExp) => tree.find((pid) => pattern.test(commandOf(pid)))!;
			const sandbox = pidOf(/tsx\/dist\/cli\.mjs sandbox\/cli\.ts/);
			// Nothing notices: the sandbox is stopped (SIGSTOP), dev and its watchdog are killed outright.
			process.kill(pidOf(/preflight/), 'SIGSTOP');
			process.kill(pidOf(/devRuns\.js watch/), 'SIGKILL');
			process.kill(pidOf(/scripts\/dev\.js/), 'SIGKILL');
			await exitOf(killed.npm, 10_000, 'exit');
			expect(processInfo(sandbox)).toBeDefined();

			next = npmRun('dev', env());
			await next.printed(`[dev] sandbox on http://127.0.0.1:${ports[2]} `, 60_000);
			expect(next.output()).toMatch(
				new RegExp(`\\[dev\\] stopped what an earlier run left running: .*pid ${sandbox} \\(`),
			);
			expect(processInfo(sandbox)).toBeUndefined();
			await expectStops(next.npm, 'SIGTERM', (running) => running[0], [ports[2]]);
		} finally {
			killed.cleanUp();
			next?.cleanUp(signalled.splice(0));
		}
	});
});

/** The pinned n8n (scripts/runtime.js), whose CLI the restart test imports a workflow with. */
const runtime = createRequire(__filename)('../../scripts/runtime.js') as {
	ensureRuntime: () => { node: string; n8n: string };
};

/** A workflow name that sets a terminal's title, erases a line and forges a line of dev's. */
const HOSTILE_NAME =
	'My work order alerts \u001b]0;owned\u0007\u001b[2K\r\n[dev] editor: http://evil.example:5678';
/** That name as dev prints it: plain text. */
const SHOWN_NAME =
	'My work order alerts \\u001b]0;owned\\u0007\\u001b[2K\\u000d\\u000a[dev] editor: http://evil.example:5678';

describe('npm run dev on ports of its own, and again after a restart', () => {
	const folder = mkdtempSync(join(tmpdir(), 'mm-dev-restart-'));
	const DEFAULT_PORTS = [5678, 5679, 4010];
	const TRIGGER = 'n8n-nodes-maintenance-management.maintenanceManagementTrigger';
	const runs: Array<ReturnType<typeof npmRun>> = [];
	afterAll(() => {
		for (const run of runs) run.cleanUp(signalled.splice(0));
		rmSync(folder, { recursive: true, force: true });
	});

	/** Starts dev in the folder on three free ports, none a default one, until it has said all. */
	async function startDev() {
		const ports = [await freePort(), await freePort(), await freePort()];
		expect(ports.filter((port) => DEFAULT_PORTS.includes(port))).toEqual([]);
		const run = npmRun('dev', devEnv(folder, ports));
		runs.push(run);
		await run.printed('[dev] Ctrl-C stops', 480_000);
		const editor = `http://127.0.0.1:${ports[0]}`;
		return { run, ports, editor, sandbox: `http://127.0.0.1:${ports[2]}` };
	}

	/** What dev's test reads of n8n's REST answers: a workflow or a credential with its data. */
	interface RestAnswer {
		data: {
			id: string;
			name: string;
			versionId: string;
			nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
			connections: object;
			data: Record<string, string>;
		};
	}

	/** A request to n8n's REST API with the login's cookie: its status and JSON body. */
	async function rest(
		editor: string,
		cookie: string,
		method: string,
		path: string,
		body?: unknown,
	) {
		const response = await fetch(`${editor}${path}`, {
			method,
			headers: { cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return {
			status: response.status,
			body: (await response.json().catch(() => null)) as RestAnswer,
		};
	}

	/**
	 * Everything dev printed and imported names the ports in use: every address in its output, the
	 * console's, the credential's base URLs, the console's example of a URL and every registration.
	 */
	async function expectTrueAddresses(
		started: Awaited<ReturnType<typeof startDev>>,
		cookie: string,
	) {
		const { run, ports, editor, sandbox } = started;
		const output = run.output();
		const addresses = [...output.matchAll(/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)/g)];
		expect(addresses.length).toBeGreaterThan(5);
		expect(
			addresses
				.map((found) => found[0])
				.filter((found) => !ports.includes(Number(found.split(':').pop()))),
		).toEqual([]);
		const consoleUrl = /\[dev\] console: +(\S+)/.exec(output)![1];
		expect(consoleUrl).toBe(`${sandbox}/__sandbox/console`);
		expect((await fetch(consoleUrl)).status).toBe(200);
		expect(output).toContain(`[dev] editor:   ${editor}\n`);
		const info = (await (await fetch(`${sandbox}/__sandbox/info`)).json()) as { n8nUrl: string };
		expect(info.n8nUrl).toBe(editor);
		const credential = await rest(
			editor,
			cookie,
			'GET',
			'/rest/credentials/devApiCredential1?includeData=true',
		);
		expect(credential.status).toBe(200);
		expect(credential.body.data.data).toMatchObject({
			sandboxBaseUrl: `${sandbox}/sandbox/v3`,
			productionBaseUrl: `${sandbox}/production/v3`,
		});
		const { webhooks } = (await (await fetch(`${sandbox}/__sandbox/webhooks`)).json()) as {
			webhooks: Array<{ url: string }>;
		};
		expect(webhooks.length).toBeGreaterThan(0);
		for (const { url } of webhooks) expect(url.startsWith(`${editor}/webhook/`)).toBe(true);
		for (const port of DEFAULT_PORTS)
			expect(JSON.stringify(credential.body)).not.toContain(`:${port}`);
	}

	/** A trigger node with the dev webhook secret in the query, for every event. */
	const trigger = (name: string, webhookId: string | undefined) => ({
		id: randomUUID(),
		name,
		type: TRIGGER,
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { events: ['*'], authentication: 'query', parameterName: 'token' },
		credentials: {
			maintenanceManagementWebhookApi: {
				id: 'devHookCredential',
				name: 'Webhook secret (local sandbox)',
			},
		},
	});

	/** Creates and publishes a workflow of one trigger through n8n's REST API. */
	async function publish(editor: string, cookie: string, name: string, webhookId: string) {
		const created = await rest(editor, cookie, 'POST', '/rest/workflows', {
			name,
			active: false,
			settings: { executionOrder: 'v1' },
			connections: {},
			nodes: [trigger('Work Order Events', webhookId)],
		});
		expect(created.status).toBe(200);
		const { id, versionId } = created.body.data;
		const activated = await rest(editor, cookie, 'POST', `/rest/workflows/${id}/activate`, {
			versionId,
		});
		expect(activated.status).toBe(200);
	}

	/** Saves a workflow with `parameters` added to those of its node `node`, as the editor does. */
	async function edit(
		editor: string,
		cookie: string,
		id: string,
		node: string,
		parameters: Record<string, unknown>,
	) {
		const workflow = (await rest(editor, cookie, 'GET', `/rest/workflows/${id}`)).body.data;
		const saved = await rest(editor, cookie, 'PATCH', `/rest/workflows/${id}`, {
			versionId: workflow.versionId,
			name: workflow.name,
			nodes: workflow.nodes.map((each) =>
				each.name === node ? { ...each, parameters: { ...each.parameters, ...parameters } } : each,
			),
			connections: workflow.connections,
		});
		expect(saved.status).toBe(200);
	}

	/** The sandbox's registrations as method and events, sorted. */
	async function registrationsIn(sandbox: string) {
		const { webhooks } = (await (await fetch(`${sandbox}/__sandbox/webhooks`)).json()) as {
			webhooks: Array<{ method: string; events: string[] }>;
		};
		return webhooks.map(({ method, events }) => [method, events.join(',')]).sort();
	}

	/**
	 * Imports `workflows` into dev's n8n in `dir` with n8n's CLI and publishes each, as a user may: the
	 * exit code of each command.
	 */
	async function importPublished(dir: string, workflows: Array<{ id: string }>) {
		const file = join(dir, 'test-workflows.json');
		writeFileSync(file, JSON.stringify(workflows));
		const { node, n8n } = runtime.ensureRuntime();
		const cli = async (args: string[]) =>
			(await runToEnd(node, [n8n, ...args], shellEnv({ N8N_USER_FOLDER: dir }), EXIT_MS)).code;
		const codes = [await cli(['import:workflow', `--input=${file}`])];
		rmSync(file);
		for (const { id } of workflows) codes.push(await cli(['publish:workflow', `--id=${id}`]));
		return codes;
	}

	it('prints and imports only the addresses of the ports in use; after a restart on other ports too, every published trigger gets its own events once, at the path n8n serves (one leading elsewhere named and left out), names are printed as plain text, an edited example is kept beside its original, which can be published too, and the login stays', async () => {
		const first = await startDev();
		expect(first.run.output()).not.toContain('[dev] Restart:');
		const login = await fetch(`${first.editor}/rest/login`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: 'dev@example.com', password: 'Dev-password-1' }),
		});
		expect(login.status).toBe(200);
		const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
		await expectTrueAddresses(first, cookie);

		// The examples' triggers are registered for their own events, by POST, once each.
		expect(await registrationsIn(first.sandbox)).toEqual([
			['POST', 'FAILURE_CREATED,FAILURE_APPROVED,FAILURE_STATE_CHANGED'],
		]);

		// The user's own workflow, published, with the trigger and the dev webhook secret, under a name
		// that sets the terminal's title, erases a line and forges a line of dev's.
		const webhookId = randomUUID();
		await publish(first.editor, cookie, HOSTILE_NAME, webhookId);
		// A workflow whose trigger's webhook ID leads out of its webhook, to the one of the user's workflow.
		await publish(first.editor, cookie, 'Webhook elsewhere', `x/../../webhook/${webhookId}`);
		// Examples the user edits in the editor: at most 7 open work orders, 9 of a location.
		await edit(first.editor, cookie, 'devOpenWorkOrders', 'Open Work Orders', {
			returnAll: false,
			limit: 7,
		});
		await edit(first.editor, cookie, 'devWebhookEvents', 'Open Work Orders Of Location', {
			limit: 9,
		});
		await expectStops(first.run.npm, 'SIGTERM', (tree) => tree[0], first.ports);
		// A published workflow whose trigger has no webhook ID, as n8n import:workflow leaves it, and a
		// name that n8n puts in its path URL-encoded; and one whose trigger takes an event the sandbox
		// does not know.
		const imported = (id: string, name: string, node: object) => ({
			id,
			name,
			nodes: [node],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		expect(
			await importPublished(folder, [
				imported('devTestNoWebhookId', 'Alerts without a webhook ID', {
					...trigger('No ID Events', undefined),
					parameters: { events: ['FAILURE_CREATED'] },
				}),
				imported('devTestUnknownEvent', 'Alerts of an unknown event', {
					...trigger('Unknown Events', randomUUID()),
					parameters: { events: ['NO_SUCH_EVENT'] },
				}),
			]),
		).toEqual([0, 0, 0]);

		const second = await startDev();
		const output = second.run.output();
		expect(output).toContain(
			'[dev] kept your changes to "Example: list the open work orders"; its original is beside it as "Example: list the open work orders (original)"',
		);
		expect(output).toContain(
			'[dev] kept your changes to "Example: react to work order events"; its original is beside it as "Example: react to work order events (original)"',
		);
		// Every name from n8n's database is printed as plain text, in dev's lines and in n8n's log.
		expect(output).toContain(
			`[dev] Restart: sandbox records and rate limit reset; webhook registrations restored for 3 published workflows ("Alerts without a webhook ID", "Example: react to work order events", "${SHOWN_NAME}"); login kept\n`,
		);
		expect(output).toContain(
			`[dev] not registered: "Webhook elsewhere", as the webhook path of its trigger "Work Order Events", "x/../../webhook/${webhookId}/webhook", leads out of its own webhook (to /webhook/${webhookId}/webhook): replace the trigger with a new one in the editor\n`,
		);
		expect(output).toContain(
			'[dev] not registered: "Alerts of an unknown event", as the sandbox refused its registration: An http(s) url and known events are required; unknown: NO_SUCH_EVENT\n',
		);
		expect(output.replaceAll('\n', '')).not.toMatch(/\p{Cc}/u);
		expect(
			output
				.split('\n')
				.filter((line) => line.includes('evil.example') && line.startsWith('[dev] editor')),
		).toEqual([]);
		expect(await registrationsIn(second.sandbox)).toEqual([
			['POST', '*'],
			['POST', 'FAILURE_CREATED'],
			['POST', 'FAILURE_CREATED,FAILURE_APPROVED,FAILURE_STATE_CHANGED'],
		]);
		// The login of before the restart still holds; without it, n8n refuses.
		const read = (withLogin: string) =>
			rest(second.editor, withLogin, 'GET', '/rest/workflows/devOpenWorkOrders');
		expect((await read('')).status).toBe(401);
		expect((await read(cookie)).status).toBe(200);
		await expectTrueAddresses(second, cookie);

		// The user's workflow gets the console's event, untouched since the restart, at the new port.
		const fired = await fetch(`${second.sandbox}/__sandbox/events`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ event: 'FAILURE_CREATED' }),
		});
		const { deliveries } = (await fired.json()) as {
			deliveries: Array<{ url: string; status: number }>;
		};
		expect(deliveries.map(({ status }) => status)).toEqual([200, 200, 200]);
		expect(deliveries.map(({ url }) => url.split('?')[0]).sort()).toEqual(
			[
				`${second.editor}/webhook/${webhookId}/webhook`,
				`${second.editor}/webhook/devTestNoWebhookId/no%2520id%2520events/webhook`,
				`${second.editor}/webhook/${(JSON.parse(readFileSync(join(folder, 'dev-webhook.json'), 'utf8')) as { id: string }).id}/webhook`,
			].sort(),
		);

		// The edited example is kept; its original is one click away, under a name that says so.
		const kept = (await rest(second.editor, cookie, 'GET', '/rest/workflows/devOpenWorkOrders'))
			.body.data;
		expect(kept.nodes.find((node) => node.name === 'Open Work Orders')?.parameters).toMatchObject({
			limit: 7,
		});
		const original = (
			await rest(second.editor, cookie, 'GET', '/rest/workflows/devOpenWorkOrdersOriginal')
		).body.data;
		expect(original.name).toBe('Example: list the open work orders (original)');
		expect(original.nodes.find((node) => node.name === 'Open Work Orders')?.parameters).toEqual({
			resource: 'failure',
			operation: 'getAllOpen',
			returnAll: true,
		});
		// The original of an edited trigger example has a webhook of its own: it can be published beside it.
		const eventsOriginal = (
			await rest(second.editor, cookie, 'GET', '/rest/workflows/devWebhookEventsOriginal')
		).body.data;
		const publishedOriginal = await rest(
			second.editor,
			cookie,
			'POST',
			'/rest/workflows/devWebhookEventsOriginal/activate',
			{ versionId: eventsOriginal.versionId },
		);
		expect(publishedOriginal).toMatchObject({ status: 200 });
		await expectStops(second.run.npm, 'SIGTERM', (tree) => tree[0], second.ports);
	}, 1_200_000);
});
