/**
 * `npm run test:e2e`: the end-to-end suite in a real n8n. Installs the pinned n8n and Node 24 on first
 * use (scripts/runtime.js), builds the package when dist/ is missing, then runs the jest "e2e" project.
 * E2E_N8N_VERSION=<version> runs it in another n8n of the compatibility matrix (npm run test:compat).
 */
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const { ensureRuntime, ROOT, runJestProject } = require('./runtime');

const runtime = ensureRuntime(process.env.E2E_N8N_VERSION || undefined);
if (!existsSync(join(ROOT, 'dist', 'nodes'))) {
	const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	if (build.status !== 0) process.exit(build.status ?? 1);
}
process.exit(runJestProject('e2e', runtime));
