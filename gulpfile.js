const { mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
// esbuild as tsx brings it (its one dependency, ~0.28): the build loads tsx below in any case.
const { build, context } = require('esbuild');
const { dest, parallel, series, src, task } = require('gulp');
const tsx = require('tsx/cjs/api');

const { homepage, n8n } = require('./package.json');
const { README, readmeOf } = require('./scripts/docs');

/** Where the package is built: dist/, or the folder `npm run dev` and the tests name. */
const OUT = process.env.BUNDLE_OUTDIR ?? 'dist';

/**
 * Each node and credential that package.json lists becomes one CommonJS file at that path, built from
 * its TypeScript source. One file per entry loads several times faster in n8n than one file per
 * module; every package import (n8n-workflow, zod) stays a require of the copy n8n provides.
 */
const bundle = {
	entryPoints: [...n8n.nodes, ...n8n.credentials].map((file) => ({
		in: file.replace(/^dist\//, '').replace(/\.js$/, '.ts'),
		out: file.replace(/^dist\//, '').replace(/\.js$/, ''),
	})),
	// `npm run dev` points the rebuild at the copy of the package its n8n loads.
	outdir: OUT,
	bundle: true,
	packages: 'external',
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	logLevel: 'warning',
	plugins: [
		{
			// A credential's documentationUrl names its README section under a stand-in address
			// (scripts/docs.js): the bundle gets the homepage's.
			name: 'documentation-url',
			setup(build) {
				build.onLoad({ filter: /\.credentials\.ts$/ }, ({ path }) => ({
					contents: readFileSync(path, 'utf8').replaceAll(`'${README}#`, `'${readmeOf(homepage)}#`),
					loader: 'ts',
				}));
			},
		},
	],
};

task('clean', async () => rmSync(OUT, { recursive: true, force: true }));

task('build:bundle', () => build(bundle));

/** Copies every node and credential icon next to its built file. */
task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest(OUT),
	),
);

/**
 * Writes each node's codex (`<node>.node.json`: categories, search aliases) next to its bundle, with
 * its documentation links made from the package's homepage (scripts/docs.js), so the address they
 * lead to lives only in package.json.
 */
task('build:codex', async () => {
	for (const node of n8n.nodes) {
		const source = node.replace(/^dist\//, '').replace(/\.js$/, '.json');
		const codex = JSON.parse(readFileSync(source, 'utf8'));
		const url = readmeOf(homepage);
		codex.resources = { primaryDocumentation: [{ url }], credentialDocumentation: [{ url }] };
		const target = join(OUT, source);
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, `${JSON.stringify(codex, null, '\t')}\n`);
	}
});

/**
 * Writes the Operations tables of README.md and docs/operations.md from the operations registry, and
 * docs/webhooks.md's Events table from the trigger's events (scripts/operationsTable.ts, loaded through
 * tsx), formatted as Prettier formats each file.
 */
task('build:readme', async () => {
	const { writeOperationsTables } = tsx.require(
		'./scripts/operationsTable.ts',
		join(__dirname, 'gulpfile.js'),
	);
	for (const path of await writeOperationsTables())
		console.log(`${path.slice(__dirname.length + 1)}: Operations table updated`);
});

/**
 * Writes the action node's output schemas (scripts/outputSchemas.ts, loaded through tsx) into the
 * `__schema__` folder beside its bundle, where n8n serves them for the editor's preview.
 */
task('build:schemas', async () => {
	const { writeOutputSchemas } = tsx.require(
		'./scripts/outputSchemas.ts',
		join(__dirname, 'gulpfile.js'),
	);
	const actionNode = n8n.nodes.find((file) => file.endsWith('/MaintenanceManagement.node.js'));
	writeOutputSchemas(join(OUT, dirname(actionNode.replace(/^dist\//, ''))));
});

/** Everything the package ships: what npm packs from dist/. */
task('build:dist', parallel('build:bundle', 'build:icons', 'build:codex', 'build:schemas'));

task('build', series('clean', parallel('build:dist', 'build:readme')));

/** Rebuilds the bundles whenever a source file changes (used by `npm run dev`). */
task('watch', async () => {
	const watcher = await context(bundle);
	await watcher.watch();
});
