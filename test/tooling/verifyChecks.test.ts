import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	checkManifest,
	checkTarball,
	metadataProblems,
	type Manifest,
} from '../../scripts/verify/checks';

const good: Manifest = {
	name: 'n8n-nodes-x',
	license: 'MIT',
	files: [
		'dist',
		'workflows/*.json',
		'docs/*.md',
		'docs/canvas.png',
		'SECURITY.md',
		'CHANGELOG.md',
	],
	keywords: ['n8n-community-node-package'],
	scripts: { build: 'gulp build', prepublishOnly: 'node scripts/prepublish.js' },
	peerDependencies: { 'n8n-workflow': '*' },
	n8n: { nodes: ['dist/nodes/X.node.js'], credentials: ['dist/credentials/X.credentials.js'] },
};

describe('checkManifest', () => {
	it('accepts a community package as n8n wants it (prepublishOnly is allowed)', () => {
		expect(checkManifest(good)).toEqual([]);
	});

	it.each<[string, Manifest, string]>([
		['runtime dependencies', { ...good, dependencies: { zod: '3' } }, 'dependencies must be empty'],
		[
			'optional dependencies',
			{ ...good, optionalDependencies: { a: '1' } },
			'optionalDependencies must be empty',
		],
		['bundled dependencies', { ...good, bundledDependencies: ['a'] }, 'bundles nothing'],
		[
			'a pinned peer',
			{ ...good, peerDependencies: { 'n8n-workflow': '^2' } },
			'exactly {"n8n-workflow": "*"}',
		],
		[
			'an extra peer',
			{ ...good, peerDependencies: { 'n8n-workflow': '*', zod: '*' } },
			'exactly {"n8n-workflow": "*"}',
		],
		['an install script', { ...good, scripts: { postinstall: 'node x' } }, 'remove postinstall'],
		['a prepare script', { ...good, scripts: { prepare: 'husky' } }, 'remove prepare'],
		['another licence', { ...good, license: 'ISC' }, 'license must be "MIT"'],
		['a source folder', { ...good, files: ['dist', 'workflows/*.json', 'src'] }, 'files must be'],
		['no templates', { ...good, files: ['dist', 'docs/*.md'] }, 'files must be "dist", "workflows'],
		['dist not first', { ...good, files: ['workflows/*.json', 'dist'] }, 'files must be "dist"'],
		[
			'every docs/ file',
			{ ...good, files: ['dist', 'workflows/*.json', 'docs'] },
			'docs/ pictures the README shows',
		],
		['no official keyword', { ...good, keywords: [] }, 'n8n-community-node-package'],
		['a node outside dist', { ...good, n8n: { nodes: ['nodes/X.node.ts'] } }, 'outside dist/'],
	])('refuses %s, saying what to do', (_what, pkg, message) => {
		const problems = checkManifest(pkg);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toContain(message);
	});
});

describe('checkTarball', () => {
	const files = [
		'package.json',
		'README.md',
		'LICENSE',
		'dist/nodes/X.node.js',
		'dist/nodes/x.svg',
		'dist/credentials/X.credentials.js',
		'workflows/an-example.json',
		'docs/webhooks.md',
		'docs/canvas.png',
		'SECURITY.md',
	];

	it('accepts dist/, the templates and the documentation, with npm’s own files', () => {
		expect(checkTarball(good, files)).toEqual([]);
	});

	it('refuses stray files, TypeScript sources, a missing licence and a missing listed node', () => {
		expect(
			checkTarball(good, [
				...files.filter((f) => f !== 'LICENSE' && f !== 'dist/nodes/X.node.js'),
				'test/x.test.js',
				'docs/notes/x.md',
				'CONTRIBUTING.md',
				'dist/nodes/X.node.ts',
			]),
		).toEqual([
			'the tarball holds files outside dist/, workflows/ and docs/: test/x.test.js, docs/notes/x.md, CONTRIBUTING.md',
			'the tarball has no LICENSE file: add the MIT licence text as LICENSE',
			'the tarball lacks dist/nodes/X.node.js, which package.json lists: run npm run build',
			'the tarball holds TypeScript sources: dist/nodes/X.node.ts',
		]);
	});

	it('refuses a main that names a file the tarball lacks', () => {
		expect(checkTarball({ ...good, main: 'index.js' }, files)).toEqual([
			"the tarball lacks index.js, which package.json's main names: remove main (n8n reads the n8n section)",
		]);
		expect(checkTarball({ ...good, main: 'dist/nodes/X.node.js' }, files)).toEqual([]);
	});

	it('refuses a tarball without the templates', () => {
		expect(
			checkTarball(
				good,
				files.filter((f) => !f.startsWith('workflows/')),
			),
		).toEqual([
			'the tarball holds no workflow template: package.json files must name workflows/*.json',
		]);
	});
});

describe('metadataProblems', () => {
	const real: Manifest = {
		name: 'n8n-nodes-x',
		homepage: 'https://github.com/acme/n8n-nodes-x#readme',
		repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-x.git' },
		bugs: { url: 'https://github.com/acme/n8n-nodes-x/issues' },
		author: { name: 'Acme', email: 'dev@acme.io' },
	};
	const unowned: Manifest = {
		name: 'n8n-nodes-x',
		homepage: 'https://www.npmjs.com/package/n8n-nodes-x',
		author: { name: 'The n8n-nodes-x contributors', email: 'owner@example.com' },
	};

	it("accepts a repository with its issues, and as homepage the repository's page or the npm page", () => {
		for (const homepage of [
			'https://github.com/acme/n8n-nodes-x#readme',
			'https://github.com/acme/n8n-nodes-x',
			'https://www.npmjs.com/package/n8n-nodes-x',
		])
			expect(metadataProblems({ ...real, homepage })).toEqual({ errors: [], placeholders: [] });
	});

	it('holds the package as it ships before its owner sets a repository and an email: no error, a release refused', () => {
		expect(metadataProblems(unowned)).toEqual({
			errors: [],
			placeholders: [
				'package.json has no repository: set it to {"type":"git","url":"git+https://github.com/<owner>/<name>.git"}, the public GitHub repository (npm\'s provenance and n8n\'s verification need it)',
				'package.json author.email is a placeholder address (owner@example.com)',
			],
		});
		expect(metadataProblems({ ...unowned, author: { name: 'A' } }).placeholders).toContain(
			"package.json author has no email: add the npm author's address",
		);
	});

	it('names each placeholder still in place, for a release to refuse', () => {
		expect(
			metadataProblems({
				name: 'n8n-nodes-x',
				homepage: 'https://github.com/OWNER/n8n-nodes-x#readme',
				repository: { type: 'git', url: 'git+https://github.com/OWNER/n8n-nodes-x.git' },
				bugs: { url: 'https://github.com/OWNER/n8n-nodes-x/issues' },
				author: { name: 'OWNER NAME', email: 'owner@example.com' },
			}),
		).toEqual({
			errors: [],
			placeholders: [
				'package.json repository still names the placeholder owner OWNER',
				'package.json author.name is a placeholder ("OWNER NAME")',
				'package.json author.email is a placeholder address (owner@example.com)',
			],
		});
	});

	it('refuses bugs and a homepage that are not the repository’s, and bugs without a repository', () => {
		expect(
			metadataProblems({
				...real,
				homepage: 'https://github.com/other/n8n-nodes-x',
				bugs: { url: 'https://github.com/acme/n8n-nodes-y/issues' },
			}).errors,
		).toEqual([
			'package.json bugs must be {"url":"https://github.com/acme/n8n-nodes-x/issues"}, the repository\'s issues',
			'package.json homepage must be "https://www.npmjs.com/package/n8n-nodes-x" or "https://github.com/acme/n8n-nodes-x" or "https://github.com/acme/n8n-nodes-x#readme", found "https://github.com/other/n8n-nodes-x"',
		]);
		expect(
			metadataProblems({
				...unowned,
				homepage: 'https://github.com/acme/n8n-nodes-x#readme',
				bugs: { url: 'https://github.com/acme/n8n-nodes-x/issues' },
			}).errors,
		).toEqual([
			'package.json bugs must be left out while package.json has no repository, found {"url":"https://github.com/acme/n8n-nodes-x/issues"}',
			'package.json homepage must be "https://www.npmjs.com/package/n8n-nodes-x", found "https://github.com/acme/n8n-nodes-x#readme"',
		]);
	});

	it('refuses a repository that is no GitHub repository, and a malformed email', () => {
		expect(
			metadataProblems({
				...unowned,
				repository: { type: 'git', url: 'https://gitlab.com/acme/n8n-nodes-x' },
				author: { name: 'A', email: 'a' },
			}),
		).toEqual({
			errors: [
				'package.json repository must be {"type":"git","url":"git+https://github.com/<owner>/<name>.git"}, found {"type":"git","url":"https://gitlab.com/acme/n8n-nodes-x"}',
			],
			placeholders: ['package.json author.email is not an email address: "a"'],
		});
	});

	it("finds no error in the package's own package.json, which plain npm run verify (CI) runs on", () => {
		const pkg = JSON.parse(
			readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'),
		) as Manifest;
		expect(metadataProblems(pkg).errors).toEqual([]);
	});
});
