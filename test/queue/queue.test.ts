/**
 * The package in n8n's queue mode (run by `npm run test:queue`, which starts Redis and PostgreSQL): one
 * main process, one webhook process and two workers, each in a user folder of its own with the package
 * installed there, sharing only the database, Redis and the encryption key.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { expectCaseRan } from '../e2e/assertions';
import { N8nInstance, outputOf, PACKAGE_NAME } from '../e2e/n8n';
import { SandboxClient } from '../e2e/sandboxClient';
import { BULK_NODE, credentials, marksIn, WEBHOOK_ID, WEBHOOK_SECRET } from '../e2e/workflows';
import { listeningAddresses } from './listeners';
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
const main = new N8nInstance('queue-main');
const webhook = new N8nInstance('queue-webhook');
const workers = WORKERS.map((name) => new N8nInstance(`queue-${name}`));
const all = [main, webhook, ...workers];

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
const startedBy = (instance: N8nInstance, id: number) =>
	instance.log().includes(`Worker started execution ${id} `);

beforeAll(async () => {
	await api.start();
	await store.connect();
	const shared = {
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
	};
	await main.setup({ ...shared, MM_PROCESS: 'main' });
	await webhook.setup({ ...shared, MM_PROCESS: 'webhook' });
	for (const [index, worker] of workers.entries())
		await worker.setup({ ...shared, MM_PROCESS: WORKERS[index] });

	packageFiles = all.map((instance) => filesOf(instance.packageDir));
	const { baseUrl, token } = api.sandbox.environments.sandbox;
	await main.importFiles(credentials(baseUrl, token), [
		actionsOnWebhook(cases),
		triggerOnWorkers(),
		bulkOnWebhook(BULK_COUNT),
		bulkManual(MANUAL_COUNT),
	]);
	for (const id of [ACTIONS, TRIGGER, BULK]) await main.cli(['publish:workflow', `--id=${id}`]);
	await main.start('start');
	// At most five runs at a time each, so fifty events have to be shared.
	await Promise.all([
		webhook.start('webhook'),
		...workers.map((worker) => worker.start('worker', ['--concurrency=5'])),
	]);
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

afterAll(async () => {
	await Promise.all(all.map((instance) => instance.stop()));
	await store.close().catch(() => undefined);
	await api.close();
});

describe('queue mode: main, webhook process, two workers, PostgreSQL and Redis', () => {
	it('every process has the package in its own community-package folder; the main process lists its nodes', async () => {
		expect(new Set(all.map((instance) => instance.packageDir)).size).toBe(all.length);
		for (const instance of all)
			expect(existsSync(join(instance.packageDir, 'node_modules'))).toBe(false);
		const types = ((await main.getAsOwner('/types/nodes.json')) as Array<{ name: string }>).map(
			(type) => type.name,
		);
		expect(types).toEqual(
			expect.arrayContaining([
				`${PACKAGE_NAME}.maintenanceManagement`,
				`${PACKAGE_NAME}.maintenanceManagementTrigger`,
			]),
		);
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
		await control('DELETE', '/webhooks');
		await control('DELETE', '/requests');
		await control('POST', '/webhooks', {
			url: hookUrl(),
			method: 'POST',
			events: ['FAILURE_CREATED'],
		});
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
});
