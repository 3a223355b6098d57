/**
 * Run by Node 24 from `npm run verify`: loads an installed community package the way the pinned n8n
 * loads it. Module resolution gets n8n's own folders only (n8n adds them to NODE_PATH before it loads
 * nodes), then n8n-core's PackageDirectoryLoader reads the package's n8n section and requires each
 * node and credential. Prints what loaded as JSON; exits non-zero with the reason otherwise.
 *
 * Usage: node load-in-n8n.js <package folder> <n8n's node_modules>
 */
const Module = require('node:module');
const { join } = require('node:path');

async function main() {
	const [packageDir, n8nModules] = process.argv.slice(2);
	const n8nDist = join(n8nModules, 'n8n', 'dist');
	process.env.NODE_PATH = Module._nodeModulePaths(n8nDist).join(':');
	Module._initPaths();
	const fromN8n = (request) => require(require.resolve(request, { paths: [n8nDist] }));
	fromN8n('reflect-metadata');
	const { PackageDirectoryLoader } = fromN8n('n8n-core');
	const loader = new PackageDirectoryLoader(packageDir);
	await loader.loadAll();
	const nodes = Object.values(loader.nodeTypes).map(({ type, sourcePath }) => {
		const description = type.description ?? Object.values(type.nodeVersions)[0].description;
		return {
			name: description.name,
			version: description.version,
			properties: description.properties.length,
			documentation: Object.values(description.codex?.resources ?? {}).flat(),
			sourcePath,
		};
	});
	const credentials = Object.values(loader.credentialTypes).map(({ type, sourcePath }) => ({
		name: type.name,
		documentationUrl: type.documentationUrl,
		sourcePath,
	}));
	const modules = {};
	for (const request of ['n8n-workflow', 'zod', 'zod/v3'])
		modules[request] = require.resolve(request, { paths: [packageDir] });
	// Every file loaded so far comes from n8n's folder or from the package itself.
	const foreign = Object.keys(require.cache).filter(
		(file) =>
			file !== require.main.filename &&
			!file.startsWith(`${n8nModules}/`) &&
			!file.startsWith(`${packageDir}/`),
	);
	process.stdout.write(
		JSON.stringify({ packageName: loader.packageName, nodes, credentials, modules, foreign }),
	);
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`${error.stack ?? error}\n`);
		process.exit(1);
	},
);
