import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { ENDPOINTS } from '../../nodes/shared/endpoints.generated';
import { testAnswer, unusableBaseUrl } from '../../nodes/shared/errors/messages';
import type { LoggedRequest } from '../../sandbox';
import { ScriptedServer } from '../helpers/scriptedServer';
import { expectCaseRan } from './assertions';
import {
	CAPPED_TOTAL,
	HOSTILE_TOKEN,
	HostileApi,
	hostileWorkflow,
	PAGE_CAP,
	TRICKLE_TIMEOUT_SECONDS,
} from './hostile';
import {
	N8N_NODE_MODULES,
	N8nInstance,
	PACKAGE_NAME,
	TESTING_PINNED_N8N,
	outputOf,
	resolveFrom,
	type ExecutionResult,
} from './n8n';
import { SandboxClient } from './sandboxClient';
import {
	actionsWorkflow,
	API_CREDENTIAL,
	caseNodeName,
	credentials,
	marksIn,
	triggerWorkflow,
	WEBHOOK_ID,
	WEBHOOK_SECRET,
} from './workflows';

jest.setTimeout(600_000);

const n8n = new N8nInstance();

const api = new SandboxClient();
const hostile = new HostileApi();
const { control, requests, cases } = api;

let run: ExecutionResult;
let logged: LoggedRequest[];

beforeAll(async () => {
	await api.start();
	await hostile.start();
	await n8n.setup();
	const { baseUrl, token } = api.sandbox.environments.sandbox;
	await n8n.importFiles(
		[...credentials(baseUrl, token), hostile.credential()],
		[actionsWorkflow(cases), triggerWorkflow(), hostileWorkflow()],
	);
	run = await n8n.execute('mmE2eActions0001');
	logged = await requests();
});

afterAll(async () => {
	await n8n.stop();
	await api.close();
	await hostile.stop();
});

describe('the action node in a real n8n', () => {
	it('sends requests that keep spec/openapi.yaml and gets answers that keep it', () => {
		expect(api.sandbox.violations()).toEqual([]);
	});

	it('runs the workflow to success', () => {
		expect(run.data.resultData.error).toBeUndefined();
		expect(run.status).toBe('success');
	});

	it('loads from a community-package folder without node_modules, so zod and n8n-workflow come from n8n', () => {
		expect(existsSync(join(n8n.packageDir, 'dist'))).toBe(true);
		expect(existsSync(join(n8n.packageDir, 'node_modules'))).toBe(false);
		// The built node imports zod, which the package folder cannot resolve by itself…
		const built = readFileSync(
			join(n8n.packageDir, 'dist/nodes/MaintenanceManagement/MaintenanceManagement.node.js'),
			'utf8',
		);
		expect(built).toMatch(/require\("zod\/v3"\)/);
		expect(built).not.toMatch(/require\("zod"\)/);
		expect(built).not.toMatch(/class ZodError/);
		expect(resolveFrom(n8n.packageDir, 'zod/v3')).toBeNull();
		// …but n8n's own module folder can, and n8n hands its folders to the packages it loads.
		expect(resolveFrom(join(N8N_NODE_MODULES, 'n8n'), 'zod/v3')).toContain(
			`${join(N8N_NODE_MODULES, 'zod')}/`,
		);
		// Planned Job Create validates its body with zod before sending: it ran and was sent.
		expect(logged.some((r) => r.method === 'POST' && r.path === '/works' && r.status === 201)).toBe(
			true,
		);
	});

	it.each(cases.map((c) => [caseNodeName(c), c] as const))(
		'%s: request logged by the sandbox, output asserted',
		async (_name, testCase) => {
			await expectCaseRan(run, logged, testCase);
		},
	);

	it('Return All reads all 4,500 work orders over three pages of 2,000', () => {
		expect(outputOf(run, 'Return All')).toHaveLength(4500);
		const pages = logged
			.filter((r) => r.path === '/failures' && r.query.limit === '2000')
			.map((r) => r.query.page);
		expect(pages).toEqual(['1', '2', '3']);
	});

	it('Continue On Fail: the bad item becomes an error item, the good ones are created', () => {
		const output = outputOf(run, 'Continue On Fail');
		expect(output).toHaveLength(3);
		expect(output[0]).toMatchObject({ code: 'E2E-OK-1', type: 'stock-material' });
		// zod's validation, inside n8n, names the field and the item.
		expect(String(output[1].error)).toMatch(/item 1: "code" \(Code\)/);
		expect(output[2]).toMatchObject({ code: 'E2E-OK-3' });
		const created = logged
			.filter((r) => r.path === '/stocks/materials' && r.method === 'POST')
			.map((r) => (r.body as { code: string }).code);
		expect(created).toEqual(expect.arrayContaining(['E2E-OK-1', 'E2E-OK-3']));
		expect(created).not.toContain('');
	});

	it('an API error says what happened and what to do, and keeps the spec message in its description', () => {
		expect(outputOf(run, 'API Error')).toEqual([
			expect.objectContaining({
				error: 'Location 999999 was not found (404). Check the ID, or list locations to find it.',
				description: expect.stringContaining('Resource not found'),
			}),
		]);
	});

	it('a filter whose expression gives nothing fails naming it, and no list is read without it', () => {
		expect(outputOf(run, 'Empty Filter')).toEqual([
			expect.objectContaining({
				error:
					'"Location ID" (s_local_id) is empty: its expression {{ $json.location_id }} gave nothing (undefined)',
			}),
		]);
		const open = logged.filter((r) => r.path === '/failures/open');
		expect(open.length).toBeGreaterThan(0);
		expect(open.every((r) => r.query.s_local_id !== undefined)).toBe(true);
	});

	it('never prints the token', () => {
		expect(JSON.stringify(run)).not.toContain(api.sandbox.environments.sandbox.token);
	});
});

describe('the action node against a misbehaving API, in a real n8n', () => {
	let hostileRun: ExecutionResult;
	beforeAll(async () => {
		hostileRun = await n8n.execute('mmE2eHostile0001');
	});

	it('does not follow a redirect to another origin: an error names it, and the token stays home', () => {
		const [output] = outputOf(hostileRun, 'Redirect Elsewhere');
		expect(String(output.error)).toMatch(/redirected to another address/);
		expect(hostile.elsewhere.requests).toHaveLength(0);
	});

	it('Return All reads every record when the server caps the page size', () => {
		const output = outputOf(hostileRun, 'Capped Return All');
		expect(output).toHaveLength(CAPPED_TOTAL);
		expect(new Set(output.map((record) => record.id)).size).toBe(CAPPED_TOTAL);
		const asked = hostile.api.requests.filter((r) => r.path === '/v3/locations');
		expect(asked.map((r) => r.query.limit)).toEqual(['2000', String(PAGE_CAP), String(PAGE_CAP)]);
	});

	it('retries a read whose connection was dropped', () => {
		expect(outputOf(hostileRun, 'Dropped Read')).toEqual([
			expect.objectContaining({ id: '2', type: 'location' }),
		]);
		expect(hostile.api.requests.filter((r) => r.path === '/v3/locations/2')).toHaveLength(2);
	});

	it('ends a read whose answer trickles in past the Timeout, which limits the whole request', () => {
		expect(outputOf(hostileRun, 'Trickled Read')).toEqual([
			expect.objectContaining({
				error: `No complete answer from the API within the Timeout (${TRICKLE_TIMEOUT_SECONDS} s). Raise the Timeout under Request Options, or try again later.`,
			}),
		]);
	});

	it('never prints the token', () => {
		expect(JSON.stringify(hostileRun)).not.toContain(HOSTILE_TOKEN);
	});
});

describe('the trigger and the AI tool in a running n8n', () => {
	const webhookUrl = (query: string) => n8n.url(`/webhook/${WEBHOOK_ID}/webhook${query}`);
	/** The statuses of the trigger workflow's executions, as n8n lists them. */
	const triggerRuns = async () => {
		const filter = encodeURIComponent(JSON.stringify({ workflowId: 'mmE2eTrigger0001' }));
		const executions = (await n8n.getAsOwner(`/rest/executions?filter=${filter}`)) as {
			data: { results: Array<{ status: string }> };
		};
		return executions.data.results.map((execution) => execution.status);
	};

	beforeAll(async () => {
		await n8n.publishWorkflow('mmE2eTrigger0001');
		await n8n.start();
		await n8n.waitFor(
			async () =>
				(
					await fetch(webhookUrl(`?token=${WEBHOOK_SECRET}`), {
						method: 'POST',
						headers: { 'Content-Type': 'application/json' },
						body: '{"ping":true}',
					})
				).status !== 404,
			'the webhook to be registered',
		);
		await control('DELETE', '/requests');
	});

	it('registers the node as an AI-agent tool', async () => {
		const types = (await n8n.getAsOwner('/types/nodes.json')) as Array<{ name: string }>;
		const names = types.map((t) => t.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'n8n-nodes-maintenance-management.maintenanceManagement',
				'n8n-nodes-maintenance-management.maintenanceManagementTool',
				'n8n-nodes-maintenance-management.maintenanceManagementTrigger',
			]),
		);
	});

	it("gives n8n's node creator the codex: categories and the words users search for", async () => {
		const types = (await n8n.getAsOwner('/types/nodes.json')) as Array<{
			name: string;
			codex?: { categories?: string[]; alias?: string[] };
		}>;
		for (const name of ['maintenanceManagement', 'maintenanceManagementTrigger']) {
			const type = types.find((t) => t.name === `n8n-nodes-maintenance-management.${name}`);
			expect(type?.codex?.categories).toEqual(expect.arrayContaining(['Productivity']));
			expect(type?.codex?.alias).toEqual(expect.arrayContaining(['work order', 'planned job']));
		}
	});

	// Checked in the pinned n8n, whose route and version padding n8n-core's output-schema-resolver gives.
	const itInPinned = TESTING_PINNED_N8N ? it : it.skip;

	itInPinned(
		"serves the action node's output schema for every operation, as the editor asks for it",
		async () => {
			// The editor's request: the node type, the version padded to major.minor.patch, the resource and
			// the operation. Not for the trigger, which n8n gives no preview.
			const schemaOf = async (type: string, resource: string, operation: string) => {
				const answer = await fetch(
					n8n.url(`/schemas/${PACKAGE_NAME}.${type}/2.0.0/${resource}/${operation}.json`),
				);
				const body =
					answer.status === 200 ? ((await answer.json()) as { properties?: object }) : null;
				return { status: answer.status, body };
			};
			const operations = Object.entries(resources).flatMap(([resource, { operations }]) =>
				Object.keys(operations).map((operation) => [resource, operation]),
			);
			// One operation for each endpoint of the spec.
			expect(operations).toHaveLength(Object.keys(ENDPOINTS).length);
			const served = await Promise.all(
				operations.map(async ([resource, operation]) => {
					const { status, body } = await schemaOf('maintenanceManagement', resource, operation);
					return [`${resource} ${operation}`, status, Object.keys(body?.properties ?? {})[0]];
				}),
			);
			expect(served).toEqual(operations.map(([r, o]) => [`${r} ${o}`, 200, 'id']));
			expect((await schemaOf('maintenanceManagement', 'material', 'remove')).status).toBe(404);
		},
	);

	it("the trigger's notice and panel say where to register the URL with the secret, and speak of the service alone", async () => {
		const types = (await n8n.getAsOwner('/types/nodes.json')) as Array<{
			name: string;
			properties: Array<{ name: string; type: string; displayName: string }>;
			triggerPanel?: {
				executionsHelp?: { inactive?: string };
				activationHint?: { inactive?: string };
			};
		}>;
		const trigger = types.find(
			(t) => t.name === 'n8n-nodes-maintenance-management.maintenanceManagementTrigger',
		);
		const notice = trigger?.properties.find((p) => p.type === 'notice')?.displayName;
		expect(notice).toMatch(
			/service's webhook settings, for POST or PATCH, with the secret as Protection says/,
		);
		expect(trigger?.triggerPanel?.executionsHelp?.inactive).toMatch(/service's webhook settings/);
		expect(trigger?.triggerPanel?.activationHint?.inactive).toMatch(/register the Test URL/);
		expect(JSON.stringify(trigger)).not.toMatch(
			/README|127\.0\.0\.1|localhost|:4010|npm run|sandbox console|clone of the package/,
		);
	});

	it('the credential forms say where the token comes from, what Test proves, the form of each base URL and how deliveries carry the secret', async () => {
		const types = (await n8n.getAsOwner('/types/credentials.json')) as Array<{
			name: string;
			properties: Array<{ name: string; type: string; displayName: string; hint?: string }>;
		}>;
		const form = (name: string) => types.find((t) => t.name === name)?.properties ?? [];
		const api = form('maintenanceManagementApi');
		expect(api[0]).toMatchObject({ type: 'notice' });
		expect(api[0].displayName).toMatch(/personal access token .* Test reads one location/);
		expect(api.find((p) => p.name === 'productionBaseUrl')?.hint).toMatch(
			/ending with \/v3, such as https:\/\/api.example.com\/v3/,
		);
		const webhook = form('maintenanceManagementWebhookApi');
		expect(webhook[0].displayName).toMatch(/\?token=SECRET.*X-Webhook-Secret.*password/);
	});

	it('receives events from the sandbox by POST and PATCH, ignores an unselected one, refuses a wrong secret', async () => {
		await api.subscribeTrigger(
			webhookUrl(`?token=${WEBHOOK_SECRET}`),
			webhookUrl('?token=wrong-secret'),
		);

		const created = await api.deliver('FAILURE_CREATED', {
			type: 'failure',
			id: '1',
			attributes: {},
		});
		expect(created.sort()).toEqual([200, 401]);
		expect(await api.deliver('FILE_DELETED')).toEqual([200]);
		expect(await api.deliver('BUY_ORDER_UPDATED')).toEqual([200]);

		const markers = async () => marksIn(await requests());
		await n8n.waitFor(
			async () => (await markers()).length >= 2,
			'the triggered workflows to run',
			60_000,
		);
		expect((await markers()).sort()).toEqual(['BUY_ORDER_UPDATED:PATCH', 'FAILURE_CREATED:POST']);
		// n8n ran the trigger workflow exactly twice: not for the ignored event, the wrong secret or the
		// readiness probe. A run may still be saving when its request reaches the sandbox.
		const finished = (status: string) => !['new', 'running', 'waiting'].includes(status);
		await n8n.waitFor(
			async () => (await triggerRuns()).every(finished),
			'the trigger runs to finish',
		);
		expect(await triggerRuns()).toEqual(['success', 'success']);
	});

	it('answers an unselected event 200 with the reason, and a wrong secret 401, starting nothing', async () => {
		const post = (query: string, event: string) =>
			fetch(webhookUrl(query), {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ event, data: {} }),
			});
		const ignored = await post(`?token=${WEBHOOK_SECRET}`, 'FILE_DELETED');
		expect(ignored.status).toBe(200);
		expect(await ignored.json()).toEqual({
			received: true,
			ignored: true,
			event: 'FILE_DELETED',
			reason: 'The event is not selected in the trigger',
		});
		const refused = await post('?token=wrong-secret', 'FAILURE_CREATED');
		expect(refused.status).toBe(401);
		expect(JSON.stringify(await refused.json())).not.toContain(WEBHOOK_SECRET);
		const missing = await post('', 'FAILURE_CREATED');
		expect(missing.status).toBe(401);
		expect(await triggerRuns()).toEqual(['success', 'success']);
	});

	it('answers a form or text body, as a web page sends one, 415 without starting anything', async () => {
		const before = await triggerRuns();
		const event = JSON.stringify({ event: 'FAILURE_CREATED', data: {} });
		for (const [type, body] of [
			['application/x-www-form-urlencoded', 'event=FAILURE_CREATED'],
			['text/plain;charset=UTF-8', event],
		]) {
			const response = await fetch(webhookUrl(`?token=${WEBHOOK_SECRET}`), {
				method: 'POST',
				headers: { 'Content-Type': type },
				body,
			});
			expect(response.status).toBe(415);
			expect(await response.json()).toEqual({
				message:
					'Unsupported Media Type: send the event as JSON, with Content-Type: application/json',
			});
		}
		expect(await triggerRuns()).toEqual(before);
	});

	/** The credential's Test from the credential's modal: n8n's REST call, with the data entered. */
	const testCredential = async (data: Record<string, string>) => {
		const answer = (await n8n.getAsOwner('/rest/credentials/test', {
			credentials: { ...API_CREDENTIAL, type: 'maintenanceManagementApi', data },
		})) as { data?: unknown };
		return (answer.data ?? answer) as { status?: string; message?: string };
	};
	/** The Test of a production credential with this token and base URL. */
	const testProduction = async (accessToken: string, productionBaseUrl: string) =>
		await testCredential({ accessToken, environment: 'production', productionBaseUrl });

	it("the credential's Test passes in the environment of the token and explains a token of the other", async () => {
		const { baseUrl, token } = api.sandbox.environments.sandbox;
		expect(
			await testCredential({ accessToken: token, environment: 'sandbox', sandboxBaseUrl: baseUrl }),
		).toEqual({ status: 'OK', message: 'Connection successful!' });
		const otherEnvironment = await testProduction(
			token,
			baseUrl.replace('/sandbox/v3', '/production/v3'),
		);
		expect(otherEnvironment).toEqual({ status: 'Error', message: testAnswer.refused() });
		expect(JSON.stringify(otherEnvironment)).not.toContain(token);
	});

	it("the credential's Test refuses, before sending anything, every base URL the node refuses, in the node's words", async () => {
		const server = new ScriptedServer();
		await server.start();
		const token = 'tok_refused_base_url_5d1f3a';
		const { host } = new URL(server.url);
		try {
			for (const [baseUrl, problem] of [
				// A host that is not loopback: refused whatever it resolves to (the nodes suite sends one
				// that resolves to loopback).
				[
					'http://api.example.com/v3',
					'must start with https:// (plain http:// is allowed only for localhost)',
				],
				[server.url, 'must end with /v3'],
				[`${server.url}/v3?x=1`, 'must not contain a query (?…)'],
				[`${server.url}/v3#top`, 'must not contain a fragment (#…)'],
				[`http://user:pass@${host}/v3`, 'must not contain a user name or password'],
			]) {
				const { message, description } = unusableBaseUrl('Production Base URL', problem);
				expect(await testProduction(token, baseUrl)).toEqual({
					status: 'Error',
					message: `${message}. ${description}`,
				});
			}
			expect(server.requests).toEqual([]);
		} finally {
			await server.stop();
		}
	});

	it("the credential's Test calls a 200 that is not the API's answer a failure, and explains a 404", async () => {
		const server = new ScriptedServer();
		await server.start();
		const token = 'tok_html_page_test_73be02';
		const test = async () => await testProduction(token, `${server.url}/v3`);
		try {
			const sent = () => server.requests.map(({ path, headers }) => [path, headers.authorization]);
			server.reset(() => ({
				status: 200,
				headers: { 'Content-Type': 'text/html; charset=utf-8' },
				raw: '<!doctype html><title>Sign in</title>',
			}));
			expect(await test()).toEqual({
				status: 'Error',
				message: testAnswer.notTheApi(200, 'text/html'),
			});
			expect(sent()).toEqual([['/v3/locations', `Bearer ${token}`]]);
			server.reset(() => ({ status: 404, body: {} }));
			expect(await test()).toEqual({ status: 'Error', message: testAnswer.notFound() });
			expect(sent()).toEqual([['/v3/locations', `Bearer ${token}`]]);
		} finally {
			await server.stop();
		}
	});

	it("the credential's Test follows no redirect: another origin receives nothing, and n8n says why", async () => {
		const redirecting = new ScriptedServer();
		const elsewhere = new ScriptedServer();
		await redirecting.start();
		await elsewhere.start();
		const token = 'tok_redirected_test_9c2e51a7';
		const test = async () => await testProduction(token, `${redirecting.url}/v3`);
		try {
			// The web address of a service, say, sending the Test to its sign-in page on another host.
			redirecting.reset(() => ({
				status: 302,
				headers: { Location: `${elsewhere.url}/login?next=%2Fv3` },
				body: {},
			}));
			const crossOrigin = await test();
			expect(elsewhere.requests).toEqual([]);
			expect(redirecting.requests.map(({ headers }) => headers.authorization)).toEqual([
				`Bearer ${token}`,
			]);
			// Within the origin: not followed either, so one request in all.
			redirecting.reset(() => ({ status: 302, headers: { Location: '/v3/signin' }, body: {} }));
			const sameOrigin = await test();
			expect(redirecting.requests.map(({ path }) => path)).toEqual(['/v3/locations']);
			for (const answer of [crossOrigin, sameOrigin]) {
				expect(answer).toEqual({ status: 'Error', message: testAnswer.redirect(302) });
				expect(JSON.stringify(answer)).not.toContain(token);
			}
		} finally {
			await redirecting.stop();
			await elsewhere.stop();
		}
	});

	it('Include Headers: no form of the secret is in the stored execution data', async () => {
		const percentEncoded = [...WEBHOOK_SECRET]
			.map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
			.join('');
		const basic = Buffer.from(`svc:${WEBHOOK_SECRET}`).toString('base64');
		const before = (await n8n.newestExecution('mmE2eTrigger0001'))?.id;
		const delivered = await fetch(webhookUrl(`?token=${WEBHOOK_SECRET}`), {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				'X-Original-URI': `/webhook/x?token=${percentEncoded}`,
				Referer: `https://proxy.example/hook?token=${percentEncoded.toUpperCase()}`,
				'X-Forwarded-Authorization': `Basic ${basic}`,
				'X-Relay-Credentials': `basic ${basic}`,
				'X-Copy': WEBHOOK_SECRET.toUpperCase(),
				'X-E2e-Mark': 'headers-kept',
			},
			body: JSON.stringify({ event: 'FAILURE_CREATED', data: { id: '1' } }),
		});
		expect(delivered.status).toBe(200);
		await n8n.waitFor(async () => {
			const newest = await n8n.newestExecution('mmE2eTrigger0001');
			return newest !== null && newest.id !== before && newest.status === 'success';
		}, 'the Include Headers run to be stored');
		const stored = JSON.stringify((await n8n.newestExecution('mmE2eTrigger0001'))?.data);
		expect(stored).toContain('headers-kept');
		for (const form of [WEBHOOK_SECRET, percentEncoded, basic])
			expect(stored.toLowerCase()).not.toContain(form.toLowerCase());
	});

	it('answers a malformed body without starting anything', async () => {
		const response = await fetch(webhookUrl(`?token=${WEBHOOK_SECRET}`), {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: '{"event": "FAILURE_CREATED",',
		});
		expect(response.status).toBeGreaterThanOrEqual(400);
		expect(response.status).toBeLessThan(500);
	});
});
