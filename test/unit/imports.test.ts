import madge from 'madge';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

describe('imports of the nodes and credentials', () => {
	it('form no cycle', async () => {
		const graph = await madge(['nodes', 'credentials'], {
			baseDir: root,
			fileExtensions: ['ts'],
			tsConfig: join(root, 'tsconfig.json'),
		});
		// The graph really was read: the action node reaches its operations through the registry.
		expect(Object.keys(graph.obj()).length).toBeGreaterThan(50);
		expect(graph.circular()).toEqual([]);
	});

	it('keep the operations away from the router: an operation is data the router dispatches to', async () => {
		const graph = await madge('nodes', {
			baseDir: root,
			fileExtensions: ['ts'],
			tsConfig: join(root, 'tsconfig.json'),
		});
		const importers = Object.entries(graph.obj())
			.filter(([, imports]) => imports.some((path) => path.endsWith('actions/router.ts')))
			.map(([file]) => file);
		expect(importers).toEqual(['nodes/MaintenanceManagement/MaintenanceManagement.node.ts']);
	});
});
