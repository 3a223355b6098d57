/**
 * `npm run dev`: a real n8n (pinned) with this package, the local API sandbox with demo data, a
 * credential pointing at it and example workflows. Rebuilds the package on change. Ctrl-C stops it all.
 *
 * n8n's user folder is .dev/ (git-ignored) and is kept between runs, so workflows you create stay. The
 * example credential and the example workflows are imported again on every run, but an example the
 * user changed is kept, its original imported beside it as "<name> (original)" (scripts/devWorkflows.js).
 * The sandbox forgets its registrations on a restart: every published workflow's trigger is registered
 * again, and one line says what the restart reset. Delete .dev/ to start from scratch. Login:
 * dev@example.com / Dev-password-1, kept across restarts.
 * The editor, n8n's task broker and the sandbox take 5678, 5679 and 4010 when those are free, else any
 * free port; N8N_PORT, N8N_RUNNERS_BROKER_PORT and SANDBOX_PORT ask for a port (dev stops when it is
 * taken). DEV_USER_FOLDER is another folder for n8n's data (`npm run screenshots` uses a temporary one).
 * The sandbox and its console start first, so they serve while n8n installs and starts. "Ready" is
 * printed once n8n answers its health check and serves every published trigger's webhook; if n8n
 * stops or does not answer in 3 minutes, dev stops with its last output and a non-zero exit code. n8n's
 * fetch of its verified community node list is turned off (N8N_VERIFIED_PACKAGES_ENABLED=false).
 *
 * The folder is its owner's only (0700). One dev runs per folder, so two n8n never share its database:
 * a run record there (scripts/devRuns.js) names what this run started, a watchdog stops it all should
 * this script be killed outright, and the next start stops what is still left.
 */
const { spawn } = require('node:child_process');
const { chmodSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const readline = require('node:readline');

const { claim, describe, stop } = require('./devRuns');
const { devWebhook } = require('./devWebhook');
const {
	changedExamples,
	importedVersions,
	originalOf,
	PUBLISHED_BY_DEV,
	readWorkflows,
	registrationsFor,
} = require('./devWorkflows');
const { DEV_CREDENTIALS, exampleWorkflows } = require('./examples');
const { plainLogLine, plainText } = require('./plainText');
const { showProgress } = require('./progress');
const { freePort, tryPort } = require('./ports');
const { ensureRuntime, ROOT, N8N_DIR } = require('./runtime');

const USER_FOLDER = process.env.DEV_USER_FOLDER ?? join(ROOT, '.dev');
const LOGIN = { email: 'dev@example.com', password: 'Dev-password-1' };
/**
 * The login's password hash, the same on every start: n8n signs a session with a hash of it, so a new
 * hash would sign the user out on each restart. A fixed salt hides nothing here: the password is printed.
 */
const LOGIN_SALT = '$2a$10$keptSaltForDevSessions';
// The folder holds the webhook secret, and n8n's database with the credentials (under a published key):
// only its owner reads it, as it is made or from an earlier version.
mkdirSync(USER_FOLDER, { recursive: true, mode: 0o700 });
chmodSync(USER_FOLDER, 0o700);
// Random for each dev folder (scripts/devWebhook.js): no web page can start the example workflow.
const { id: WEBHOOK_ID, secret: WEBHOOK_SECRET } = devWebhook(USER_FOLDER);
/** This run's record in the user folder (scripts/devRuns.js), once claimed. */
let run;

/**
 * Prints one line of dev's: as plain text (scripts/plainText.js), since it may quote what dev read from
 * n8n's database, the sandbox or a file (a workflow's name, a URL, a command line).
 */
const log = (message) => process.stdout.write(`[dev] ${plainText(message)}\n`);
/** Prints an error of dev's, each of its lines as plain text. */
const logError = (message) =>
	process.stderr.write(`[dev] ${String(message).split('\n').map(plainText).join('\n')}\n`);
/** How long n8n may take to answer its health check. */
const READY_TIMEOUT_MS = 180_000;

/**
 * The port a listener gets: the one asked for in the environment variable, which must be free, or the
 * usual one when it is free, else any free port.
 */
async function portFor(variable, usual) {
	const asked = process.env[variable];
	if (asked === undefined || asked === '') return (await tryPort(usual)) ?? (await freePort());
	const port = Number(asked);
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		throw new Error(`${variable}=${asked} is not a port number`);
	if ((await tryPort(port)) !== port)
		throw new Error(`Port ${port} (${variable}) is in use: free it or choose another`);
	return port;
}

/**
 * Starts a child in a process group of its own, so that stopping it reaches what it starts in turn
 * (n8n's task runner, the esbuild services of tsx and gulp). A Node script is started by Node itself,
 * not through its `#!/usr/bin/env node` line, and none renames itself, so that its command line is the
 * one the run record holds from the start (scripts/devRuns.js stops a process from a record only while
 * the two match); npm, which renames itself, runs only the build, which ends by itself.
 */
function start(command, args, options = {}) {
	const child = spawn(command, args, {
		cwd: ROOT,
		stdio: ['ignore', 'inherit', 'inherit'],
		detached: true,
		...options,
	});
	run.add(child.pid, true);
	return child;
}

/** Runs a command to its end, as `start` does (recorded, in a group of its own); fails on an exit code. */
async function runToEnd(what, command, args, options = {}) {
	const child = start(command, args, options);
	const [code, signal] = await new Promise((resolve) =>
		child.once('exit', (...ended) => resolve(ended)),
	);
	if (code !== 0) throw new Error(`${what} failed (exit code ${code ?? signal})`);
}

/**
 * Runs a step of the start (`action`, which may block this process a while) after a line saying what it
 * does (`what`, then `detail`), with a line naming it at least every 10 seconds until it ends
 * (scripts/progress.js): no gap of a start is silent for longer, however long the step takes.
 */
async function step(what, action, detail = '') {
	log(`${what}${detail}…`);
	const progress = showProgress({ label: 'dev', step: what });
	run.add(progress.pid, false);
	try {
		return await action();
	} finally {
		progress.kill();
	}
}

let stopping;

/**
 * Stops everything this script started, each child with its process group: politely first, then for
 * good after 10 seconds (scripts/devRuns.js). Once.
 */
function stopAll(exitCode = 0) {
	stopping ??= stopChildren(exitCode);
	return stopping;
}

async function stopChildren(exitCode) {
	if (run) {
		await stop(run.processes).catch((error) => {
			logError(error.message);
			exitCode = 1;
		});
		run.release();
	}
	process.exit(exitCode);
}
process.on('SIGINT', () => void stopAll());
process.on('SIGTERM', () => void stopAll());
// `npm run dev` execs this script, so npm passes a SIGTERM or SIGINT on to it. Should npm go without
// passing it on (killed outright), this script is left to init: it stops everything then too.
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent) void stopAll();
}, 1000).unref();

async function startSandbox(port, n8nUrl) {
	const child = start(process.execPath, [require.resolve('tsx/cli'), 'sandbox/cli.ts'], {
		stdio: ['ignore', 'pipe', 'inherit'],
		env: {
			...process.env,
			SANDBOX_PORT: String(port),
			SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
			SANDBOX_N8N_URL: n8nUrl,
			// The live API ignores a query parameter it does not know: so does dev's sandbox, which still
			// reports it as a contract violation.
			SANDBOX_LENIENT_QUERY: '1',
		},
	});
	const firstLine = await new Promise((resolve, reject) => {
		readline.createInterface({ input: child.stdout }).once('line', resolve);
		child.once('exit', (code) => reject(new Error(`The sandbox stopped (exit code ${code})`)));
	});
	return JSON.parse(firstLine);
}

/**
 * Claims the user folder for this run: stops what an earlier run that is gone (killed outright) left
 * running there, and refuses a folder a running dev uses, so two n8n never share its database. Then
 * starts the watchdog, which stops what this run starts should this process be killed outright.
 */
async function claimFolder() {
	const claimed = await claim(join(USER_FOLDER, 'dev-run.json'), process.pid);
	if (claimed.holder)
		throw new Error(
			`${USER_FOLDER} is in use by a running npm run dev, ${describe(claimed.holder)}: stop it (Ctrl-C in its terminal), or set DEV_USER_FOLDER to another folder. Two n8n never share one database.`,
		);
	run = claimed;
	if (run.stopped.length > 0)
		log(`stopped what an earlier run left running: ${run.stopped.map(describe).join(', ')}`);
	const watchdog = spawn(
		process.execPath,
		[
			join(__dirname, 'devRuns.js'),
			'watch',
			join(USER_FOLDER, 'dev-run.json'),
			String(process.pid),
		],
		{ detached: true, stdio: ['pipe', 'ignore', 'inherit'] },
	);
	run.add(watchdog.pid, true);
}

async function main() {
	await claimFolder();
	// The ports first: a taken one stops dev before anything is built or started.
	const PORT = await portFor('N8N_PORT', 5678);
	const BROKER_PORT = await portFor('N8N_RUNNERS_BROKER_PORT', 5679);
	const SANDBOX_PORT = await portFor('SANDBOX_PORT', 4010);
	// The sandbox and its console first: they serve while n8n installs (on the first run) and starts.
	const EDITOR = `http://127.0.0.1:${PORT}`;
	const sandbox = await step('starting the sandbox', () => startSandbox(SANDBOX_PORT, EDITOR));
	log(
		`sandbox on ${sandbox.url} (production ${sandbox.environments.production.baseUrl}, sandbox ${sandbox.environments.sandbox.baseUrl})`,
	);
	log(`console:  ${sandbox.consoleUrl} works now, while n8n installs and starts`);
	const runtime = ensureRuntime();
	await step('building the package', () =>
		runToEnd('the build', 'npm', ['run', 'build'], { stdio: ['ignore', 'inherit', 'inherit'] }),
	);

	// The package as a community package: its package.json and built files in n8n's nodes folder. The
	// rebuild on change writes its bundles there, and n8n reloads the nodes when they change. (n8n
	// watches the whole package folder, so that folder must not hold n8n's own files, as this repository
	// does under .dev/.)
	const packageDir = join(
		USER_FOLDER,
		'.n8n',
		'nodes',
		'node_modules',
		'n8n-nodes-maintenance-management',
	);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	cpSync(join(ROOT, 'package.json'), join(packageDir, 'package.json'));
	cpSync(join(ROOT, 'dist'), join(packageDir, 'dist'), { recursive: true });
	// The gulpfile's watch task, run without gulp's command line tool, which renames its process
	// (process.title), so that the command line stays the one the run record holds.
	start(process.execPath, ['-e', "require('./gulpfile.js'); require('gulp').task('watch')()"], {
		stdio: 'ignore',
		env: { ...process.env, BUNDLE_OUTDIR: join(packageDir, 'dist') },
	});

	const bcrypt = createRequire(join(N8N_DIR, 'package.json'))('bcryptjs');
	const env = {
		...process.env,
		N8N_USER_FOLDER: USER_FOLDER,
		N8N_ENCRYPTION_KEY: 'local-development-key',
		DB_TYPE: 'sqlite',
		N8N_PORT: String(PORT),
		N8N_RUNNERS_BROKER_PORT: String(BROKER_PORT),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		// n8n fetches its list of verified community nodes from the internet: not in local development.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_DISABLED_MODULES: 'promotions,mcp-registry,instance-reporting,workflow-builder,instance-ai',
		N8N_DEV_RELOAD: 'true',
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: LOGIN.email,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(LOGIN.password, LOGIN_SALT),
	};
	const n8n = (args) =>
		runToEnd(`n8n ${args[0]}`, runtime.node, [runtime.n8n, ...args], {
			env,
			stdio: ['ignore', 'ignore', 'inherit'],
		});

	// What n8n imports holds the webhook secret: in a folder only its owner reads, removed once imported
	// (as one an earlier run left, killed during its import, is on this start).
	const importDir = join(USER_FOLDER, 'import');
	rmSync(importDir, { recursive: true, force: true });
	mkdirSync(join(importDir, 'workflows'), { recursive: true, mode: 0o700 });
	const writePrivate = (file, value) => writeFileSync(file, JSON.stringify(value), { mode: 0o600 });
	writePrivate(join(importDir, 'credentials.json'), [
		{
			...DEV_CREDENTIALS.maintenanceManagementApi,
			type: 'maintenanceManagementApi',
			data: {
				accessToken: sandbox.environments.sandbox.token,
				environment: 'sandbox',
				sandboxBaseUrl: sandbox.environments.sandbox.baseUrl,
				productionBaseUrl: sandbox.environments.production.baseUrl,
			},
		},
		{
			...DEV_CREDENTIALS.maintenanceManagementWebhookApi,
			type: 'maintenanceManagementWebhookApi',
			data: { secret: WEBHOOK_SECRET, username: '' },
		},
	]);
	// An example the user changed since its last import is kept, and its original imported beside it.
	const database = join(USER_FOLDER, '.n8n', 'database.sqlite');
	const restart = existsSync(database);
	const workflows = await step('importing the credential and the example workflows', async () => {
		const versionsFile = join(USER_FOLDER, 'dev-examples.json');
		const imported = importedVersions.read(versionsFile);
		const examples = exampleWorkflows(WEBHOOK_ID);
		const changed = changedExamples(readWorkflows(runtime.node, database), examples, imported);
		for (const example of examples)
			writePrivate(
				join(importDir, 'workflows', `${example.id}.json`),
				changed.includes(example) ? originalOf(example) : example,
			);
		for (const example of changed)
			log(
				`kept your changes to "${example.name}"; its original is beside it as "${originalOf(example).name}" (delete yours to get the example back on the next start)`,
			);
		try {
			await n8n(['import:credentials', `--input=${join(importDir, 'credentials.json')}`]);
			await n8n(['import:workflow', '--separate', `--input=${join(importDir, 'workflows')}`]);
		} finally {
			rmSync(importDir, { recursive: true, force: true });
		}
		if (!changed.some(({ id }) => id === PUBLISHED_BY_DEV))
			await n8n(['publish:workflow', `--id=${PUBLISHED_BY_DEV}`]);
		const all = readWorkflows(runtime.node, database);
		for (const { id, versionId } of all)
			if (examples.some((example) => example.id === id && !changed.includes(example)))
				imported[id] = versionId;
		importedVersions.write(versionsFile, imported);
		return all;
	});

	// The new sandbox knows no registration: every published workflow's trigger is registered again.
	const { registrations, skipped } = registrationsFor(workflows, EDITOR, WEBHOOK_SECRET);
	const webhooks = [...new Set(registrations.map(({ url }) => url.split('?')[0]))];
	/** The workflows whose triggers the sandbox registered, quoted. */
	const registered = new Set();
	await step(
		'starting n8n',
		async () => {
			const server = start(runtime.node, [runtime.n8n, 'start'], {
				env: { ...env, N8N_LOG_FORMAT: 'json' },
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			// n8n's output goes on to the terminal, its log as JSON so that dev prints each message as plain
			// text (scripts/plainText.js); its last lines are kept to show why it did not start.
			const lastLines = [];
			for (const stream of [server.stdout, server.stderr])
				readline.createInterface({ input: stream }).on('line', (output) => {
					const line = plainLogLine(output);
					process.stdout.write(`${line}\n`);
					lastLines.push(line);
					if (lastLines.length > 30) lastLines.shift();
				});
			await untilReady(server, EDITOR, webhooks).catch((error) => {
				throw new Error(`${error.message}\nn8n's last output:\n${lastLines.join('\n')}`);
			});
			for (const { workflow, url, method, events, headers } of registrations) {
				const response = await fetch(`${sandbox.controlUrl}/webhooks`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify({ url, method, events, headers }),
				});
				if (response.ok) registered.add(`"${workflow}"`);
				else {
					const { error } = await response.json().catch(() => ({}));
					skipped.push({
						workflow,
						why: `the sandbox refused its registration: ${error ?? `status ${response.status}`}`,
					});
				}
			}
		},
		` on ${EDITOR} (task broker on ${BROKER_PORT})`,
	);
	for (const { workflow, why } of skipped) log(`not registered: "${workflow}", as ${why}`);
	log('');
	if (restart)
		log(
			`Restart: sandbox records and rate limit reset; webhook registrations restored for ${registered.size} published workflow${registered.size === 1 ? '' : 's'} (${[...registered].join(', ')}); login kept`,
		);
	log('ready');
	log(`editor:   ${EDITOR}`);
	log(`login:    ${LOGIN.email} / ${LOGIN.password}`);
	log(
		`console:  ${sandbox.consoleUrl} (register a trigger's URL, report and approve work orders, fire events)`,
	);
	log(
		`sandbox:  ${sandbox.environments.sandbox.baseUrl} (token ${sandbox.environments.sandbox.token})`,
	);
	log(
		`webhooks: the "Webhook secret (local sandbox)" credential holds ${WEBHOOK_SECRET}; the console adds it to a pasted URL`,
	);
	log('Ctrl-C stops n8n, the sandbox and the rebuild.');
}

/**
 * Waits until n8n answers its health check, then until each published trigger's webhook (`webhooks`,
 * the URLs to register) is registered, which n8n does a moment later. A webhook is asked with a CORS
 * preflight (OPTIONS), which n8n answers with the webhook's methods without running anything or
 * logging an unknown webhook. Fails when n8n exits first or the time runs out.
 */
async function untilReady(server, origin, webhooks) {
	const deadline = Date.now() + READY_TIMEOUT_MS;
	const exited = new Promise((_resolve, reject) =>
		server.once('exit', (code, signal) =>
			reject(new Error(`n8n stopped before it was ready (exit code ${code ?? signal})`)),
		),
	);
	exited.catch(() => undefined);
	const checks = [
		['its health check', () => fetch(`${origin}/healthz`).then((response) => response.ok)],
		...webhooks.map((url) => [
			`the published trigger's webhook ${url}`,
			() =>
				fetch(url, { method: 'OPTIONS', headers: { Origin: origin } }).then((response) =>
					/\bPOST\b/.test(response.headers.get('access-control-allow-methods') ?? ''),
				),
		]),
	];
	for (const [what, check] of checks) {
		while (!(await Promise.race([check().catch(() => false), exited]))) {
			if (Date.now() > deadline)
				throw new Error(`n8n did not answer ${what} within ${READY_TIMEOUT_MS / 1000} s`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}

main().catch((error) => {
	logError(error.message ?? error);
	void stopAll(1);
});
