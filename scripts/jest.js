/**
 * Runs jest on the pinned n8n's Node (Node 24, installed into .runtime/ first if needed), passing on
 * its arguments: the in-process suites then run n8n-core on the Node the pinned n8n runs on, and take
 * about a fifth less CPU than on Node 20 (BENCHMARKS.md).
 *
 *   node scripts/jest.js --selectProjects nodes sandbox tooling [jest's options]
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { ensureNode, NODE_BIN, ROOT } = require('./runtime.js');

ensureNode();
const jest = spawnSync(
	NODE_BIN,
	[join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), ...process.argv.slice(2)],
	{ cwd: ROOT, stdio: 'inherit' },
);
process.exit(jest.status ?? 1);
