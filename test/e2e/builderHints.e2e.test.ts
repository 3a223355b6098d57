import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { MaintenanceManagementTrigger } from '../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { N8N_NODE_MODULES, N8nInstance, PACKAGE_NAME } from './n8n';
import { dataOf, expectStatus } from './registry';

jest.setTimeout(600_000);

/**
 * What n8n's AI workflow builders read of the package. The AI Workflow Builder, Instance AI and the
 * instance's MCP server (its workflow-builder tools search_nodes and get_node_types) read a community
 * node through n8n's node catalogue: search_nodes lists a node with its builderHint.searchHint, its
 * related nodes and each resource and operation option's builderHint; get_node_types gives the
 * TypeScript definitions that @n8n/workflow-sdk's generateNodeTypeFile writes from the node's
 * description, with each parameter's builderHint in its JSDoc. Here the pinned n8n, with the built
 * package installed, answers both tools to an MCP client, and every hint of both nodes must be there.
 *
 * n8n 1.123 and 2.0 have no workflow-builder tools in their MCP server and no builderHint: skipped there.
 */
const HAS_BUILDER_TOOLS = existsSync(
	join(
		N8N_NODE_MODULES,
		'n8n/dist/modules/mcp/tools/workflow-builder/get-workflow-node-types.tool.js',
	),
);
const describeIfBuilder = HAS_BUILDER_TOOLS ? describe : describe.skip;

/** A parameter's builder hint: the node, the parameter's name and the hint. */
interface ParameterHint {
	node: string;
	parameter: string;
	hint: string;
}

/** Every parameter builder hint of a list of properties, nested ones included, each once. */
const parameterHints = (node: string, list: unknown[] = []): ParameterHint[] =>
	(
		list as Array<
			Partial<INodeProperties> & { builderHint?: { propertyHint?: string }; values?: unknown[] }
		>
	).flatMap((property) => [
		...(property.name && property.type && property.builderHint?.propertyHint
			? [{ node, parameter: property.name, hint: property.builderHint.propertyHint }]
			: []),
		...parameterHints(node, property.options),
		...parameterHints(node, property.values),
	]);

/** The builder hints of the options of a node's Resource selector, by resource value. */
const resourceHints = (description: INodeTypeDescription) =>
	(
		(description.properties.find((property) => property.name === 'resource')?.options ??
			[]) as Array<{ value: string; builderHint?: { propertyHint: string } }>
	).flatMap(({ value, builderHint }) =>
		builderHint ? [{ resource: value, hint: builderHint.propertyHint }] : [],
	);

/**
 * The parameter each `@builderHint` of generated type definitions annotates: the hint and the name of
 * the property its JSDoc block stands above.
 */
const annotated = (definitions: string): Array<{ parameter: string; hint: string }> =>
	[
		...definitions.matchAll(
			/^\s*\* @builderHint (.+)\n(?:\s*\*(?!\/).*\n)*?\s*\*\/\n\s*'?([\w$]+)'?\??:/gm,
		),
	].map(([, hint, parameter]) => ({ parameter, hint }));

const unique = <T>(list: T[]): T[] => [
	...new Map(list.map((entry) => [JSON.stringify(entry), entry])).values(),
];

const NODES = [new MaintenanceManagement(), new MaintenanceManagementTrigger()].map(
	({ description }) => ({ id: `${PACKAGE_NAME}.${description.name}`, description }),
);

/** The text of a tool result. */
const textOf = (result: unknown): string =>
	((result as { content?: Array<{ type: string; text?: string }> }).content ?? [])
		.map((part) => part.text ?? '')
		.join('');

describeIfBuilder('the AI workflow builders’ seat: the package’s hints in the pinned n8n', () => {
	const n8n = new N8nInstance('builder-hints');
	const client = new Client({ name: 'maintenance-builder-hints', version: '1.0.0' });

	beforeAll(async () => {
		await n8n.setup();
		await n8n.start();
		const enabled = await n8n.requestAsOwner('PATCH', '/rest/mcp/settings', {
			mcpAccessEnabled: true,
		});
		expectStatus(enabled, 200, 'enabling MCP access');
		const key = await n8n.requestAsOwner('GET', '/rest/mcp/api-key');
		expectStatus(key, 200, 'reading the MCP API key');
		const { apiKey } = dataOf<{ apiKey: string }>(key);
		await client.connect(
			new StreamableHTTPClientTransport(new URL(n8n.url('/mcp-server/http')), {
				requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
			}),
		);
	});

	afterAll(async () => {
		await client.close();
		await n8n.stop();
	});

	/** Calls one of the MCP server's tools, failing with its text when it answers an error. */
	const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
		const result = await client.callTool({ name, arguments: args }, undefined, {
			timeout: 240_000,
		});
		const text = textOf(result);
		if (result.isError) throw new Error(`${name} answered an error: ${text}`);
		return text;
	};

	it('has hints on both nodes, the resources a builder mistakes and the parameters it gets wrong most', () => {
		const [action, trigger] = NODES;
		expect(action.description.builderHint?.searchHint).toMatch(/never writes/);
		expect(trigger.description.builderHint?.searchHint).toMatch(/Production URL/);
		expect(resourceHints(action.description).map(({ resource }) => resource)).toEqual([
			'failure',
			'work',
		]);
		expect(
			unique(parameterHints(action.id, action.description.properties))
				.map(({ parameter }) => parameter)
				.sort(),
		).toEqual(
			[
				'buyOrderId',
				'client',
				'id',
				'materialId',
				'output',
				'quoteId',
				'returnAll',
				'sellOrderId',
				'simplify',
				'supplier',
				'warehouseId',
			].sort(),
		);
		expect(
			unique(parameterHints(trigger.id, trigger.description.properties)).map(
				({ parameter }) => parameter,
			),
		).toEqual(['events', 'authentication', 'parameterName']);
	});

	it('search_nodes lists each node with its hint, its related nodes and its resources’ hints', async () => {
		const found = await call('search_nodes', {
			queries: ['maintenance management', 'maintenance management trigger'],
		});
		for (const { id, description } of NODES) {
			expect(found).toContain(`- ${id}`);
			expect(found).toContain(`@builderHint ${description.builderHint!.searchHint!}`);
			for (const related of description.builderHint!.relatedNodes!)
				expect(found).toContain(`- ${related.nodeType}: "${related.relationHint}"`);
		}
		for (const { hint } of resourceHints(NODES[0].description))
			expect(found).toContain(`@builderHint ${hint}`);
	});

	it.each(NODES.map(({ id }) => [id]))(
		'get_node_types gives %s with its hint, and each parameter hint on that parameter',
		async (id) => {
			const { description } = NODES.find((node) => node.id === id)!;
			const definitions = await call('get_node_types', { nodeIds: [{ nodeId: id }] });
			expect(definitions).toContain(`@builderHint ${description.builderHint!.searchHint!}`);
			const expected = unique(
				parameterHints(id, description.properties).map(({ parameter, hint }) => ({
					parameter,
					hint,
				})),
			);
			const found = unique(annotated(definitions));
			expect(
				expected.filter(
					(hint) =>
						!found.some((seen) => seen.parameter === hint.parameter && seen.hint === hint.hint),
				),
			).toEqual([]);
		},
	);
});
