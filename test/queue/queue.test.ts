/**
 * The package in n8n's queue mode (run by `npm run test:queue`, which starts Redis and PostgreSQL): one
 * main process, one webhook process and two workers, each in a user folder of its own, sharing only the
 * database, Redis and the encryption key. The package is installed as a user installs it: once, through
 * the Community Nodes call on the main process, from a registry; n8n tells the other processes over
 * Redis, and each fetches it from the registry itself.
 *
 * The registry is verdaccio on loopback, reached under n8n's default address, https://registry.npmjs.org,
 * through a stand-in proxy (./npmjs.ts): n8n refuses any other registry without a licence, on every
 * process (its getNpmRegistry), and its end-to-end hook that lifts that exists on the main process only.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expectCaseRan } from '../e2e/assertions';
import { N8nInstance, outputOf, PACKAGE_NAME, waitUntil } from '../e2e/n8n';
import { SandboxClient } from '../e2e/sandboxClient';
import { CURRENT, LocalRegistry, OLDER, pack, repackAs } from '../e2e/registry';
import {
	ACTION_NODE,
	BULK_NODE,
	credentials,
	marksIn,
	TRIGGER_NODE,
	WEBHOOK_ID,
	WEBHOOK_SECRET,
} from '../e2e/workflows';
import { listeningAddresses } from './listeners';
import { NPMJS, NpmjsStandIn } from './npmjs';
import { ExecutionStore, type StoredExecution } from './postgres';
import {
	ACTIONS_PATH,
	actionsOnWebhook,
	BULK_PATH,
	bulkManual,
	bulkOnWebhook,
	triggerOnWorkers,
} from './workflows';

jest.setTimeout(600_000);

const redisPort = process.env.QUEUE_REDIS_PORT;
const postgresPort = process.env.QUEUE_POSTGRES_PORT;
if (!redisPort || !postgresPort)
	throw new Error('Run this suite with `npm run test:queue`: it starts Redis and PostgreSQL first');

const ACTIONS = 'mmQueueActions01';
const TRIGGER = 'mmQueueTrigger01';
const BULK = 'mmQueueBulk01';
const MANUAL = 'mmQueueManual01';
const BULK_COUNT = 45;
const MANUAL_COUNT = 20;
const WORKERS = ['worker-a', 'worker-b'];

const store = new ExecutionStore(Number(postgresPort));
const registry = new LocalRegistry('queue-registry', {
	uplink: false,
	publicUrl: `https://${NPMJS}/`,
});
const npmjs = new NpmjsStandIn();
const main = new N8nInstance('queue-main');
const webhook = new N8nInstance('queue-webhook');
const workers = WORKERS.map((name) => new N8nInstance(`queue-${name}`));
/** A worker started after the install, with N8N_REINSTALL_MISSING_PACKAGES=true, and one without. */
const late = new N8nInstance('queue-worker-late');
const unflagged = new N8nInstance('queue-worker-unflagged');
const all = [main, webhook, ...workers];
let packDir = '';
let tarballs: { current: string; older: string };
/** Each process's package folder before the install, and the main process's answer to it. */
let foldersBefore: boolean[];
let installed: { status: number; body: unknown };
/** The environment of every process; that of the webhook process and the workers. */
let shared: NodeJS.ProcessEnv;
let others: NodeJS.ProcessEnv;

const INSTALLED = `Community package installed: ${PACKAGE_NAME}`;
const UNINSTALLED = `Community package uninstalled: ${PACKAGE_NAME}`;
const times = (instance: N8nInstance, line: string) => instance.log().split(line).length - 1;
/** The version in a process's installed package.json, or null when it has none. */
const versionOn = (instance: N8nInstance): string | null => {
	const file = join(instance.packageDir, 'package.json');
	return existsSync(file)
		? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
		: null;
};
/** Waits until every process has logged the line `count` times: n8n logs it once the change is loaded. */
const logged = (instances: N8nInstance[], line: string, count: number) =>
	Promise.all(
		instances.map((instance) =>
			instance.waitFor(
				async () => times(instance, line) >= count,
				`${instance.name} to log "${line}" ${count} time(s) (see ${instance.logFile})`,
				300_000,
			),
		),
	);

const api = new SandboxClient();
const { control, requests, cases } = api;
/** The markers the trigger workflow's runs sent: event:method:work order:process. */
const markers = async () => marksIn(await requests());

/** Every file under a folder with its size and modification time. */
const filesOf = (dir: string): string[] =>
	readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => {
			const path = join(entry.parentPath, entry.name);
			const { size, mtimeMs } = statSync(path);
			return `${path} ${size} ${mtimeMs}`;
		})
		.sort();
let packageFiles: string[][];

const finished = (execution: StoredExecution) =>
	!['new', 'running', 'waiting'].includes(execution.status);

/** Waits until the workflow has at least `count` executions and all of them have finished. */
async function finishedExecutions(workflowId: string, count: number): Promise<StoredExecution[]> {
	let executions: StoredExecution[] = [];
	await main.waitFor(
		async () => {
			executions = await store.executions(workflowId);
			return executions.length >= count && executions.every(finished);
		},
		`${count} finished executions of ${workflowId}`,
		180_000,
	);
	return executions;
}

const ranOn = (execution: StoredExecution) => outputOf(execution, 'Ran On')[0] ?? {};
const hookUrl = (query = `?token=${WEBHOOK_SECRET}`) =>
	webhook.url(`/webhook/${WEBHOOK_ID}/webhook${query}`);
/** Leaves the sandbox one subscription, FAILURE_CREATED POSTed to the trigger, and an empty request log. */
async function subscribeFailures() {
	await control('DELETE', '/webhooks');
	await control('DELETE', '/requests');
	await control('POST', '/webhooks', {
		url: hookUrl(),
		method: 'POST',
		events: ['FAILURE_CREATED'],
	});
}
const startedBy = (instance: N8nInstance, id: number) =>
	instance.log().includes(`Worker started execution ${id} `);

beforeAll(async () => {
	packDir = mkdtempSync(join(tmpdir(), 'mm-pack-'));
	const current = await pack(packDir);
	tarballs = { current, older: await repackAs(current, OLDER, packDir) };
	await registry.start();
	await registry.publish(tarballs.older, 'latest');
	await npmjs.start(registry.url);
	await api.start();
	await store.connect();
	shared = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: redisPort,
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: postgresPort,
		DB_POSTGRESDB_DATABASE: store.database,
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		N8N_ENCRYPTION_KEY: 'queue-encryption-key-not-secret',
		// Only for the Ran On node, which reads the process name from MM_PROCESS.
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		N8N_LOG_LEVEL: 'info',
		// As n8n 3.0 always does: a run started in the editor goes to a worker too.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		...npmjs.env,
	};
	// What the docs ask of the webhook processes and workers: a process that starts with a package
	// missing installs it.
	others = { ...shared, N8N_REINSTALL_MISSING_PACKAGES: 'true' };
	// Nothing is put into any process's folder: n8n's installer does it.
	await main.setup({ ...shared, MM_PROCESS: 'main' }, { copyPackage: false });
	await webhook.setup({ ...others, MM_PROCESS: 'webhook' }, { copyPackage: false });
	for (const [index, worker] of workers.entries())
		await worker.setup({ ...others, MM_PROCESS: WORKERS[index] }, { copyPackage: false });

	const { baseUrl, token } = api.sandbox.environments.sandbox;
	await main.importFiles(credentials(baseUrl, token), [
		actionsOnWebhook(cases),
		triggerOnWorkers(),
		bulkOnWebhook(BULK_COUNT),
		bulkManual(MANUAL_COUNT),
	]);
	await main.start('start');
	// At most five runs at a time each, so fifty events have to be shared.
	await Promise.all([
		webhook.start('webhook'),
		...workers.map((worker) => worker.start('worker', ['--concurrency=5'])),
	]);

	// The install, once, on the main process, as Settings → Community Nodes makes it.
	foldersBefore = all.map((instance) => existsSync(instance.packageDir));
	installed = await main.requestAsOwner('POST', '/rest/community-packages', {
		name: PACKAGE_NAME,
		version: OLDER,
	});
	if (installed.status !== 200)
		throw new Error(`The install failed: ${installed.status} ${JSON.stringify(installed.body)}`);
	await logged(all, INSTALLED, 1);
	packageFiles = all.map((instance) => filesOf(instance.packageDir));

	// Published once the nodes are known, as in the editor.
	for (const id of [ACTIONS, TRIGGER, BULK]) {
		const { body } = await main.requestAsOwner('GET', `/rest/workflows/${id}`);
		const { versionId } = (body as { data: { versionId: string } }).data;
		const answer = await main.requestAsOwner('POST', `/rest/workflows/${id}/activate`, {
			versionId,
		});
		if (answer.status !== 200)
			throw new Error(`Publishing ${id} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
	}
	await webhook.waitFor(
		async () =>
			(
				await fetch(hookUrl(), {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: '{"ping":true}',
				})
			).status === 200,
		'the trigger to be registered on the webhook process',
	);
	await control('DELETE', '/requests');
});

// Each step runs even when one before it throws.
afterAll(async () => {
	await Promise.allSettled([...all, late, unflagged].map((instance) => instance.stop()));
	await Promise.allSettled([store.close(), api.close(), registry.stop(), npmjs.stop()]);
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe('queue mode: main, webhook process, two workers, PostgreSQL and Redis', () => {
	it('installs once through the main process; every other process fetches it from the registry itself', async () => {
		expect(foldersBefore).toEqual(all.map(() => false));
		expect(installed.body).toMatchObject({
			data: { packageName: PACKAGE_NAME, installedVersion: OLDER },
		});
		expect(new Set(all.map((instance) => instance.packageDir)).size).toBe(all.length);
		for (const instance of all) {
			expect({ process: instance.name, version: versionOn(instance) }).toEqual({
				process: instance.name,
				version: OLDER,
			});
			expect(times(instance, INSTALLED)).toBe(1);
		}
		// Each process downloaded the tarball under registry.npmjs.org's address, through the stand-in.
		const tarball = `GET /${PACKAGE_NAME}/-/${PACKAGE_NAME}-${OLDER}.tgz`;
		expect((await npmjs.forwarded()).filter((request) => request === tarball)).toHaveLength(
			all.length,
		);
		const types = ((await main.getAsOwner('/types/nodes.json')) as Array<{ name: string }>).map(
			(type) => type.name,
		);
		expect(types).toEqual(expect.arrayContaining([ACTION_NODE, TRIGGER_NODE]));
	});

	it('listens on loopback only: every n8n process, Redis and PostgreSQL', () => {
		const servers = (process.env.QUEUE_SERVER_PIDS ?? '').split(',').filter(Boolean).map(Number);
		const sockets = listeningAddresses([...all.map((instance) => instance.pid!), ...servers]);
		for (const instance of all)
			expect(sockets).toContainEqual({
				pid: instance.pid,
				address: '127.0.0.1',
				port: instance.port,
			});
		expect(sockets.map((socket) => socket.port)).toEqual(
			expect.arrayContaining([Number(redisPort), Number(postgresPort)]),
		);
		expect(sockets.filter((socket) => !['127.0.0.1', '::1'].includes(socket.address))).toEqual([]);
	});

	it('an action workflow called on the webhook process runs every operation on a worker', async () => {
		const response = await fetch(webhook.url(`/webhook/${ACTIONS_PATH}`), {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: '{}',
		});
		expect(response.status).toBe(200);
		const [run] = await finishedExecutions(ACTIONS, 1);
		expect(run.data.resultData.error).toBeUndefined();
		expect(run).toMatchObject({ mode: 'webhook', status: 'success' });
		// The stored execution names the worker that ran it, and that worker's log says it took the job.
		const process = String(ranOn(run).process);
		expect(WORKERS).toContain(process);
		expect(startedBy(workers[WORKERS.indexOf(process)], run.id)).toBe(true);
		expect(startedBy(main, run.id) || startedBy(webhook, run.id)).toBe(false);

		const logged = await requests();
		for (const testCase of cases) await expectCaseRan(run, logged, testCase);
		expect(outputOf(run, 'Return All')).toHaveLength(4500);
		expect(JSON.stringify(run)).not.toContain(api.sandbox.environments.sandbox.token);
	});

	it('the trigger answers on the webhook process for POST and PATCH deliveries, and a worker runs each', async () => {
		await control('DELETE', '/webhooks');
		await control('DELETE', '/requests');
		const before = (await store.executions(TRIGGER)).length;
		await api.subscribeTrigger(hookUrl(), hookUrl('?token=wrong-secret'));

		const created = await api.deliver('FAILURE_CREATED', {
			type: 'failure',
			id: '7001',
			attributes: {},
		});
		expect(created.sort()).toEqual([200, 401]);
		expect(
			await api.deliver('BUY_ORDER_UPDATED', { type: 'buy_order', id: '7002', attributes: {} }),
		).toEqual([200]);
		// An event the trigger does not select is answered 200 by the webhook process and starts nothing.
		expect(await api.deliver('FILE_DELETED')).toEqual([200]);

		const runs = (await finishedExecutions(TRIGGER, before + 2)).slice(before);
		expect(runs.map((run) => [run.mode, run.status])).toEqual([
			['webhook', 'success'],
			['webhook', 'success'],
		]);
		expect(runs.map((run) => `${ranOn(run).method}:${ranOn(run).workOrder}`).sort()).toEqual([
			'PATCH:7002',
			'POST:7001',
		]);
		for (const run of runs) expect(WORKERS).toContain(ranOn(run).process);
		const sent = (await markers()).map((marker) => marker.split(':').slice(0, 3).join(':')).sort();
		expect(sent).toEqual(['BUY_ORDER_UPDATED:PATCH:7002', 'FAILURE_CREATED:POST:7001']);
	});

	it('two bulk creates with one token, on both workers at once, share the rate limit and lose no item', async () => {
		const limit = 30;
		const windowMs = 3000;
		await control('POST', '/rate-limit', { limit, windowMs });
		await control('DELETE', '/requests');
		const before = (await store.executions(BULK)).length;
		const prefixes = ['QA', 'QB'];
		for (const prefix of prefixes) {
			// n8n answers 503 while its database check lags on a loaded machine; that call starts nothing.
			await webhook.waitFor(
				async () =>
					(
						await fetch(webhook.url(`/webhook/${BULK_PATH}`), {
							method: 'POST',
							headers: { 'Content-Type': 'application/json' },
							body: JSON.stringify({ prefix }),
						})
					).status === 200,
				`the bulk workflow to accept the call for ${prefix}`,
			);
			// A moment apart, so that the idle worker waiting behind the first takes the second.
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		const runs = (await finishedExecutions(BULK, before + 2)).slice(before);
		await control('POST', '/rate-limit', { limit: 0 });
		expect(runs.map((run) => run.status)).toEqual(['success', 'success']);
		expect(new Set(runs.map((run) => ranOn(run).process)).size).toBe(2);
		const codes = (prefix: string) =>
			Array.from({ length: BULK_COUNT }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`);
		const output = runs.flatMap((run) => outputOf(run, BULK_NODE).map((item) => item.code));
		expect([...output].sort()).toEqual(prefixes.flatMap(codes).sort());

		const posts = (await requests()).filter((request) => request.method === 'POST');
		const created = posts.filter((request) => request.status === 201);
		expect(created.map((request) => (request.body as { code: string }).code).sort()).toEqual(
			prefixes.flatMap(codes).sort(),
		);
		// Each execution meets the shared limit at most once a window.
		const windows = Math.ceil((2 * BULK_COUNT) / limit) + 1;
		const refused = posts.filter((request) => request.status === 429).length;
		expect(refused).toBeLessThanOrEqual(2 * windows);
		const times = created.map((request) => Date.parse(request.at));
		const minutes = (Math.max(...times) - Math.min(...times)) / 60_000;
		process.stdout.write(
			`[queue] two bulk creates: ${created.length} created in ${Math.round(minutes * 60)} s, ${Math.round(created.length / minutes)} a minute against a limit of ${(limit * 60_000) / windowMs}; ${refused} answers 429\n`,
		);
	});

	it("a bulk create started by hand, as the editor's Execute Workflow starts it, runs on a worker", async () => {
		await control('DELETE', '/requests');
		const started = (await main.getAsOwner(`/rest/workflows/${MANUAL}/run`, {
			triggerToStartFrom: { name: 'Start' },
		})) as { data?: { executionId?: string } };
		const id = Number(started.data?.executionId);
		expect(id).toBeGreaterThan(0);
		const [run] = await finishedExecutions(MANUAL, 1);
		expect([run.id, run.mode, run.status]).toEqual([id, 'manual', 'success']);
		expect(WORKERS).toContain(ranOn(run).process);
		expect(workers.filter((worker) => startedBy(worker, id))).toHaveLength(1);
		const codes = Array.from(
			{ length: MANUAL_COUNT },
			(_, i) => `MANUAL-${String(i + 1).padStart(4, '0')}`,
		);
		expect(outputOf(run, BULK_NODE).map((item) => item.code)).toEqual(codes);
		const created = (await requests()).filter((request) => request.status === 201);
		expect(created.map((request) => (request.body as { code: string }).code)).toEqual(codes);
	});

	it('two workers share fifty trigger executions, none lost and none run twice', async () => {
		await subscribeFailures();
		// Each run's request takes a moment, so the runs overlap and both workers take some.
		await control('POST', '/latency', { ms: 150 });
		const before = (await store.executions(TRIGGER)).length;
		const ids = Array.from({ length: 50 }, (_, index) => String(8001 + index));
		const results = (await Promise.all(
			ids.map((id) =>
				control('POST', '/events', {
					event: 'FAILURE_CREATED',
					data: { type: 'failure', id, attributes: {} },
				}),
			),
		)) as Array<{ deliveries: Array<{ status: number }> }>;
		expect(results.flatMap((result) => result.deliveries.map((d) => d.status))).toEqual(
			ids.map(() => 200),
		);

		const runs = (await finishedExecutions(TRIGGER, before + 50)).slice(before);
		await control('POST', '/latency', { ms: 0 });
		// Whatever might still arrive late has had its chance: the counts below must not change.
		await new Promise((resolve) => setTimeout(resolve, 3000));
		const settled = (await store.executions(TRIGGER)).slice(before);
		expect(settled).toHaveLength(50);
		expect(runs.every((run) => run.status === 'success')).toBe(true);

		// In the executions: each work order exactly once, each run on one of the two workers.
		const stored = settled.map((run) => String(ranOn(run).workOrder)).sort();
		expect(stored).toEqual(ids);
		const perWorker = WORKERS.map(
			(name) => settled.filter((run) => ranOn(run).process === name).length,
		);
		expect(perWorker[0] + perWorker[1]).toBe(50);
		expect(Math.min(...perWorker)).toBeGreaterThan(0);
		// In the sandbox's request log: one request per work order, sent from the worker the execution names.
		const sent = await markers();
		expect(sent.map((marker) => marker.split(':')[2]).sort()).toEqual(ids);
		const byOrder = new Map(
			settled.map((run) => [String(ranOn(run).workOrder), ranOn(run).process]),
		);
		for (const marker of sent) {
			const [, , workOrder, process] = marker.split(':');
			expect(process).toBe(byOrder.get(workOrder));
		}
		// The worker logs agree: every execution was started by exactly one worker.
		for (const run of settled)
			expect(workers.filter((worker) => startedBy(worker, run.id))).toHaveLength(1);
	});

	it('wrote nothing into the package folder of any process', () => {
		for (const [index, instance] of all.entries())
			expect(filesOf(instance.packageDir)).toEqual(packageFiles[index]);
	});

	/** Has the sandbox deliver one FAILURE_CREATED event to the trigger, and returns the run it started. */
	async function deliverOnce(workOrder: string): Promise<StoredExecution> {
		await subscribeFailures();
		const before = (await store.executions(TRIGGER)).length;
		expect(
			await api.deliver('FAILURE_CREATED', { type: 'failure', id: workOrder, attributes: {} }),
		).toEqual([200]);
		const [run] = (await finishedExecutions(TRIGGER, before + 1)).slice(before);
		return run;
	}

	/** The trigger on the webhook process and the action node on the late worker, both ran. */
	async function expectLateWorkerRan(workOrder: string) {
		const run = await deliverOnce(workOrder);
		expect(run.data.resultData.error).toBeUndefined();
		expect([run.status, ranOn(run).process, ranOn(run).workOrder]).toEqual([
			'success',
			'worker-late',
			workOrder,
		]);
		expect(startedBy(late, run.id)).toBe(true);
		expect(await markers()).toEqual([`FAILURE_CREATED:POST:${workOrder}:worker-late`]);
	}

	it('a worker started after the install installs it with N8N_REINSTALL_MISSING_PACKAGES=true and runs it; one without the setting lacks it', async () => {
		// The two workers stop, so that only the late one can take the next run.
		await Promise.all(workers.map((worker) => worker.stop()));
		await late.setup({ ...others, MM_PROCESS: 'worker-late' }, { copyPackage: false });
		await unflagged.setup({ ...shared, MM_PROCESS: 'worker-unflagged' }, { copyPackage: false });
		await Promise.all([late.start('worker'), unflagged.start('worker')]);
		await logged([late], INSTALLED, 1);
		expect(versionOn(late)).toBe(OLDER);
		// n8n's own warning, and nothing installed: a run sent there would fail on the missing type.
		expect(unflagged.log()).toContain('n8n detected that some packages are missing');
		expect(existsSync(unflagged.packageDir)).toBe(false);
		await unflagged.stop();
		await expectLateWorkerRan('9001');
	});

	const running = () => [main, webhook, late];

	it('an update on the main process reaches every process, each fetching the new version', async () => {
		await registry.publish(tarballs.current, 'latest');
		const counts = running().map((instance) => times(instance, INSTALLED));
		const updated = await main.requestAsOwner('PATCH', '/rest/community-packages', {
			name: PACKAGE_NAME,
			version: CURRENT,
		});
		expect([updated.status, updated.body]).toEqual([
			200,
			{ data: expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: CURRENT }) },
		]);
		await Promise.all(
			running().map((instance, index) => logged([instance], INSTALLED, counts[index] + 1)),
		);
		expect(running().map(versionOn)).toEqual(running().map(() => CURRENT));
		const tarball = `GET /${PACKAGE_NAME}/-/${PACKAGE_NAME}-${CURRENT}.tgz`;
		expect((await npmjs.forwarded()).filter((request) => request === tarball)).toHaveLength(
			running().length,
		);
		await expectLateWorkerRan('9002');
	});

	it('an uninstall on the main process removes it from every process, and the trigger is then refused', async () => {
		const removed = await main.requestAsOwner(
			'DELETE',
			`/rest/community-packages?name=${PACKAGE_NAME}`,
		);
		expect(removed.status).toBe(200);
		await logged(running(), UNINSTALLED, 1);
		for (const instance of running())
			expect({ process: instance.name, folder: existsSync(instance.packageDir) }).toEqual({
				process: instance.name,
				folder: false,
			});
		await control('DELETE', '/requests');
		const refused = await fetch(hookUrl(), {
			method: 'POST',
			signal: AbortSignal.timeout(60_000),
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ event: 'FAILURE_CREATED', data: { type: 'failure', id: '9003' } }),
		});
		expect({ status: refused.status, body: await refused.json() }).toEqual({
			status: 400,
			body: expect.objectContaining({ message: `Unrecognized node type: ${TRIGGER_NODE}` }),
		});
		expect(await markers()).toEqual([]);
	});

	it('keeps npm on this machine: another name is not found, another host is refused', async () => {
		/** npm view, with the environment n8n's processes run npm in: whether it failed, what it printed. */
		const npmView = (spec: string, registryUrl: string) =>
			new Promise<{ failed: boolean; printed: string }>((resolve) => {
				execFile(
					'npm',
					['view', spec, 'version', `--registry=${registryUrl}`, '--fetch-retries=0'],
					{ env: { PATH: process.env.PATH, HOME: packDir, ...npmjs.env } },
					(error, stdout, stderr) => resolve({ failed: Boolean(error), printed: stdout + stderr }),
				);
			});
		// verdaccio has no uplink: a name it does not hold is not looked for elsewhere.
		expect(await npmView('left-pad', `https://${NPMJS}`)).toEqual({
			failed: true,
			printed: expect.stringContaining('E404'),
		});
		expect(await npmView(PACKAGE_NAME, 'https://registry.example.org')).toMatchObject({
			failed: true,
		});
		// The stand-in notes the refused handshake as the refusal reaches it.
		await waitUntil(
			async () => npmjs.refusedHandshakes.includes('registry.example.org'),
			'the stand-in to note the handshake it refused',
			30_000,
		);
	});
});
