/**
 * `npm run surface`: records the release's surface (scripts/surface.ts: what saved workflows and
 * credentials hold, and the output items they read, scripts/outputs.ts) as surface/<version>.json, and
 * its tarball as surface/<version>.tgz, from one fresh build: it runs `npm run build`, reads the built
 * nodes and credentials in dist/ (what the tarball ships), runs the built nodes for their output items,
 * and packs that build with `npm pack`. test/tooling/surface.test.ts compares the nodes with every
 * recorded surface and each record with its tarball; the installer test's update
 * (test/e2e/installer.e2e.test.ts) installs the newest recorded tarball and updates from it.
 *
 * A version is recorded once: a version already recorded, or tagged, is refused, whatever is asked.
 * `npm run release` records the version it releases in its release commit.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

import type { ICredentialType, INodeType } from 'n8n-workflow';

import { writeGenerated } from './generated';
import { withOutputs } from './outputs';
import { surfaceOf, type Surface } from './surface';

const ROOT = join(__dirname, '..');
export const SURFACE_DIR = join(ROOT, 'surface');

interface Manifest {
	name: string;
	version: string;
	n8n: { nodes: string[]; credentials: string[] };
}

/** The record and the tarball of a version. */
export const recordedFiles = (version: string) => ({
	surface: join(SURFACE_DIR, `${version}.json`),
	tarball: join(SURFACE_DIR, `${version}.tgz`),
});

/** Every recorded surface. */
export const recordedSurfaces = (): Surface[] =>
	existsSync(SURFACE_DIR)
		? readdirSync(SURFACE_DIR)
				.filter((file) => file.endsWith('.json') && !file.endsWith('.changes.json'))
				.map((file) => JSON.parse(readFileSync(join(SURFACE_DIR, file), 'utf8')) as Surface)
		: [];

/** Why a version may not be recorded now, or undefined when it may: a recorded or tagged version is never recorded again. */
export function recordingRefusal(state: {
	version: string;
	recorded: boolean;
	tagged: boolean;
}): string | undefined {
	const { version, recorded, tagged } = state;
	if (recorded)
		return `${version} is recorded already (surface/${version}.json and .tgz), and a record is never rewritten: the surface test holds the nodes to it. Record the next version instead (npm version patch, or npm run release -- patch).`;
	if (tagged)
		return `${version} is released (tag v${version}) without a record: a release is recorded by its release commit, from its own build. Record the next version instead (npm run release -- patch).`;
	return undefined;
}

const isTagged = (version: string) =>
	execFileSync('git', ['tag', '--list', `v${version}`], { cwd: ROOT, encoding: 'utf8' }).trim() !==
	'';

/**
 * The surface of a built package in `dir` (the repository after a build, or an unpacked tarball): its
 * nodes and credentials loaded as n8n loads them, from package.json's `n8n` section.
 */
export async function packageSurface(dir: string): Promise<Surface> {
	const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
	const load = async <T>(file: string): Promise<T> => {
		const exports = (await import(join(dir, file))) as Record<string, new () => T>;
		const [type] = Object.values(exports);
		return new type();
	};
	const nodes = await Promise.all(manifest.n8n.nodes.map((file) => load<INodeType>(file)));
	return await withOutputs(
		surfaceOf({
			package: manifest.name,
			version: manifest.version,
			nodes: nodes.map((node) => node.description),
			credentials: await Promise.all(
				manifest.n8n.credentials.map((file) => load<ICredentialType>(file)),
			),
		}),
		nodes,
	);
}

/** Builds, then writes the version's surface and tarball; returns their paths. */
export async function recordSurface(): Promise<string[]> {
	const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
	const files = recordedFiles(manifest.version);
	const refusal = recordingRefusal({
		version: manifest.version,
		recorded: existsSync(files.surface) || existsSync(files.tarball),
		tagged: isTagged(manifest.version),
	});
	if (refusal) throw new Error(refusal);
	execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	mkdirSync(SURFACE_DIR, { recursive: true });
	await writeGenerated(files.surface, JSON.stringify(await packageSurface(ROOT)));
	const [{ filename }] = JSON.parse(
		execFileSync(
			'npm',
			['pack', '--ignore-scripts', '--json', `--pack-destination=${SURFACE_DIR}`],
			{ cwd: ROOT, encoding: 'utf8' },
		),
	) as Array<{ filename: string }>;
	renameSync(join(SURFACE_DIR, filename), files.tarball);
	return [files.surface, files.tarball];
}

if (require.main === module) {
	const unknown = process.argv.slice(2);
	if (unknown.length) {
		process.stderr.write(`surface: unknown argument ${unknown.join(' ')}; it takes none\n`);
		process.exit(2);
	}
	recordSurface().then(
		(written) => process.stdout.write(`Recorded ${written.join(' and ')}\n`),
		(error: unknown) => {
			process.stderr.write(`surface: ${(error as Error).message}\n`);
			process.exitCode = 1;
		},
	);
}
