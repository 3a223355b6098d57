import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import { gt, inc, rcompare } from 'semver';

import type { LoggedRequest } from '../../sandbox';
import { recordedFiles, recordedSurfaces, SURFACE_DIR } from '../../scripts/recordSurface';
import { fill, nodeOf, savedNodes } from '../cases/savedParameters';

import { openEditor, signInAsOwner } from './editor';
import {
	inTurn,
	itemsOf,
	N8nInstance,
	outputOf,
	PACKAGE_NAME,
	type ExecutionResult,
	TESTING_PINNED_N8N,
	waitUntil,
} from './n8n';
import {
	allowCustomRegistry,
	changePackage,
	dataOf,
	expectStatus,
	LocalRegistry,
	pack,
	repackAs,
} from './registry';
import { differences, recordedChanges, unexplained } from './releaseChanges';
import { SandboxClient } from './sandboxClient';
import { DELIVERIES, FAILING_RUNS, type Delivery } from './updateCases';
import {
	ACTION_NODE,
	START,
	TRIGGER_NODE,
	WEBHOOK_ID,
	WEBHOOK_SECRET,
	marksIn,
	rowsWorkflow,
	triggerWorkflow,
} from './workflows';

/**
 * The path every user takes: n8n's own installer (Settings → Community Nodes) installs the package from
 * an npm registry, later updates it in place, and uninstalls it; the calls are those the Community Nodes
 * page makes (n8n's community-packages controller). The registry is verdaccio on loopback, storing in a
 * temporary folder, with this machine's npm registry as its uplink; the package is published to it as a
 * release sends it to npm: the tarball `npm pack` makes of the build, with `npm publish`
 * (--ignore-scripts: the release check in prepublishOnly refuses any publish outside the release
 * workflow, rightly for npm).
 *
 * The update starts from the newest recorded release (surface/<version>.tgz, the tarball `npm run
 * surface` packed from that release's build) and goes to the current build, published under a prerelease
 * version above it. Workflows are saved with the release, generated from its record
 * (surface/<version>.json): one per operation and type version of the action node, each parameter set
 * to a value other than its default where the sandbox accepts one (test/cases/savedParameters.ts), and
 * the trigger's. Each runs once before the update and once after it, on the sandbox reset to the same
 * state: the same requests must reach the sandbox (method, path, query and body), with the same
 * outputs. So must failing runs (test/e2e/updateCases.ts): a write and a read whose item 1 the API
 * refuses (400), names a missing record (404), rate-limits past Max Wait per Request (429) or whose
 * answer is lost, and a write answered 200 in the error envelope, each in the three On Error modes:
 * the same requests (their statuses too), Success and Error outputs, and error that stops the node
 * (message, description, outcome and the rest of its context, declared failure cause). The same
 * deliveries to the trigger, different events by POST and PATCH, one with fields the spec does not
 * name, give the same answers and items, all but the time each was received. A deliberate change is
 * recorded beside the release (surface/<version>.changes.json, test/e2e/releaseChanges.ts): the test
 * accepts exactly those, and names any other difference in a line of its own.
 *
 * n8n's Settings list offers no Update for a package from a custom registry: it asks `npm outdated`,
 * which it runs without that registry. The update call itself (PATCH) works, and is what is tested.
 *
 * In the compatibility matrix (npm run test:compat), n8n 1.123.81 and 2.0.0 have the same installer
 * calls, the same licence gate on a custom registry and the same test hook as 2.41.1 (their
 * community-packages and e2e controllers), so every REST step, the check that no restart is needed
 * among them, runs and passes in each. The one difference met: 2.0.0 reports ready before its REST routes
 * answer, so the hook is retried until it does. The browser install runs in the pinned n8n only: the
 * editor's page differs between versions, and the docs show the pinned one.
 */
jest.setTimeout(600_000);

const ROOT = join(__dirname, '..', '..');
/** The newest recorded release: what the update starts from. */
const [RELEASED] = recordedSurfaces().sort((a, b) => rcompare(a.version, b.version));
const OLDER = RELEASED.version;
/** The version the current build is published under, above the release (0.1.0 → 0.1.1-update.0). */
const CURRENT = inc(OLDER, 'prepatch', 'update') as string;
/** The credential types and node types the package brings. */
const CREDENTIAL_TYPES = ['maintenanceManagementApi', 'maintenanceManagementWebhookApi'];
const NODE_TYPES = [ACTION_NODE, TRIGGER_NODE];
/** Where a failed walk leaves its page, and the screenshot goes unless UPDATE_DOCS=1. */
const SCRATCH = join(tmpdir(), 'mm-installer');
const SHOTS = process.env.UPDATE_DOCS === '1' ? join(ROOT, 'docs') : SCRATCH;

/** A date-time in text, as the API and the node write them. */
const DATE_TIME = /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?Z?/g;
/** Epoch milliseconds up to this far past `since` are a time of the run (a rate limit's reset). */
const EPOCH_SPAN_MS = 2 * 366 * 86_400_000;

/**
 * A value normalised where two runs must differ: a date-time from `since` on (one the sandbox stamped
 * during the run, or a reset time in an error's text) becomes "<now>", and so do epoch milliseconds from
 * `since` on (a declared cause's `resetsAtEpochMs`).
 */
function normalised(value: unknown, since: number): unknown {
	if (Array.isArray(value)) return value.map((item) => normalised(item, since));
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([key, item]) => [key, normalised(item, since)]),
		);
	if (typeof value === 'number' && value >= since - 1_000 && value < since + EPOCH_SPAN_MS)
		return '<now>';
	if (typeof value === 'string')
		return value.replace(DATE_TIME, (text) => {
			const time = Date.parse(`${text.replace(' ', 'T').replace(/Z$/, '')}Z`);
			return time >= since - 1_000 ? '<now>' : text;
		});
	return value;
}

/**
 * A failing run's data with each wait of a minute or more in its texts counted in minutes: a wait the
 * node reckons from a reset time ("for another 600 s") shrinks by the time it takes to reach the item.
 */
function waitsInMinutes(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(waitsInMinutes);
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([key, item]) => [key, waitsInMinutes(item)]),
		);
	if (typeof value === 'string')
		return value.replace(/\b(\d+) s\b/g, (text, seconds: string) =>
			Number(seconds) >= 60 ? `${Math.round(Number(seconds) / 60)} min` : text,
		);
	return value;
}

describe("n8n's community package installer, from a registry on loopback", () => {
	const registry = new LocalRegistry();
	// Made in beforeAll, as their temporary folders are: a run that filters every test out leaves none.
	let n8n: N8nInstance;
	const api = new SandboxClient();
	let packDir = '';
	let started = 0;

	beforeAll(async () => {
		expect(gt(CURRENT, OLDER)).toBe(true);
		packDir = mkdtempSync(join(tmpdir(), 'mm-pack-'));
		n8n = new N8nInstance('installer');
		// The current build, raised above the release's version.
		const current = await repackAs(await pack(packDir), CURRENT, packDir);
		await registry.start();
		await registry.publish(recordedFiles(OLDER).tarball, 'older');
		await registry.publish(current, 'latest');
		await api.start();
		await n8n.setup(
			{
				N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
				// n8n's test hook, PATCH /rest/e2e/feature, licenses the custom registry (2.41).
				E2E_TESTS: 'true',
			},
			{ copyPackage: false },
		);
		await n8n.start();
		await allowCustomRegistry(n8n);
		started = Date.now();
	});

	afterAll(async () => {
		await inTurn(
			() => n8n?.stop(),
			() => registry.stop(),
			() => api.close(),
			() => packDir && rmSync(packDir, { recursive: true, force: true }),
		);
	});

	/**
	 * The types n8n serves the editor, once `settled` holds for them. n8n 2.0.0 rewrites the file after
	 * an install or uninstall without waiting for the write to end (2.41 waits), so it may still be the
	 * file from before, or a part of the new one: it is read again until it is whole JSON and settled,
	 * for at most 60 s. A file that stays whole but unsettled is returned, for the test to show.
	 */
	const typeNames = async (
		file: 'nodes' | 'credentials',
		settled: (names: string[]) => boolean = () => true,
	) => {
		let names: string[] | undefined;
		const read = async () => {
			const types = await n8n.getAsOwner(`/types/${file}.json`);
			if (!Array.isArray(types)) return false;
			names = (types as Array<{ name: string }>).map((t) => t.name);
			return settled(names);
		};
		await waitUntil(read, `n8n to serve the expected types in /types/${file}.json`, 60_000).catch(
			(error: unknown) => {
				if (!names) throw error;
			},
		);
		return names as string[];
	};
	const servesAll = (types: string[]) => (names: string[]) => types.every((t) => names.includes(t));
	const servesNone = (types: string[]) => (names: string[]) =>
		!types.some((t) => names.includes(t));

	const credentialIds: Record<string, string> = {};
	const workflowIds: Record<string, string> = {};

	it('installs the recorded release from the registry and serves both nodes and credentials without a restart', async () => {
		expect(await typeNames('nodes')).not.toContain(ACTION_NODE);
		const installed = await changePackage(n8n, 'POST', OLDER);
		expect(dataOf<{ packageName: string }>(installed).packageName).toBe(PACKAGE_NAME);
		expect(await typeNames('nodes', servesAll(NODE_TYPES))).toEqual(
			expect.arrayContaining(NODE_TYPES),
		);
		expect(await typeNames('credentials', servesAll(CREDENTIAL_TYPES))).toEqual(
			expect.arrayContaining(CREDENTIAL_TYPES),
		);
	});

	/** The workflows saved with the release: one per operation and type version of the action node. */
	const SAVED = savedNodes(RELEASED, api.cases);
	/** The trigger at its newest recorded type version, its parameters generated as the action node's. */
	const triggerVersions = nodeOf(RELEASED, 'maintenanceManagementTrigger').versions;
	const TRIGGER_VERSION = Math.max(...Object.keys(triggerVersions).map(Number));
	const TRIGGER_PARAMETERS = fill(
		triggerVersions[TRIGGER_VERSION].parameters,
		{ events: ['FAILURE_CREATED', 'BUY_ORDER_UPDATED'] },
		'trigger',
	);

	/**
	 * What of a failing run's parameters the recorded release's node version 2 lacks for its resource
	 * and operation (a parameter, or a Request Options field): each is saved with that release.
	 */
	const unknownToRelease = (parameters: IDataObject): string[] => {
		const { resource, operation, ...rest } = parameters;
		const recorded = nodeOf(RELEASED, 'maintenanceManagement').versions[2].parameters;
		const holds = (condition: unknown[] | undefined, value: unknown) =>
			!condition || condition.includes(value);
		return Object.entries(rest).flatMap(([name, value]) => {
			const parameter = recorded.find(
				({ name: recordedName, displayOptions }) =>
					recordedName === name &&
					holds(displayOptions?.show?.resource, resource) &&
					holds(displayOptions?.show?.operation, operation),
			);
			if (!parameter) return [`${resource} ${operation}: ${name}`];
			if (parameter.type !== 'collection') return [];
			return Object.keys(value as IDataObject)
				.filter((field) => !parameter.fields?.some((f) => f.name === field))
				.map((field) => `${resource} ${operation}: ${name}.${field}`);
		});
	};

	it('saves credentials, a workflow per operation and type version of the action node, the failing runs and the trigger', async () => {
		const { baseUrl, token } = api.sandbox.environments.sandbox;
		for (const [type, data] of [
			[
				'maintenanceManagementApi',
				{ accessToken: token, environment: 'sandbox', sandboxBaseUrl: baseUrl },
			],
			['maintenanceManagementWebhookApi', { secret: WEBHOOK_SECRET, username: '' }],
		] as const) {
			const saved = await n8n.requestAsOwner('POST', '/rest/credentials', {
				name: `Installer ${type}`,
				type,
				data,
			});
			expectStatus(saved, 200, `saving a ${type} credential`);
			credentialIds[type] = dataOf<{ id: string }>(saved).id;
		}
		const api_ = { id: credentialIds.maintenanceManagementApi, name: 'Installer api' };
		expect(new Set(SAVED.map((node) => node.typeVersion))).toEqual(new Set([1, 2]));
		for (const { name, typeVersion, parameters } of SAVED) {
			const saved = await n8n.requestAsOwner('POST', '/rest/workflows', {
				name,
				active: false,
				settings: { executionOrder: 'v1' },
				connections: { Start: { main: [[{ node: 'Action', type: 'main', index: 0 }]] } },
				nodes: [
					START,
					{
						id: 'action',
						name: 'Action',
						type: ACTION_NODE,
						typeVersion,
						position: [220, 0],
						parameters,
						credentials: { maintenanceManagementApi: api_ },
					},
				],
			});
			expectStatus(saved, 200, `saving the workflow ${name}`);
			workflowIds[name] = dataOf<{ id: string }>(saved).id;
		}
		expect(FAILING_RUNS.flatMap(({ parameters }) => unknownToRelease(parameters))).toEqual([]);
		for (const { name, parameters, rows, onError } of FAILING_RUNS) {
			// The bulk suite's workflow of rows, with this instance's credential.
			const { nodes, connections } = rowsWorkflow('failing', 'Action', rows, parameters, onError);
			const saved = await n8n.requestAsOwner('POST', '/rest/workflows', {
				name: `failing: ${name}`,
				active: false,
				settings: { executionOrder: 'v1' },
				connections,
				nodes: nodes.map((node) =>
					node.type === ACTION_NODE
						? { ...node, credentials: { maintenanceManagementApi: api_ } }
						: node,
				),
			});
			expectStatus(saved, 200, `saving the workflow ${name}`);
			workflowIds[`failing: ${name}`] = dataOf<{ id: string }>(saved).id;
		}
		const trigger = triggerWorkflow();
		const saved = await n8n.requestAsOwner('POST', '/rest/workflows', {
			name: trigger.name,
			active: false,
			settings: { executionOrder: 'v1' },
			connections: trigger.connections,
			nodes: trigger.nodes.map((node) =>
				node.type === TRIGGER_NODE
					? {
							...node,
							typeVersion: TRIGGER_VERSION,
							parameters: TRIGGER_PARAMETERS,
							credentials: {
								maintenanceManagementWebhookApi: {
									id: credentialIds.maintenanceManagementWebhookApi,
									name: 'Installer webhook',
								},
							},
						}
					: { ...node, credentials: { maintenanceManagementApi: api_ } },
			),
		});
		expectStatus(saved, 200, 'saving the trigger workflow');
		const { id, versionId } = dataOf<{ id: string; versionId: string }>(saved);
		workflowIds.trigger = id;
		const activated = await n8n.requestAsOwner('POST', `/rest/workflows/${id}/activate`, {
			versionId,
		});
		expectStatus(activated, 200, 'activating the trigger workflow');
	});

	/** The markers the sandbox received since the last call. */
	const markersSent = async () => {
		const markers = marksIn(await api.requests());
		await api.control('DELETE', '/requests');
		return markers;
	};

	/**
	 * Runs a saved workflow as the editor's Execute workflow does (POST /rest/workflows/:id/run, in the
	 * running n8n), and returns its execution once n8n has stored it finished.
	 */
	const runSaved = async (name: string): Promise<ExecutionResult> => {
		const id = workflowIds[name];
		const before = (await n8n.newestExecution(id))?.id;
		const saved = await n8n.requestAsOwner('GET', `/rest/workflows/${id}`);
		expectStatus(saved, 200, `reading the workflow ${name}`);
		const ran = await n8n.requestAsOwner('POST', `/rest/workflows/${id}/run`, {
			workflowData: dataOf(saved),
			triggerToStartFrom: { name: START.name },
		});
		expectStatus(ran, 200, `running the workflow ${name}`);
		let result: (ExecutionResult & { id: number }) | null = null;
		await waitUntil(
			async () => {
				result = await n8n.newestExecution(id);
				// n8n 1.123 stores a run before its data: it has ended once both are there.
				return (
					!!result?.data &&
					result.id !== before &&
					!['new', 'running'].includes(result.status ?? '')
				);
			},
			`n8n to finish running the workflow ${name}`,
			120_000,
		);
		return result as unknown as ExecutionResult;
	};

	/** A delivery as the service makes it, carrying the secret as the trigger's Protection says. */
	const deliver = ({ method, body, query = {}, headers: extra = {} }: Delivery) => {
		const { authentication, parameterName } = TRIGGER_PARAMETERS as Record<string, string>;
		const url = new URL(n8n.url(`/webhook/${WEBHOOK_ID}/webhook`));
		for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
		const headers: Record<string, string> = { 'Content-Type': 'application/json', ...extra };
		if (authentication === 'query') url.searchParams.set(parameterName, WEBHOOK_SECRET);
		if (authentication === 'header') headers[parameterName] = WEBHOOK_SECRET;
		if (authentication === 'basicAuth')
			headers.Authorization = `Basic ${Buffer.from(`n8n:${WEBHOOK_SECRET}`).toString('base64')}`;
		return fetch(url, {
			method,
			signal: AbortSignal.timeout(120_000),
			headers,
			body: JSON.stringify(body),
		});
	};

	/** What each case gave with a version installed, by case: saved, failing and trigger runs. */
	const compared: Record<string, Record<string, unknown>> = {};

	/**
	 * What a failing run shows: the requests that reached the sandbox (with the status each got; -1 is a
	 * dropped connection), the action node's Success and Error outputs (each item's JSON and pairing),
	 * and the error that stopped it, as n8n stores it, without its time and stack.
	 */
	const failingView = (result: ExecutionResult, requests: LoggedRequest[]) => {
		const items = (output: number) =>
			itemsOf(result, 'Action', output).map(({ json, pairedItem }) => ({ json, pairedItem }));
		const stop = result.data.resultData.runData.Action?.[0]?.error as IDataObject | undefined;
		return {
			status: result.status,
			requests: requests.map(({ method, path, query, body, status }) => ({
				method,
				path,
				query,
				body,
				status,
			})),
			output: { success: items(0), error: items(1) },
			stop:
				stop &&
				Object.fromEntries(
					['name', 'message', 'description', 'httpCode', 'context', 'failure']
						.filter((key) => stop[key] !== undefined)
						.map((key) => [key, stop[key]]),
				),
		};
	};

	/** Whether a failing run failed at item 1, as its case means it to: it stopped, or item 1 is an error. */
	const failedAtItem1 = (view: ReturnType<typeof failingView>, onError: string) => {
		if (onError === 'stopWorkflow') return view.status === 'error' && view.stop !== undefined;
		const [second] = [...view.output.success, ...view.output.error].filter(
			({ pairedItem }) => (pairedItem as { item?: number } | undefined)?.item === 1,
		);
		return view.status === 'success' && second?.json.error !== undefined;
	};

	/**
	 * The trigger's answer to each delivery and the items it started the workflow with, read from the
	 * execution each delivery started (once n8n has stored it finished): the time it was received is
	 * the one value that differs, checked as a time of the delivery and left out.
	 */
	const deliverAll = async (version: string, found: Record<string, unknown>) => {
		const id = workflowIds.trigger;
		for (const delivery of DELIVERIES) {
			const before = (await n8n.newestExecution(id))?.id;
			const sent = Date.now();
			const answered = await deliver(delivery);
			const answer = { status: answered.status, body: (await answered.json()) as unknown };
			// An ignored event is answered 200 too, so that the service does not send it again.
			expect({ version, delivery: delivery.name, status: answer.status }).toEqual({
				version,
				delivery: delivery.name,
				status: 200,
			});
			let items: unknown[] = [];
			if (delivery.starts) {
				let result: (ExecutionResult & { id: number }) | null = null;
				await waitUntil(
					async () => {
						result = await n8n.newestExecution(id);
						return (
							!!result?.data &&
							result.id !== before &&
							!['new', 'running'].includes(result.status ?? '')
						);
					},
					`the trigger's execution of the delivery "${delivery.name}" with ${version} installed`,
					120_000,
				);
				items = itemsOf(result as unknown as ExecutionResult, 'Events', 0).map(({ json }) => {
					const { receivedAt, ...rest } = json;
					const time = Date.parse(String(receivedAt));
					const ofTheDelivery = time >= sent - 1_000 && time <= Date.now() + 1_000;
					return { ...rest, receivedAt: ofTheDelivery ? '<received>' : receivedAt };
				});
			}
			found[`trigger: ${delivery.name}`] = { answer, items };
		}
	};

	/**
	 * Runs every saved action workflow, each on the sandbox reset to its seed, recording the
	 * requests it sent (method, path, query, body) and its output; then every failing run, on the
	 * sandbox reset with its fault set; then sends the trigger its deliveries.
	 */
	const runAll = async (version: string) => {
		const since = Date.now();
		const found: Record<string, unknown> = {};
		for (const { name } of SAVED) {
			// Both type versions' workflows of an operation write the same record: each starts afresh.
			await api.control('POST', '/reset', {});
			const result = await runSaved(name);
			const requests = await api.requests();
			expect({ name, status: result.status, error: result.data.resultData.error?.message }).toEqual(
				{ name, status: 'success', error: undefined },
			);
			expect({ name, refused: requests.filter((r) => r.status >= 300) }).toEqual({
				name,
				refused: [],
			});
			found[name] = normalised(
				{
					requests: requests.map(({ method, path, query, body }) => ({
						method,
						path,
						query,
						body,
					})),
					output: outputOf(result, 'Action'),
				},
				since,
			);
		}
		const failingFrom = Date.now();
		const notFailing: string[] = [];
		for (const { name, fault, onError } of FAILING_RUNS) {
			await api.control('POST', '/reset', {});
			if (fault) await api.control('POST', '/faults', fault);
			const view = failingView(await runSaved(`failing: ${name}`), await api.requests());
			if (!failedAtItem1(view, onError)) notFailing.push(name);
			found[`failing: ${name}`] = waitsInMinutes(normalised(view, since));
		}
		expect({ version, notFailing }).toEqual({ version, notFailing: [] });
		const deliveriesFrom = Date.now();
		await markersSent();
		await deliverAll(version, found);
		const seconds = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
		process.stdout.write(
			`[installer] ${version}: ${SAVED.length} saved runs ${seconds(since, failingFrom)}, ${FAILING_RUNS.length} failing runs ${seconds(failingFrom, deliveriesFrom)}, ${DELIVERIES.length} deliveries ${seconds(deliveriesFrom, Date.now())}\n`,
		);
		// Each delivery that starts the workflow marks the sandbox's log once: the ignored one never.
		expect(await markersSent()).toEqual(
			DELIVERIES.filter(({ starts }) => starts).map(
				({ method, body }) => `${String(body.event)}:${method}`,
			),
		);
		compared[version] = normalised(found, since) as Record<string, unknown>;
	};

	it('runs them against the sandbox with the recorded release', async () => {
		await runAll(OLDER);
	});

	it('updates in place to the current build: every saved, failing and trigger run gives the same requests, outputs and errors, but for the changes recorded beside the release', async () => {
		await changePackage(n8n, 'PATCH', CURRENT);
		const listed = await n8n.requestAsOwner('GET', '/rest/community-packages');
		expect(dataOf<Array<{ packageName: string; installedVersion: string }>>(listed)).toEqual([
			expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: CURRENT }),
		]);
		await runAll(CURRENT);
		const [was, now] = [compared[OLDER], compared[CURRENT]];
		const cases = Object.keys(was);
		expect(Object.keys(now)).toEqual(cases);
		const found = cases.flatMap((name) => differences(name, was[name], now[name]));
		const runCount = SAVED.length + FAILING_RUNS.length + DELIVERIES.length;
		process.stdout.write(
			`[installer] ${runCount} runs compared across the update (${SAVED.length} saved, ${FAILING_RUNS.length} failing, ${DELIVERIES.length} deliveries): ${found.length} differences\n`,
		);
		// n8n 1.123 and 2.0 keep no declared failure cause: a change of one shows only in the pinned n8n.
		const lines = unexplained(found, recordedChanges(SURFACE_DIR, OLDER), {
			unseen: TESTING_PINNED_N8N,
		});
		if (lines.length)
			throw new Error(
				[
					`From ${OLDER} to the current build, saved workflows see differences not recorded in surface/${OLDER}.changes.json (case, path, was, now). Undo each, or, if deliberate, record it there with why, and in CHANGELOG.md:`,
					...lines,
				].join('\n'),
			);
	});

	it('uninstalls: the nodes and credentials are gone, and n8n names the missing node where a workflow uses it', async () => {
		const removed = await n8n.requestAsOwner(
			'DELETE',
			`/rest/community-packages?name=${PACKAGE_NAME}`,
		);
		expectStatus(removed, 200, 'the uninstall');
		const seconds = (Date.now() - started) / 1000;
		process.stdout.write(`[installer] install, update and uninstall: ${seconds.toFixed(1)} s\n`);
		const nodes = await typeNames('nodes', servesNone(NODE_TYPES));
		for (const type of NODE_TYPES) expect(nodes).not.toContain(type);
		const credentials = await typeNames('credentials', servesNone(CREDENTIAL_TYPES));
		for (const type of CREDENTIAL_TYPES) expect(credentials).not.toContain(type);
		// The saved workflows stay, still naming the types; n8n refuses to run them, naming the missing
		// type: the editor's Execute workflow on the saved workflow, and the active trigger's webhook.
		// 2.41 answers 400; 2.0.0 and 1.123.81 let the same error through as a 500.
		const REFUSED = TESTING_PINNED_N8N ? 400 : 500;
		const saved = await n8n.requestAsOwner('GET', `/rest/workflows/${workflowIds[SAVED[0].name]}`);
		expectStatus(saved, 200, 'reading the saved workflow');
		const workflowData = dataOf<{ nodes: Array<{ type: string }> }>(saved);
		expect(workflowData.nodes.map((node) => node.type)).toContain(ACTION_NODE);
		const ran = await n8n.requestAsOwner(
			'POST',
			`/rest/workflows/${workflowIds[SAVED[0].name]}/run`,
			{
				workflowData,
				triggerToStartFrom: { name: START.name },
			},
		);
		expect({ status: ran.status, body: ran.body }).toEqual({
			status: REFUSED,
			body: expect.objectContaining({ message: `Unrecognized node type: ${ACTION_NODE}` }),
		});
		const webhook = await fetch(n8n.url(`/webhook/${WEBHOOK_ID}/webhook?token=${WEBHOOK_SECRET}`), {
			method: 'POST',
			signal: AbortSignal.timeout(60_000),
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ event: 'FAILURE_CREATED', data: { type: 'failure', id: '1' } }),
		});
		expect({ status: webhook.status, body: await webhook.json() }).toEqual({
			status: REFUSED,
			body: expect.objectContaining({ message: `Unrecognized node type: ${TRIGGER_NODE}` }),
		});
		expect(await markersSent()).toEqual([]);
	});

	// The editor's pages differ between n8n versions; the walk is held in the pinned one.
	(TESTING_PINNED_N8N ? it : it.skip)(
		'installs from Settings → Community Nodes in the editor',
		async () => {
			mkdirSync(SHOTS, { recursive: true });
			const { browser, editor } = await openEditor();
			try {
				await signInAsOwner(editor, n8n);
				await editor.goto(n8n.url('/settings/community-nodes'));
				await editor.getByRole('button', { name: 'Install a community node' }).first().click();
				await editor.getByPlaceholder('e.g. n8n-nodes-chatwork').fill(PACKAGE_NAME);
				await editor.getByText('I understand the risks').click();
				await editor.screenshot({ path: join(SHOTS, 'community-nodes-install.png') });
				await editor.locator('[data-test-id="install-community-package-button"]').click();
				// The dialog closes once n8n has installed and loaded the package; the list then shows it.
				await editor
					.getByText('Install community nodes')
					.waitFor({ state: 'hidden', timeout: 120_000 });
				await editor
					.getByText(PACKAGE_NAME, { exact: true })
					.first()
					.waitFor({ state: 'visible', timeout: 30_000 });
			} catch (error) {
				await editor.screenshot({ path: join(SCRATCH, 'failed.png') }).catch(() => undefined);
				throw error;
			} finally {
				await browser.close();
			}
			const listed = await n8n.requestAsOwner('GET', '/rest/community-packages');
			expect(dataOf<Array<{ packageName: string; installedVersion: string }>>(listed)).toEqual([
				expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: CURRENT }),
			]);
			expect(await typeNames('nodes', servesAll(NODE_TYPES))).toEqual(
				expect.arrayContaining(NODE_TYPES),
			);
		},
	);
});
