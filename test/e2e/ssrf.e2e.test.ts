import type { LoggedRequest } from '../../sandbox';
import { N8nInstance, outputOf, TESTING_PINNED_N8N, type ExecutionResult } from './n8n';
import { SandboxClient } from './sandboxClient';
import { ACTION_NODE, API_CREDENTIAL, apiCredential, START, storedAs } from './workflows';

/**
 * n8n 3.0 turns on SSRF protection, whose default block list holds loopback and the private ranges;
 * n8n 2.41 has it behind N8N_SSRF_PROTECTION_ENABLED. With it on, and the sandbox's address on n8n's
 * own allow-list (N8N_SSRF_ALLOWED_IP_RANGES), the action node reads through it; a credential whose
 * address is still blocked (127.0.0.2, loopback too) fails with the node's error naming the settings.
 */
jest.setTimeout(600_000);

const describeSsrf = TESTING_PINNED_N8N ? describe : describe.skip;
const BLOCKED_CREDENTIAL = { id: 'mmApiCredential02', name: 'Maintenance Management Blocked' };
const WORKFLOW = 'mmE2eSsrf0000001';
const location = (name: string, credential: { id: string; name: string }, x: number) => ({
	id: name.toLowerCase(),
	name,
	type: ACTION_NODE,
	typeVersion: 2,
	position: [x, 0],
	parameters: {
		resource: 'location',
		operation: 'get',
		id: { __rl: true, mode: 'id', value: '3' },
	},
	credentials: { maintenanceManagementApi: credential },
	onError: 'continueRegularOutput',
});

/** Start → Allowed (the sandbox) → Blocked (a blocked address); both go on with their error items. */
const workflow = {
	...storedAs(WORKFLOW),
	name: 'SSRF protection',
	nodes: [
		START,
		location('Allowed', API_CREDENTIAL, 200),
		location('Blocked', BLOCKED_CREDENTIAL, 400),
	],
	connections: {
		Start: { main: [[{ node: 'Allowed', type: 'main', index: 0 }]] },
		Allowed: { main: [[{ node: 'Blocked', type: 'main', index: 0 }]] },
	},
};

describeSsrf('the action node with n8n SSRF protection on', () => {
	const n8n = new N8nInstance('ssrf');
	const api = new SandboxClient();
	let run: ExecutionResult;
	let logged: LoggedRequest[];

	beforeAll(async () => {
		await api.start();
		await n8n.setup({
			N8N_SSRF_PROTECTION_ENABLED: 'true',
			N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
		});
		const { baseUrl, token } = api.sandbox.environments.sandbox;
		const blocked = baseUrl.replace('127.0.0.1', '127.0.0.2');
		await n8n.importFiles(
			[apiCredential(baseUrl, token), apiCredential(blocked, token, BLOCKED_CREDENTIAL)],
			[workflow],
		);
		run = await n8n.execute(WORKFLOW);
		logged = await api.requests();
	});

	afterAll(async () => {
		await n8n.stop();
		await api.close();
	});

	it("reads the sandbox, whose address n8n's allow-list lets through", () => {
		expect(outputOf(run, 'Allowed')).toEqual([
			expect.objectContaining({ id: '3', name: 'Room 3', code: 'R3' }),
		]);
		expect(logged.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /locations/3',
		]);
	});

	it('fails a request to a blocked address with an error naming the settings, sending nothing', () => {
		const { baseUrl } = api.sandbox.environments.sandbox;
		expect(outputOf(run, 'Blocked')).toEqual([
			{
				error:
					"n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) refused the request to 127.0.0.2 (127.0.0.2)",
				description: `Nothing was sent. To let this n8n reach ${baseUrl.replace('127.0.0.1', '127.0.0.2')}, an administrator adds 127.0.0.2 to N8N_SSRF_ALLOWED_HOSTNAMES or 127.0.0.2/32 to N8N_SSRF_ALLOWED_IP_RANGES and restarts n8n.`,
				outcome: 'notSent',
			},
		]);
	});
});
