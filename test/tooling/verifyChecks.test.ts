import {
	checkManifest,
	checkTarball,
	metadataProblems,
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

describe('metadataProblems', () => {
	const real: Manifest = {
		homepage: 'https://github.com/acme/n8n-nodes-x#readme',
		repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-x.git' },
		bugs: { url: 'https://github.com/acme/n8n-nodes-x/issues' },
		author: { name: 'Acme', email: 'dev@acme.io' },
	};

	it('accepts a homepage naming a GitHub repository that repository and bugs also name', () => {
		expect(metadataProblems(real)).toEqual({ errors: [], placeholders: [] });
		expect(metadataProblems({ ...real, homepage: 'https://github.com/acme/n8n-nodes-x' })).toEqual({
			errors: [],
			placeholders: [],
		});
	});

	it('names each placeholder still in place, as a warning', () => {
		expect(
			metadataProblems({
				homepage: 'https://github.com/OWNER/n8n-nodes-x#readme',
				repository: { type: 'git', url: 'git+https://github.com/OWNER/n8n-nodes-x.git' },
				bugs: { url: 'https://github.com/OWNER/n8n-nodes-x/issues' },
				author: { name: 'OWNER NAME', email: 'owner@example.com' },
			}),
		).toEqual({
			errors: [],
			placeholders: [
				'package.json homepage, repository and bugs still name the placeholder owner OWNER',
				'package.json author.name is a placeholder ("OWNER NAME")',
				'package.json author.email is a placeholder address (owner@example.com)',
			],
		});
	});

	it('refuses repository and bugs that name another repository than the homepage', () => {
		expect(
			metadataProblems({
				...real,
				repository: { type: 'git', url: 'git+https://github.com/other/n8n-nodes-x.git' },
				bugs: { url: 'https://github.com/acme/n8n-nodes-y/issues' },
			}).errors,
		).toEqual([
			'package.json repository must be {"type":"git","url":"git+https://github.com/acme/n8n-nodes-x.git"}, the homepage\'s repository',
			'package.json bugs must be {"url":"https://github.com/acme/n8n-nodes-x/issues"}, the homepage\'s repository',
		]);
	});

	it('refuses a homepage that is no GitHub repository, and a malformed email', () => {
		expect(
			metadataProblems({
				...real,
				homepage: 'https://acme.io/docs#operations',
				author: { name: 'A', email: 'a' },
			}),
		).toEqual({
			errors: [
				'package.json homepage must be the GitHub repository\'s address, https://github.com/owner/name, found "https://acme.io/docs#operations"',
			],
			placeholders: ['package.json author.email is not an email address: "a"'],
		});
	});
});
