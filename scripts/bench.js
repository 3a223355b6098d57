/**
 * `npm run bench [-- <group>…]`: the benchmarks (bench/run.ts) on a fresh build, with Node 24 and the
 * pinned n8n of the install cache (scripts/runtime.js) named to them as the end-to-end suite has them:
 * the rows that run a real n8n start it through test/e2e/n8n.ts, which reads E2E_NODE_BIN and
 * E2E_N8N_BIN.
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const { ensureRuntime, ROOT } = require('./runtime');

const runtime = ensureRuntime();
const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const bench = spawnSync(
	join(ROOT, 'node_modules', '.bin', 'tsx'),
	[join(ROOT, 'bench', 'run.ts'), ...process.argv.slice(2)],
	{
		cwd: ROOT,
		stdio: 'inherit',
		env: { ...process.env, E2E_NODE_BIN: runtime.node, E2E_N8N_BIN: runtime.n8n },
	},
);
process.exit(bench.status ?? 1);
