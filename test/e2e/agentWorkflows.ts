import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { N8N_NODE_MODULES, PACKAGE_NAME } from './n8n';
import { API_CREDENTIAL, packageNode, START, STORED_AS_NEW } from './workflows';

export const AGENT_NODE = '@n8n/n8n-nodes-langchain.agent';
export const TOOL_NODE = `${PACKAGE_NAME}.maintenanceManagementTool`;
/**
 * Whether the n8n under test has a langchain node at the version a suite uses (the compatibility
 * matrix runs older n8n, which may lack it): read from the node's built file.
 */
export function hasLangchainNode(file: string, version: RegExp): boolean {
	const path = join(N8N_NODE_MODULES, '@n8n/n8n-nodes-langchain/dist/nodes', file);
	return existsSync(path) && version.test(readFileSync(path, 'utf8'));
}

export const OPENAI_CREDENTIAL = { id: 'mmOpenAiScripted', name: 'Scripted model' };

/** A parameter as the editor's ✨ button sets it, for the model to fill. */
export const fromAI = (name: string, type: 'string' | 'number' = 'string') =>
	`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${name}', \`\`, '${type}') }}`;

/** The package's action node as an AI tool, at its newest version, with parameters set by the model. */
export const toolNode = (
	name: string,
	y: number,
	parameters: IDataObject,
	credential: { id: string; name: string } = API_CREDENTIAL,
) =>
	packageNode('tool', name, parameters, {
		type: TOOL_NODE,
		typeVersion: 2,
		position: [600, y],
		credential,
	});

/** A Get location tool whose Location ID the model fills. */
export const getLocationTool = (credential?: { id: string; name: string }) =>
	toolNode(
		'Get location',
		420,
		{
			resource: 'location',
			operation: 'get',
			id: { __rl: true, mode: 'id', value: fromAI('Location_ID') },
		},
		credential,
	);

/** A Create planned job tool whose name, locations and client the model fills. */
export const createPlannedJobTool = (credential?: { id: string; name: string }) =>
	toolNode(
		'Create planned job',
		540,
		{
			resource: 'work',
			operation: 'create',
			type: 'CYCLIC',
			name: fromAI('Name'),
			work_type_id: 1,
			local_id: fromAI('Location_IDs'),
			client_id: fromAI('Client_ID', 'number'),
			recurrence: { values: { DTSTART: '2026-05-01T08:00:00', FREQ: 'MONTHLY', INTERVAL: 1 } },
			interventions: { items: [{ id: 5, elements: 'EL-1' }] },
		},
		credential,
	);

/** The tools an agent gets: a list, a get and a create of the maintenance API. */
export const maintenanceTools = () => [
	toolNode('Open work orders', 300, {
		resource: 'failure',
		operation: 'getAllOpen',
		limit: fromAI('Limit', 'number'),
	}),
	getLocationTool(),
	createPlannedJobTool(),
];

/**
 * A manual start, n8n's AI Agent (3.1) with its OpenAI chat model (1.3) pointed at the scripted model by
 * the credential's Base URL, and the package's tools.
 */
export function agentWorkflow({
	tools = maintenanceTools() as Array<{ name: string }>,
	id = 'mmE2eAgent000001',
	versionId = '00000000-0000-4000-8000-000000000010',
	model = OPENAI_CREDENTIAL,
} = {}) {
	return {
		id,
		name: 'Maintenance agent',
		versionId,
		nodes: [
			START,
			{
				id: 'agent',
				name: 'AI Agent',
				type: AGENT_NODE,
				typeVersion: 3.1,
				position: [300, 0],
				parameters: {
					promptType: 'define',
					text: 'List the open work orders, read location 3, plan a roof check there, then read location 99999 and plan a lift check for client 999.',
					options: { maxIterations: 10 },
				},
			},
			{
				id: 'model',
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.3,
				position: [300, 200],
				parameters: {
					model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' },
					// The chat completions API, which the scripted model speaks (1.3 defaults to the Responses API).
					responsesApiEnabled: false,
					options: {},
				},
				credentials: { openAiApi: model },
			},
			...tools,
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			...toolConnections(tools, 'AI Agent'),
		},
		...STORED_AS_NEW,
	};
}

/** Each tool node connected to the node that uses it (an AI Agent or the MCP Server Trigger). */
export const toolConnections = (tools: Array<{ name: string }>, target: string) =>
	Object.fromEntries(
		tools.map((tool) => [tool.name, { ai_tool: [[{ node: target, type: 'ai_tool', index: 0 }]] }]),
	);
