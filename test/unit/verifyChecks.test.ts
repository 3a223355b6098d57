import {
	checkManifest,
	checkTarball,
	metadataDrift,
	metadataFields,
	publisherProblems,
	type Manifest,
} from '../../scripts/verify/checks';

const good: Manifest = {
	name: 'n8n-nodes-x',
	license: 'MIT',
	files: ['dist'],
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
		['more than dist', { ...good, files: ['dist', 'src'] }, 'files must be ["dist"]'],
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
	];

	it('accepts dist/ with npm’s own files', () => {
		expect(checkTarball(good, files)).toEqual([]);
	});

	it('refuses stray files, TypeScript sources, a missing licence and a missing listed node', () => {
		expect(
			checkTarball(good, [
				...files.filter((f) => f !== 'LICENSE' && f !== 'dist/nodes/X.node.js'),
				'test/x.test.js',
				'dist/nodes/X.node.ts',
			]),
		).toEqual([
			'the tarball holds files outside dist/: test/x.test.js',
			'the tarball has no LICENSE file: add the MIT licence text as LICENSE',
			'the tarball lacks dist/nodes/X.node.js, which package.json lists: run npm run build',
			'the tarball holds TypeScript sources: dist/nodes/X.node.ts',
		]);
	});
});

describe('publisher.json', () => {
	const real = { github: 'acme/n8n-nodes-x', author: { name: 'Acme', email: 'dev@acme.io' } };

	it('derives repository, homepage, bugs and author from one place', () => {
		expect(metadataFields(real)).toEqual({
			homepage: 'https://github.com/acme/n8n-nodes-x#readme',
			bugs: { url: 'https://github.com/acme/n8n-nodes-x/issues' },
			author: { name: 'Acme', email: 'dev@acme.io' },
			repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-x.git' },
		});
		expect(publisherProblems(real)).toEqual([]);
	});

	it('names each placeholder still in place', () => {
		expect(
			publisherProblems({
				github: 'OWNER/n8n-nodes-x',
				author: { name: 'OWNER NAME', email: 'owner@example.com' },
			}),
		).toEqual([
			'github still names the placeholder owner OWNER',
			'author.name is still the placeholder "OWNER NAME"',
			'author.email is a placeholder address (owner@example.com)',
		]);
	});

	it('refuses a malformed repository or email', () => {
		expect(
			publisherProblems({ github: 'https://github.com/a/b', author: { name: 'A', email: 'a' } }),
		).toEqual([
			'github must be "owner/repository", found "https://github.com/a/b"',
			'author.email is not an email address: "a"',
		]);
	});

	it('lists the package.json fields that differ from publisher.json', () => {
		const pkg = { ...good, ...metadataFields(real) };
		expect(metadataDrift(pkg, real)).toEqual([]);
		expect(metadataDrift({ ...pkg, homepage: 'https://example.com' }, real)).toEqual(['homepage']);
	});
});
