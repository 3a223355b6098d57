import { startSandbox, type LoggedRequest, type RunningSandbox } from '../../sandbox';
import { N8nInstance, outputOf, type ExecutionResult } from './n8n';
import { ScriptedModel, textOf } from './scriptedModel';
import { credentials } from './workflows';
import { agentWorkflow, hasLangchainNode, OPENAI_CREDENTIAL, TOOL_NODE } from './agentWorkflows';

jest.setTimeout(600_000);

/** The AI Agent 3.1 and the OpenAI chat model 1.3 exist in this n8n (the compatibility matrix runs older ones). */
const HAS_AGENT =
	hasLangchainNode('agents/Agent/Agent.node.js', /\b3\.1: new /) &&
	hasLangchainNode('llms/LMChatOpenAi/LmChatOpenAi.node.js', /version: \[[^\]]*\b1\.3\b/);
const describeIfAgent = HAS_AGENT ? describe : describe.skip;

const ANSWER =
	'I listed the open work orders, read location 3 and created the planned job. Location 99999 does not exist, and the second job was refused.';

/** What the scripted model does, turn by turn: five tool calls through $fromAI, then its answer. */
const model = new ScriptedModel([
	{ tool: 'Open_work_orders', args: { Limit: 50 } },
	{ tool: 'Get_location', args: { Location_ID: '3' } },
	{ tool: 'Create_planned_job', args: { Name: 'Roof check', Location_IDs: '3, 4', Client_ID: 1 } },
	{ tool: 'Get_location', args: { Location_ID: '99999' } },
	{ tool: 'Create_planned_job', args: { Name: 'Lift check', Location_IDs: '3', Client_ID: 999 } },
	{ answer: () => ANSWER },
]);

describeIfAgent('an AI Agent uses the node as its tools, with a scripted model', () => {
	const n8n = new N8nInstance('agent');
	let sandbox: RunningSandbox;
	let run: ExecutionResult;
	let logged: LoggedRequest[];
	let token: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: { failures: 200 }, quiet: true, contract: true });
		await model.start();
		await n8n.setup();
		const { baseUrl } = sandbox.environments.sandbox;
		token = sandbox.environments.sandbox.token;
		await n8n.importFiles(
			[
				...credentials(baseUrl, token),
				{
					...OPENAI_CREDENTIAL,
					type: 'openAiApi',
					data: { apiKey: 'sk-scripted-not-secret', url: model.url },
				},
			],
			[agentWorkflow()],
		);
		run = await n8n.execute(agentWorkflow().id);
		const control = await fetch(`${sandbox.controlUrl}/requests`);
		logged = ((await control.json()) as { requests: LoggedRequest[] }).requests;
	});

	afterAll(async () => {
		await n8n.stop();
		await model.stop();
		await sandbox.close();
	});

	it('runs the workflow, and the agent answers with the model’s final text', () => {
		expect(run.data.resultData.error).toBeUndefined();
		expect(outputOf(run, 'AI Agent')).toEqual([expect.objectContaining({ output: ANSWER })]);
	});

	it('offers the model each tool with the description built from its operation and its $fromAI parameters', () => {
		const tools = model.requests[0].tools ?? [];
		const byName = (part: string) => tools.find((t) => t.function.name.includes(part))!.function;
		expect(tools.map((t) => t.function.name).sort()).toEqual([
			'Create_planned_job',
			'Get_location',
			'Open_work_orders',
		]);
		expect(byName('Open_work').description).toMatch(/open work orders/i);
		expect(byName('Open_work').parameters).toMatchObject({ properties: { Limit: {} } });
		expect(byName('Create_planned').parameters).toMatchObject({
			properties: { Name: {}, Location_IDs: {}, Client_ID: {} },
		});
	});

	it('sends the sandbox the values the model chose', () => {
		const calls = logged.map((r) => `${r.method} ${r.path} ${r.status}`);
		expect(calls).toEqual([
			'GET /failures/open 200',
			'GET /locations/3 200',
			'POST /works 201',
			'GET /locations/99999 404',
			'POST /works 400',
		]);
		expect(logged[0].query).toMatchObject({ limit: '50' });
		expect(logged[2].body).toMatchObject({ name: 'Roof check', local_id: [3, 4], client_id: 1 });
		expect(logged[4].body).toMatchObject({ name: 'Lift check', local_id: [3], client_id: 999 });
	});

	it('gives the model compact records: 50 open work orders in under 20,000 characters, each under 400', () => {
		const [list] = model.toolResults();
		expect(list.length).toBeLessThanOrEqual(20_000);
		const records = JSON.parse(list) as Array<Record<string, unknown>>;
		expect(records).toHaveLength(50);
		for (const record of records) {
			expect(JSON.stringify(record).length).toBeLessThanOrEqual(400);
			expect(record).not.toHaveProperty('uuid');
			expect(Object.values(record)).not.toContain(null);
		}
	});

	it('gives the model the location and the created planned job, with its own type', () => {
		const [, location, created] = model.toolResults();
		expect(JSON.parse(location)).toEqual([
			expect.objectContaining({ id: '3', record_type: 'location', code: 'R3' }),
		]);
		expect(JSON.parse(created)).toEqual([
			expect.objectContaining({ name: 'Roof check', type: 'CYCLIC', local_id: [3, 4] }),
		]);
	});

	it('gives the model a 404 and a 400 that name the record or field and say what to do', () => {
		const [, , , notFound, refused] = model.toolResults();
		expect(notFound).toContain(
			'Location 99999 was not found (404). Check the ID, or list locations to find it.',
		);
		expect(refused).toContain('client_id: No client has this id.');
		expect(refused).toContain('Correct client_id and try again.');
	});

	it('never gives the model the token', () => {
		const everything = JSON.stringify(model.requests);
		expect(everything).not.toContain(token);
		expect(
			model.requests
				.flatMap((r) => r.messages)
				.map(textOf)
				.join('\n'),
		).not.toContain(token);
	});

	it('runs each tool call as a run of the package’s tool node', () => {
		const runs = (name: string) => run.data.resultData.runData[name]?.length ?? 0;
		expect([runs('Open work orders'), runs('Get location'), runs('Create planned job')]).toEqual([
			1, 2, 2,
		]);
		expect(TOOL_NODE).toBe('n8n-nodes-maintenance-management.maintenanceManagementTool');
	});
});
