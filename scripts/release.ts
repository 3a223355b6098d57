/**
 * `npm run release [-- patch|minor|major|<version>]`: bumps package.json's version (none given: releases
 * the current version if it has no tag yet), moves CHANGELOG.md's Unreleased notes into a section dated
 * today, points README.md's addresses of the package's files at the version, records the version's
 * surface and tarball (scripts/recordSurface.ts: surface/<version>.json and .tgz, from one build),
 * commits them all and tags v<version>. It never publishes: pushing the tag makes GitHub Actions
 * publish (.github/workflows/publish.yml). Like the publish workflow's `npm run verify -- --release`,
 * it refuses while package.json lacks its repository or a real author.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { releaseChangelog } from './changelog';
import { atVersion } from './packageFiles';
import { recordedFiles, recordSurface } from './recordSurface';
import { metadataProblems, type Manifest } from './verify/checks';

const ROOT = join(__dirname, '..');
const git = (...args: string[]) =>
	execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

async function main(): Promise<void> {
	if (git('status', '--porcelain').trim()) throw new Error('commit or stash your changes first');
	const { errors, placeholders } = metadataProblems(
		JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest,
	);
	if (errors.length || placeholders.length)
		throw new Error(
			`package.json is not ready for a release:\n${[...errors, ...placeholders].join('\n')}`,
		);
	const bump = process.argv[2];
	const current = (
		JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
	).version;
	if (!bump && git('tag', '--list', `v${current}`).trim())
		throw new Error(`v${current} is already tagged: say patch, minor, major or a version`);
	if (bump)
		execFileSync('npm', ['version', bump, '--no-git-tag-version'], { cwd: ROOT, stdio: 'ignore' });
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		name: string;
		version: string;
		repository: { url: string };
	};
	const repositoryUrl = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
	const file = join(ROOT, 'CHANGELOG.md');
	const date = new Date().toISOString().slice(0, 10);
	writeFileSync(
		file,
		releaseChangelog(readFileSync(file, 'utf8'), pkg.version, date, repositoryUrl),
	);
	// The README's pictures, pages and templates are the package's files at this version.
	const readme = join(ROOT, 'README.md');
	writeFileSync(readme, atVersion(readFileSync(readme, 'utf8'), pkg.name, pkg.version));
	// A version recorded before (npm run surface) keeps its record: a record is never rewritten.
	const files = recordedFiles(pkg.version);
	const recorded = existsSync(files.surface) ? [] : await recordSurface();
	git('add', 'package.json', 'package-lock.json', 'CHANGELOG.md', 'README.md', ...recorded);
	git('commit', '--quiet', '-m', `Release ${pkg.version}`);
	git('tag', '--annotate', `v${pkg.version}`, '-m', `Release ${pkg.version}`);
	process.stdout.write(
		`Tagged v${pkg.version}. Push it to publish from CI: git push --follow-tags\n`,
	);
}

main().catch((error: unknown) => {
	process.stderr.write(`release: ${(error as Error).message}\n`);
	process.exit(1);
});
