import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { npmPageProblems, shippedPageProblems } from '../../scripts/docsCheck';
import { atVersion, packageFilesUrl } from '../../scripts/packageFiles';

/**
 * README.md as the package's npm page shows it, to someone who installs the package by name and never
 * sees the repository: every picture and link resolves from the package alone, at its version.
 */
const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	files: string[];
	repository?: unknown;
};
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const files = () => {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	) as Array<{ files: Array<{ path: string }> }>;
	return packed.files.map((file) => file.path);
};
const AT_VERSION = packageFilesUrl(pkg.name, pkg.version);

describe("README.md on the package's npm page", () => {
	const packed = { ...pkg, files: files() };

	it('resolves every picture and link from the package alone, at its version', () => {
		expect(packed.files).toEqual(expect.arrayContaining(['README.md', 'docs/webhooks.md']));
		expect(npmPageProblems(readme, packed)).toEqual([]);
	});

	it('ships the pictures its pages show or link, and no other', () => {
		const pages = packed.files.filter((file) => file.endsWith('.md'));
		const shown = pages.flatMap((page) =>
			[...readFileSync(join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s]+\.png)\)/g)].map(
				([, url]) =>
					url.startsWith(AT_VERSION) ? url.slice(AT_VERSION.length) : join(dirname(page), url),
			),
		);
		const shipped = packed.files.filter((entry) => entry.endsWith('.png'));
		expect([...new Set(shown)].sort()).toEqual(shipped.sort());
	});

	it('resolves every link and picture of every other page it ships from the package alone', () => {
		const pages = packed.files.filter((file) => file.endsWith('.md') && file !== 'README.md');
		expect(pages).toEqual(
			expect.arrayContaining(['docs/walkthroughs.md', 'docs/bulk-writes.md', 'SECURITY.md']),
		);
		expect(
			pages.flatMap((page) =>
				shippedPageProblems(page, readFileSync(join(ROOT, page), 'utf8'), packed),
			),
		).toEqual([]);
	});

	it('gives each template its address at the version, the one Import from URL takes', () => {
		for (const file of readdirSync(join(ROOT, 'workflows')))
			expect(readme).toContain(`](${AT_VERSION}workflows/${file})`);
		expect(packed.files.filter((file) => file.startsWith('workflows/')).sort()).toEqual(
			readdirSync(join(ROOT, 'workflows'))
				.map((file) => `workflows/${file}`)
				.sort(),
		);
	});
});

describe('npmPageProblems', () => {
	const packed = {
		name: 'n8n-nodes-x',
		version: '1.2.0',
		files: ['README.md', 'docs/a.md', 'docs/pic.png', 'workflows/t.json', 'SECURITY.md'],
	};
	const cdn = 'https://cdn.jsdelivr.net/npm/n8n-nodes-x@';

	it('accepts anchors, other sites and shipped files at the version', () => {
		const good = [
			'# X',
			'## Usage',
			`[usage](#usage) [n8n](https://docs.n8n.io/#x) [page](${cdn}1.2.0/docs/a.md#part)`,
			`![pic](${cdn}1.2.0/docs/pic.png) [template](${cdn}1.2.0/workflows/t.json)`,
			'`[not a link](nowhere.md)`',
		].join('\n');
		expect(npmPageProblems(good, packed)).toEqual([]);
	});

	it('accepts a relative link to a shipped file only once package.json names the repository', () => {
		const relative = '# X\n[security](SECURITY.md) [clone only](CONTRIBUTING.md)';
		const repository = { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-x.git' };
		expect(npmPageProblems(relative, { ...packed, repository })).toEqual([
			'README.md links to CONTRIBUTING.md, which is no file of the tarball: link to the repository or to a page the package ships',
		]);
		expect(npmPageProblems(relative, packed)).toEqual(
			['SECURITY.md', 'CONTRIBUTING.md'].map(
				(file) =>
					`README.md links to ${file} by a relative path, which the npm page resolves only through package.json's repository, not set: use ${cdn}1.2.0/${file}`,
			),
		);
	});

	it('names each picture or link the npm page cannot resolve, and how to fix it', () => {
		const bad = [
			'# X',
			'![relative](docs/pic.png) [gone](#nope)',
			`![old](${cdn}1.1.0/docs/pic.png) [missing](${cdn}1.2.0/docs/b.md)`,
		].join('\n');
		expect(npmPageProblems(bad, packed)).toEqual([
			`README.md shows docs/pic.png by a relative path, which the npm page cannot: use ${cdn}1.2.0/docs/pic.png`,
			'README.md links to #nope: no heading of README.md makes it',
			`README.md has an image to the package at 1.1.0, not at its version 1.2.0: ${cdn}1.1.0/docs/pic.png`,
			`README.md has a link to docs/b.md, which the tarball lacks: ${cdn}1.2.0/docs/b.md`,
		]);
	});

	it('names each link of a shipped page that the package cannot resolve, and passes what it can', () => {
		const page = [
			'![shown](pic.png) [sibling](a.md#part) [top](../SECURITY.md) [anchor](#x) [n8n](https://docs.n8n.io/)',
			`[template](${cdn}1.2.0/workflows/t.json)`,
			'![missing](walk-1.png) [clone only](../CONTRIBUTING.md)',
			`[old](${cdn}1.1.0/docs/a.md) [gone](${cdn}1.2.0/docs/b.md)`,
		].join('\n');
		expect(shippedPageProblems('docs/a.md', page, packed)).toEqual([
			"docs/a.md has an image to walk-1.png (docs/walk-1.png), which the tarball lacks: add it to package.json's files, or link to the repository instead",
			"docs/a.md has a link to ../CONTRIBUTING.md (CONTRIBUTING.md), which the tarball lacks: add it to package.json's files, or link to the repository instead",
			`docs/a.md has a link to the package at 1.1.0, not at its version 1.2.0: ${cdn}1.1.0/docs/a.md`,
			`docs/a.md has a link to docs/b.md, which the tarball lacks: ${cdn}1.2.0/docs/b.md`,
		]);
	});

	it('moves every address of the package to a new version, and no other', () => {
		expect(
			atVersion(
				`![a](${cdn}1.2.0/docs/pic.png) [b](${cdn}1.2.0/workflows/t.json) https://cdn.jsdelivr.net/npm/other@1.2.0/x`,
				'n8n-nodes-x',
				'1.3.0',
			),
		).toBe(
			`![a](${cdn}1.3.0/docs/pic.png) [b](${cdn}1.3.0/workflows/t.json) https://cdn.jsdelivr.net/npm/other@1.2.0/x`,
		);
	});
});
