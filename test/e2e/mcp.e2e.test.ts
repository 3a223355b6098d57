import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startSandbox, type LoggedRequest, type RunningSandbox } from '../../sandbox';
import { hasLangchainNode, maintenanceTools, toolConnections } from './agentWorkflows';
import { N8nInstance } from './n8n';
import { credentials, STORED_AS_NEW } from './workflows';

jest.setTimeout(600_000);

/** n8n's MCP Server Trigger 2 exists in this n8n (the compatibility matrix runs older ones). */
const HAS_MCP = hasLangchainNode('mcp/McpTrigger/McpTrigger.node.js', /version: \[[^\]]*\b2\b/);
const describeIfMcp = HAS_MCP ? describe : describe.skip;

const MCP_PATH = 'maintenance';

/** The MCP Server Trigger serving the package's tools: any MCP client can list and call them. */
const mcpWorkflow = () => {
	const tools = maintenanceTools().slice(0, 2);
	return {
		id: 'mmE2eMcpServer01',
		name: 'Maintenance MCP server',
		versionId: '00000000-0000-4000-8000-000000000011',
		nodes: [
			{
				id: 'mcp',
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '3c9b7a21-5d4e-4f60-8a1b-2c3d4e5f6a7b',
				parameters: { path: MCP_PATH },
			},
			...tools,
		],
		connections: toolConnections(tools, 'MCP Server Trigger'),
		...STORED_AS_NEW,
	};
};

/** The text of a tool result. */
const textOf = (result: unknown): string =>
	((result as { content?: Array<{ type: string; text?: string }> }).content ?? [])
		.map((part) => part.text ?? '')
		.join('');

describeIfMcp(
	'the package’s tools through n8n’s MCP Server Trigger, from the MCP SDK client',
	() => {
		const n8n = new N8nInstance('mcp');
		const client = new Client({ name: 'maintenance-e2e', version: '1.0.0' });
		let sandbox: RunningSandbox;
		let token: string;

		beforeAll(async () => {
			sandbox = await startSandbox({
				port: 0,
				seed: { failures: 200 },
				quiet: true,
				contract: true,
			});
			await n8n.setup();
			const { baseUrl } = sandbox.environments.sandbox;
			token = sandbox.environments.sandbox.token;
			const workflow = mcpWorkflow();
			await n8n.importFiles(credentials(baseUrl, token), [workflow]);
			await n8n.publishWorkflow(workflow.id);
			await n8n.start();
			const url = new URL(n8n.url(`/mcp/${MCP_PATH}`));
			await n8n.waitFor(async () => {
				await client.connect(new StreamableHTTPClientTransport(url));
				return true;
			}, 'the MCP server');
		});

		afterAll(async () => {
			await client.close();
			await n8n.stop();
			await sandbox.close();
		});

		const requests = async (): Promise<LoggedRequest[]> =>
			(
				(await (await fetch(`${sandbox.controlUrl}/requests`)).json()) as {
					requests: LoggedRequest[];
				}
			).requests;

		it('lists the tools, each described by its operation, with the parameters the model fills', async () => {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual(['Get_location', 'Open_work_orders']);
			const get = tools.find((tool) => tool.name === 'Get_location')!;
			expect(get.description).toMatch(/location/i);
			expect(get.inputSchema).toMatchObject({ properties: { Location_ID: {} } });
		});

		it('calls a read and gets a compact record', async () => {
			const result = await client.callTool({
				name: 'Get_location',
				arguments: { Location_ID: '3' },
			});
			const text = textOf(result);
			expect(text.length).toBeLessThan(400);
			expect(JSON.parse(text)).toEqual([
				expect.objectContaining({ id: '3', record_type: 'location', code: 'R3' }),
			]);
			expect(text).not.toContain('local_uuid');
			expect((await requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toContain(
				'GET /locations/3 200',
			);
		});

		it('calls a failing read and gets the actionable message', async () => {
			const result = await client.callTool({
				name: 'Get_location',
				arguments: { Location_ID: '99999' },
			});
			expect(textOf(result)).toContain(
				'Location 99999 was not found (404). Check the ID, or list locations to find it.',
			);
			expect(JSON.stringify(result)).not.toContain(token);
		});

		it('lists open work orders within the size an assistant can take', async () => {
			const result = await client.callTool({ name: 'Open_work_orders', arguments: { Limit: 50 } });
			const text = textOf(result);
			expect(text.length).toBeLessThanOrEqual(20_000);
			expect(JSON.parse(text)).toHaveLength(50);
			expect(text).not.toContain(token);
		});
	},
);
