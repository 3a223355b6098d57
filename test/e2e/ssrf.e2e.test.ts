import type { LoggedRequest } from '../../sandbox';
import { N8nInstance, outputOf, TESTING_PINNED_N8N, type ExecutionResult } from './n8n';
import { SandboxClient } from './sandboxClient';
import { ACTION_NODE, API_CREDENTIAL, apiCredential, START, storedAs } from './workflows';

/**
 * n8n 3.0 turns on SSRF protection, whose default block list holds loopback and the private ranges;
 * n8n 2.41 has it behind N8N_SSRF_PROTECTION_ENABLED. With it on and nothing allowed, the action node
 * fails a request to the sandbox, by its address (127.0.0.1) and by its name (localhost), with an error
 * naming the setting that lets it through; n8n run again with that setting, as the error words it,
 * reads the sandbox.
 */
jest.setTimeout(600_000);

const describeSsrf = TESTING_PINNED_N8N ? describe : describe.skip;
const NAMED_CREDENTIAL = { id: 'mmApiCredential02', name: 'Maintenance Management By Name' };
const WORKFLOW = 'mmE2eSsrf0000001';
const location = (name: string, credential: { id: string; name: string }, x: number) => ({
	id: name.toLowerCase().replace(' ', '-'),
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

/** Start → By Address (127.0.0.1) → By Name (localhost); both go on with their error items. */
const workflow = {
	...storedAs(WORKFLOW),
	name: 'SSRF protection',
	nodes: [
		START,
		location('By Address', API_CREDENTIAL, 200),
		location('By Name', NAMED_CREDENTIAL, 400),
	],
	connections: {
		Start: { main: [[{ node: 'By Address', type: 'main', index: 0 }]] },
		'By Address': { main: [[{ node: 'By Name', type: 'main', index: 0 }]] },
	},
};

const ROOM_3 = [expect.objectContaining({ id: '3', name: 'Room 3', code: 'R3' })];

/** The setting a node's error advises, as an administrator would apply it: `{ NAME: value }`. */
function advisedEnv(run: ExecutionResult, node: string): NodeJS.ProcessEnv {
	const [item] = outputOf(run, node) as Array<{ description?: string }>;
	const advice = /adds (\S+) to (N8N_SSRF_ALLOWED_[A-Z_]+) and restarts n8n\.$/.exec(
		item?.description ?? '',
	);
	if (!advice) throw new Error(`${node} advised no setting: ${JSON.stringify(item)}`);
	return { [advice[2]]: advice[1] };
}

describeSsrf('the action node with n8n SSRF protection on', () => {
	const n8n = new N8nInstance('ssrf');
	const api = new SandboxClient();
	let blocked: ExecutionResult;
	let blockedLog: LoggedRequest[];
	let byAddressBase = '';
	let byNameBase = '';

	beforeAll(async () => {
		await api.start();
		await n8n.setup({ N8N_SSRF_PROTECTION_ENABLED: 'true' });
		const { baseUrl, token } = api.sandbox.environments.sandbox;
		byAddressBase = baseUrl;
		byNameBase = baseUrl.replace('127.0.0.1', 'localhost');
		await n8n.importFiles(
			[apiCredential(byAddressBase, token), apiCredential(byNameBase, token, NAMED_CREDENTIAL)],
			[workflow],
		);
		blocked = await n8n.execute(WORKFLOW);
		blockedLog = await api.requests();
	});

	afterAll(async () => {
		await n8n.stop();
		await api.close();
	});

	it('fails both requests with an error naming the one setting that lets each through, sending nothing', () => {
		const refused = (host: string, baseUrl: string, allowance: string) => [
			{
				error: `n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) refused the request to ${host} (127.0.0.1)`,
				description: `Nothing was sent. To let this n8n reach ${baseUrl}, an administrator adds ${allowance} and restarts n8n.`,
				outcome: 'notSent',
			},
		];
		expect(outputOf(blocked, 'By Address')).toEqual(
			refused('127.0.0.1', byAddressBase, '127.0.0.1/32 to N8N_SSRF_ALLOWED_IP_RANGES'),
		);
		expect(outputOf(blocked, 'By Name')).toEqual(
			refused('localhost', byNameBase, 'localhost to N8N_SSRF_ALLOWED_HOSTNAMES'),
		);
		expect(blockedLog).toEqual([]);
	});

	it('reads the sandbox by its address once the advised N8N_SSRF_ALLOWED_IP_RANGES is applied', async () => {
		const env = advisedEnv(blocked, 'By Address');
		expect(env).toEqual({ N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' });
		const run = await n8n.execute(WORKFLOW, env);
		expect(outputOf(run, 'By Address')).toEqual(ROOM_3);
	});

	it('reads the sandbox by its name once the advised N8N_SSRF_ALLOWED_HOSTNAMES is applied, which does not let the address through', async () => {
		const env = advisedEnv(blocked, 'By Name');
		expect(env).toEqual({ N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost' });
		const run = await n8n.execute(WORKFLOW, env);
		expect(outputOf(run, 'By Name')).toEqual(ROOM_3);
		// The host name setting never matches a URL written as an address, as n8n reads it.
		expect(outputOf(run, 'By Address')).toEqual([expect.objectContaining({ outcome: 'notSent' })]);
	});
});
