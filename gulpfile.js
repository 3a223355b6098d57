const { rmSync } = require('node:fs');
const { build, context } = require('esbuild');
const { dest, parallel, series, src, task } = require('gulp');

const { n8n } = require('./package.json');

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
	outdir: process.env.BUNDLE_OUTDIR ?? 'dist',
	bundle: true,
	packages: 'external',
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	logLevel: 'warning',
};

task('clean', async () => rmSync('dist', { recursive: true, force: true }));

task('build:bundle', () => build(bundle));

/** Copies every node and credential icon next to its built file in dist/. */
task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	),
);

task('build', series('clean', parallel('build:bundle', 'build:icons')));

/** Rebuilds the bundles whenever a source file changes (used by `npm run dev`). */
task('watch', async () => {
	const watcher = await context(bundle);
	await watcher.watch();
});
