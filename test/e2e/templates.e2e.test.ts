import { randomUUID } from 'node:crypto';
import {
	createReadStream,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Template } from '../../scripts/examples';
import {
	inTurn,
	itemsOf,
	N8N_NODE_MODULES,
	N8nInstance,
	outputOf,
	PACKAGE_NAME,
	waitUntil,
	type ExecutionResult,
} from './n8n';
import { allowCustomRegistry, dataOf, expectStatus, LocalRegistry, pack } from './registry';
import { SandboxClient } from './sandboxClient';
import { ACTION_NODE, TRIGGER_NODE, WEBHOOK_SECRET } from './workflows';

/**
 * The templates as a user who installed the package by name meets them: n8n's Community Nodes installs
 * the package from a registry (verdaccio on loopback, as test/e2e/installer.e2e.test.ts does), and each
 * of its workflows/*.json is imported as the editor's "Import from URL" does it, from its address on an
 * npm file CDN: `…/npm/<name>@<version>/workflows/<file>`, served here on loopback from the package as
 * n8n installed it. The editor asks n8n for the file (GET /rest/workflows/from-url), gives every node an
 * ID and each node with a webhook a webhook ID, keeps a credential named in the file when exactly one
 * credential of that type has that name, and saves what it made (POST /rest/workflows); the user picks
 * the credentials still missing. Then the manual templates run against the sandbox, and the trigger
 * templates, published, start from the sandbox's events.
 *
 * In the compatibility matrix, n8n 1.123.81 and 2.0.0 take the same calls (the installer's, from-url
 * with a project, the workflow's activation) and run every template; n8n 1.123 does not refuse a
 * request outside the credential's Allowed HTTP Request Domains (REFUSES_OTHER_HOSTS), so that test
 * alone is skipped there.
 */
jest.setTimeout(600_000);

const ROOT = join(__dirname, '..', '..');
const VERSION = (
	JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const FILES = readdirSync(join(ROOT, 'workflows')).sort();
/** The name the templates give the API credential: the one the user has is picked by it. */
const API_CREDENTIAL_NAME = 'Maintenance Management account';
/** The template of an endpoint the node does not cover, and its HTTP Request node. */
const OWN_CALL = 'call-an-endpoint-the-node-does-not-cover.json';
const OWN_CALL_NODE = 'Read One Work Order';
/**
 * Whether the n8n under test refuses a first request outside the credential's Allowed HTTP Request
 * Domains. n8n 2.0 checks it in the HTTP Request node and 2.41 before any request; n8n 1.123's HTTP
 * Request node hands the list to the request, but n8n-core 1.122 checks it only when following a
 * redirect (its `httpRequest` helper checks the first URL too, the HTTP Request node does not use it).
 */
const REFUSES_OTHER_HOSTS = !(
	JSON.parse(readFileSync(join(N8N_NODE_MODULES, 'n8n', 'package.json'), 'utf8')) as {
		version: string;
	}
).version.startsWith('1.');

/** A workflow as n8n saved it: its ID, version and nodes. */
type SavedWorkflow = {
	id: string;
	versionId: string;
	nodes: Array<{ name: string; type: string; webhookId?: string }>;
};

/**
 * An npm file CDN on loopback, as jsDelivr answers `/npm/<name>@<version>/<path>`: the files of the
 * package as n8n installed it (`packageDir`), at the version it holds.
 */
async function fileCdn(packageDir: string): Promise<{ server: Server; url: string }> {
	const installed = (
		JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }
	).version;
	const prefix = `/npm/${PACKAGE_NAME}@${installed}/`;
	const server = createServer((request, response) => {
		const path = decodeURIComponent((request.url ?? '').split('?')[0]);
		const file = join(packageDir, path.slice(prefix.length));
		if (!path.startsWith(prefix) || path.includes('..') || !existsSync(file)) {
			response.writeHead(404).end();
			return;
		}
		response.writeHead(200, { 'Content-Type': 'application/json' });
		createReadStream(file).pipe(response);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the templates, imported from the package installed through Community Nodes', () => {
	const registry = new LocalRegistry('templates-registry');
	const api = new SandboxClient();
	let n8n: N8nInstance;
	let cdn: { server: Server; url: string } | undefined;
	let packDir = '';
	let projectId = '';
	/** The credentials the user has: by type, the ID and name n8n gave each. */
	const credentials: Record<string, { id: string; name: string }> = {};
	/** Each template as saved: by file, its ID, version and nodes. */
	const saved: Record<string, SavedWorkflow> = {};
	/** A server of another host, on loopback: what it received, whether with the credential's token. */
	let elsewhere: { server: Server; url: string; received: Array<{ path: string; token: boolean }> };

	beforeAll(async () => {
		packDir = mkdtempSync(join(tmpdir(), 'mm-pack-'));
		n8n = new N8nInstance('templates');
		const tarball = await pack(packDir);
		await registry.start();
		await registry.publish(tarball, 'latest');
		await api.start();
		await n8n.setup(
			{ N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url, E2E_TESTS: 'true' },
			{ copyPackage: false },
		);
		await n8n.start();
		await allowCustomRegistry(n8n);
	});

	afterAll(async () => {
		await inTurn(
			() => n8n?.stop(),
			() => registry.stop(),
			() => api.close(),
			() => cdn?.server.close(),
			() => elsewhere?.server.close(),
			() => packDir && rmSync(packDir, { recursive: true, force: true }),
		);
	});

	it('installs the package by name, with its templates, and the user creates the two credentials', async () => {
		const installed = await n8n.requestAsOwner('POST', '/rest/community-packages', {
			name: PACKAGE_NAME,
		});
		expectStatus(installed, 200, 'the install');
		expect(readdirSync(join(n8n.packageDir, 'workflows')).sort()).toEqual(FILES);
		// n8n 2.0.0 may serve a part of the rewritten file for a moment: read until whole and complete.
		await waitUntil(
			async () => {
				const types = (await n8n.getAsOwner('/types/nodes.json')) as Array<{ name: string }>;
				const names = types.map((type) => type.name);
				return names.includes(ACTION_NODE) && names.includes(TRIGGER_NODE);
			},
			"n8n to serve the package's nodes",
			60_000,
		);
		cdn = await fileCdn(n8n.packageDir);
		const { baseUrl, token } = api.sandbox.environments.sandbox;
		for (const [type, name, data] of [
			[
				'maintenanceManagementApi',
				API_CREDENTIAL_NAME,
				{ accessToken: token, environment: 'sandbox', sandboxBaseUrl: baseUrl },
			],
			['maintenanceManagementWebhookApi', 'My webhook secret', { secret: WEBHOOK_SECRET }],
		] as const) {
			const created = await n8n.requestAsOwner('POST', '/rest/credentials', { name, type, data });
			expectStatus(created, 200, `creating the ${type} credential`);
			credentials[type] = { id: dataOf<{ id: string }>(created).id, name };
		}
		const personal = await n8n.requestAsOwner('GET', '/rest/projects/personal');
		expectStatus(personal, 200, 'reading the personal project');
		projectId = dataOf<{ id: string }>(personal).id;
	});

	it.each(FILES)(
		'imports %s from its CDN address as the editor does, and saves it',
		async (file) => {
			const address = `${cdn!.url}/npm/${PACKAGE_NAME}@${VERSION}/workflows/${file}`;
			const fetched = await n8n.requestAsOwner(
				'GET',
				`/rest/workflows/from-url?url=${encodeURIComponent(address)}&projectId=${projectId}`,
			);
			expectStatus(fetched, 200, `Import from URL of ${file}`);
			const template = dataOf<Template>(fetched);
			const types = (await n8n.getAsOwner('/types/nodes.json')) as Array<{
				name: string;
				webhooks?: unknown[];
			}>;
			const hasWebhooks = (type: string) =>
				types.some((described) => described.name === type && described.webhooks?.length);
			/** The credential types the editor kept by name, and those the user picked. */
			const kept = new Set<string>();
			const picked = new Set<string>();
			const nodes = template.nodes.map((node) => {
				const chosen = Object.entries(node.credentials ?? {}).map(([type, { name }]) => {
					// The editor keeps the credential the file names when it is the only one of that type with
					// that name (here each type has one); the user picks the others.
					(credentials[type].name === name ? kept : picked).add(type);
					return [type, credentials[type]] as const;
				});
				return {
					...node,
					id: randomUUID(),
					...(hasWebhooks(node.type) && { webhookId: randomUUID() }),
					...(chosen.length && { credentials: Object.fromEntries(chosen) }),
				};
			});
			// The API credential is named by the action node, or by an HTTP Request node that uses it.
			expect([...kept]).toEqual(
				template.nodes.some((node) => node.credentials?.maintenanceManagementApi)
					? ['maintenanceManagementApi']
					: [],
			);
			expect([...picked]).toEqual(
				template.nodes.some((node) => node.type === TRIGGER_NODE)
					? ['maintenanceManagementWebhookApi']
					: [],
			);
			expect(nodes.filter((node) => 'webhookId' in node).map((node) => node.type)).toEqual(
				template.nodes.filter((node) => node.type === TRIGGER_NODE).map(() => TRIGGER_NODE),
			);
			const created = await n8n.requestAsOwner('POST', '/rest/workflows', {
				name: template.name,
				nodes,
				connections: template.connections,
				settings: template.settings,
				pinData: template.pinData ?? {},
				active: false,
			});
			expectStatus(created, 200, `saving ${file}`);
			saved[file] = dataOf<SavedWorkflow>(created);
			expect(saved[file].nodes.map((node) => node.name)).toEqual(
				template.nodes.map((node) => node.name),
			);
		},
	);

	const execute = async (file: string): Promise<ExecutionResult> => {
		const result = await n8n.execute(saved[file].id);
		expect({ file, status: result.status, error: result.data.resultData.error }).toEqual({
			file,
			status: 'success',
			error: undefined,
		});
		return result;
	};

	it('lists the open work orders, every page of them', async () => {
		const result = await execute('list-open-work-orders.json');
		const open = outputOf(result, 'Open Work Orders');
		expect(open.length).toBeGreaterThan(200);
		expect(new Set(open.map((order) => order.id)).size).toBe(open.length);
	});

	it('creates the planned job', async () => {
		await api.control('DELETE', '/requests');
		const result = await execute('create-planned-job.json');
		expect(outputOf(result, 'Create Planned Job')).toEqual([
			expect.objectContaining({ id: expect.anything(), name: 'Monthly lift inspection' }),
		]);
		const posts = (await api.requests()).filter((request) => request.method === 'POST');
		expect(posts.map((request) => [request.path, request.status])).toEqual([['/works', 201]]);
	});

	it('syncs the ERP rows: the bad ones to the Error branch, the nameless one fixed and sent again', async () => {
		const result = await execute('sync-materials-from-erp.json');
		expect(itemsOf(result, 'Create Material', 0)).toHaveLength(6);
		expect(itemsOf(result, 'Create Material', 1)).toHaveLength(2);
		expect(outputOf(result, 'Send Fixed Rows')).toEqual([
			expect.objectContaining({ code: 'ERP-1003', name: 'ERP-1003' }),
		]);
		expect(outputOf(result, 'Check By Hand')).toEqual([
			expect.objectContaining({ code: 'MAT-5', outcome: 'refusedByApi' }),
		]);
	});

	/**
	 * Sets the API credential's Allowed HTTP Request Domains as the user does in its panel: `domains`
	 * (a host name list) restricts it, undefined allows all.
	 */
	const allowDomains = async (domains?: string) => {
		const { baseUrl, token } = api.sandbox.environments.sandbox;
		const { id, name } = credentials.maintenanceManagementApi;
		const updated = await n8n.requestAsOwner('PATCH', `/rest/credentials/${id}`, {
			name,
			type: 'maintenanceManagementApi',
			data: {
				accessToken: token,
				environment: 'sandbox',
				sandboxBaseUrl: baseUrl,
				allowedHttpRequestDomains: domains === undefined ? 'all' : 'domains',
				allowedDomains: domains ?? '',
			},
		});
		expectStatus(updated, 200, 'setting Allowed HTTP Request Domains');
	};

	/** Saves the template with its HTTP Request node's URL set to `url`, as the user edits it, and runs it. */
	const runOwnCallAt = async (url: string): Promise<ExecutionResult> => {
		const { id } = saved[OWN_CALL];
		const read = await n8n.requestAsOwner('GET', `/rest/workflows/${id}`);
		expectStatus(read, 200, `reading ${OWN_CALL}`);
		const workflow = dataOf<{
			versionId: string;
			name: string;
			nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
			connections: unknown;
		}>(read);
		const edited = await n8n.requestAsOwner('PATCH', `/rest/workflows/${id}`, {
			versionId: workflow.versionId,
			name: workflow.name,
			nodes: workflow.nodes.map((node) =>
				node.name === OWN_CALL_NODE ? { ...node, parameters: { ...node.parameters, url } } : node,
			),
			connections: workflow.connections,
		});
		expectStatus(edited, 200, `saving ${OWN_CALL} with its URL edited`);
		return await n8n.execute(id);
	};

	/** The run's status, and the error the HTTP Request node stopped with, as n8n stored it. */
	const ownCallError = (result: ExecutionResult) => {
		const error = result.data.resultData.runData[OWN_CALL_NODE]?.[0]?.error as
			{ message: string; httpCode?: string | null } | undefined;
		return { status: result.status, message: error?.message, httpCode: error?.httpCode };
	};

	describe('an endpoint the node does not cover, with the credential in the HTTP Request node', () => {
		beforeAll(async () => {
			// Another host: `localhost`, not the sandbox's 127.0.0.1. Allowed HTTP Request Domains
			// compares the host name alone, so another port of 127.0.0.1 would be allowed too.
			const { token } = api.sandbox.environments.sandbox;
			const received: Array<{ path: string; token: boolean }> = [];
			const server = createServer((request, response) => {
				// Whether it came with the token, never the token: a failing test shows this record.
				received.push({
					path: request.url ?? '',
					token: request.headers.authorization === `Bearer ${token}`,
				});
				response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":{}}');
			});
			await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
			elsewhere = {
				server,
				url: `http://localhost:${(server.address() as AddressInfo).port}`,
				received,
			};
		});

		it('sends the token to the service’s host the URL names, with the domains allowed set to it', async () => {
			const { baseUrl } = api.sandbox.environments.sandbox;
			await allowDomains(new URL(baseUrl).hostname);
			await api.control('DELETE', '/requests');
			// The user puts their base URL in front of the path; the sandbox implements the
			// specification alone, which has no read of one work order, so it answers 404, and a 404,
			// not a 401, says the token came and was accepted.
			const result = await runOwnCallAt(`${baseUrl}/failures/1`);
			const calls = (await api.requests()).map(({ method, path, status, headers }) => ({
				method,
				path,
				status,
				authorization: headers.authorization,
			}));
			expect(calls).toEqual([
				{ method: 'GET', path: '/failures/1', status: 404, authorization: 'Bearer ***' },
			]);
			expect(ownCallError(result)).toEqual({
				status: 'error',
				message: 'The resource you are requesting could not be found',
				httpCode: '404',
			});
			expect(elsewhere.received).toEqual([]);
		});

		it('sends the token to any host while the credential allows all domains', async () => {
			await allowDomains(undefined);
			const result = await runOwnCallAt(`${elsewhere.url}/v3/failures/1`);
			expect(result.status).toBe('success');
			expect(elsewhere.received).toEqual([{ path: '/v3/failures/1', token: true }]);
			elsewhere.received.length = 0;
		});

		(REFUSES_OTHER_HOSTS ? it : it.skip)(
			'refuses to send it to another host once the domains allowed are the service’s',
			async () => {
				const { baseUrl } = api.sandbox.environments.sandbox;
				await allowDomains(new URL(baseUrl).hostname);
				await api.control('DELETE', '/requests');
				const result = await runOwnCallAt(`${elsewhere.url}/v3/failures/1`);
				expect(ownCallError(result)).toMatchObject({
					status: 'error',
					// n8n 2.0 names the credential type and the whole URL, 2.41 the host alone.
					message: expect.stringMatching(
						/^Domain not allowed: This credential .*restricted from accessing (http:\/\/)?localhost:/,
					),
				});
				expect(elsewhere.received).toEqual([]);
				expect(await api.requests()).toEqual([]);
			},
		);
	});

	/** Publishes a saved trigger template and registers its Production URL for `events` in the sandbox. */
	const publish = async (file: string, events: string[]) => {
		const { id, versionId, nodes } = saved[file];
		const activated = await n8n.requestAsOwner('POST', `/rest/workflows/${id}/activate`, {
			versionId,
		});
		expectStatus(activated, 200, `publishing ${file}`);
		const trigger = nodes.find((node) => node.type === TRIGGER_NODE);
		const production = n8n.url(`/webhook/${trigger?.webhookId}/webhook`);
		// A delivery without the secret starts nothing: the trigger answers it 401 once n8n serves the
		// URL, n8n itself 404 before.
		await n8n.waitFor(
			async () =>
				(await fetch(production, { method: 'POST', signal: AbortSignal.timeout(30_000) }))
					.status === 401,
			`the Production URL of ${file} to be served`,
			120_000,
		);
		const url = `${production}?token=${WEBHOOK_SECRET}`;
		await api.control('POST', '/webhooks', { url, method: 'POST', events });
		return id;
	};

	/** The execution of a workflow after `before` (an execution ID), once it has ended. */
	const nextRun = async (workflowId: string, before: number | undefined, what: string) => {
		let run: (ExecutionResult & { id: number }) | null = null;
		await waitUntil(
			async () => {
				run = await n8n.newestExecution(workflowId);
				return !!run && run.id !== before && !['new', 'running', 'waiting'].includes(run.status!);
			},
			what,
			120_000,
		);
		return run as unknown as ExecutionResult & { id: number };
	};

	const openQueries = async () =>
		(await api.requests())
			.filter((request) => request.method === 'GET' && request.path === '/failures/open')
			.map((request) => request.query.s_local_id);

	it('reacts to a work order the sandbox reports: its location’s open work orders', async () => {
		const id = await publish('react-to-work-order-events.json', ['FAILURE_CREATED']);
		const before = (await n8n.newestExecution(id))?.id;
		await api.control('DELETE', '/requests');
		await api.control('POST', '/failures', { local_id: 3, description: 'Leaking tap' });
		const result = await nextRun(id, before, 'the events template to run on FAILURE_CREATED');
		expect(result.status).toBe('success');
		expect(outputOf(result, 'Work Order Events')).toEqual([
			expect.objectContaining({ event: 'FAILURE_CREATED' }),
		]);
		expect(await openQueries()).toEqual(['3']);
	});

	it('routes a work order by approval: waiting when reported, its location’s open work orders once approved', async () => {
		// Only this template's URL is registered: the events template's runs would query too.
		await api.control('DELETE', '/webhooks');
		const id = await publish('route-work-orders-by-approval.json', [
			'FAILURE_CREATED',
			'FAILURE_APPROVED',
		]);
		let before = (await n8n.newestExecution(id))?.id;
		const reported = (await api.control('POST', '/failures', { local_id: 4 })) as {
			data: { id: string };
		};
		const waiting = await nextRun(id, before, 'the approval template to run on FAILURE_CREATED');
		expect(outputOf(waiting, 'Waiting Or Declined')).toEqual([
			expect.objectContaining({ event: 'FAILURE_CREATED' }),
		]);
		expect(waiting.data.resultData.runData['Open Work Orders Of Its Location']).toBeUndefined();
		before = waiting.id;
		await api.control('DELETE', '/requests');
		await api.control('POST', `/failures/${reported.data.id}/approve`);
		const approved = await nextRun(id, before, 'the approval template to run on FAILURE_APPROVED');
		expect(approved.status).toBe('success');
		expect(outputOf(approved, 'Approved?')).toEqual([
			expect.objectContaining({ event: 'FAILURE_APPROVED' }),
		]);
		expect(await openQueries()).toEqual(['4']);
	});
});
