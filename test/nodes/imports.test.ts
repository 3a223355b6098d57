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
});
