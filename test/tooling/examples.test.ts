import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { MaintenanceManagementTrigger } from '../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { exampleWorkflows } from '../../scripts/examples';

/** The version n8n gives a node added by hand: its default version, else its newest. */
const currentVersion = ({ version, defaultVersion }: INodeTypeDescription): number =>
	defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);

const PACKAGE_NODES: Record<string, INodeType> = {
	'n8n-nodes-maintenance-management.maintenanceManagement': new MaintenanceManagement(),
	'n8n-nodes-maintenance-management.maintenanceManagementTrigger':
		new MaintenanceManagementTrigger(),
};

describe('the example workflows of npm run dev', () => {
	const nodes = exampleWorkflows().flatMap((workflow) =>
		workflow.nodes
			.filter((node) => node.type in PACKAGE_NODES)
			.map((node) => ({ workflow: workflow.name, ...node })),
	);

	it('use both nodes of the package', () => {
		expect(new Set(nodes.map((node) => node.type))).toEqual(new Set(Object.keys(PACKAGE_NODES)));
	});

	it('use each node at the version a node added by hand gets, so they show the current interface', () => {
		for (const node of nodes)
			expect(`${node.workflow}: ${node.name} v${node.typeVersion}`).toBe(
				`${node.workflow}: ${node.name} v${currentVersion(PACKAGE_NODES[node.type].description)}`,
			);
	});
});

describe('the ERP example', () => {
	const erp = exampleWorkflows().find((workflow) => workflow.id === 'devErpMaterials');
	const create = erp?.nodes.find((node) => node.name === 'Create Material');

	it('sends the failed rows to the Error branch, where Failed Rows collects them', () => {
		expect(create).toMatchObject({
			onError: 'continueErrorOutput',
			parameters: { resource: 'material', operation: 'create' },
		});
		expect(erp?.connections['Create Material']).toEqual({
			main: [
				[{ node: 'Created', type: 'main', index: 0 }],
				[{ node: 'Failed Rows', type: 'main', index: 0 }],
			],
		});
	});

	it('gives the rows without a name their code as a name and sends them through the same mapping again', () => {
		expect(erp?.connections).toMatchObject({
			'Failed Rows': { main: [[{ node: 'Name Missing?', type: 'main', index: 0 }]] },
			'Name Missing?': {
				main: [
					[{ node: 'Name From Code', type: 'main', index: 0 }],
					[{ node: 'Check By Hand', type: 'main', index: 0 }],
				],
			},
			'Name From Code': { main: [[{ node: 'Send Fixed Rows', type: 'main', index: 0 }]] },
		});
		const resend = erp?.nodes.find((node) => node.name === 'Send Fixed Rows');
		expect(resend?.parameters).toEqual(create?.parameters);
		expect(resend?.credentials).toEqual(create?.credentials);
	});

	it('says on a sticky note what to replace with your own rows', () => {
		const note = erp?.nodes.find((node) => node.type === 'n8n-nodes-base.stickyNote');
		expect(note?.parameters.content).toMatch(/Replace \*\*ERP Rows\*\* with your own rows/);
	});
});
