/**
 * The checks `npm run verify` makes on package.json and on the packed tarball, as pure functions: each
 * returns what is wrong, in words that say how to fix it (an empty list when all is well).
 */

/** Lifecycle scripts npm runs on the user's machine when it installs a package: n8n refuses them. */
export const INSTALL_SCRIPTS = [
	'preinstall',
	'install',
	'postinstall',
	'prepublish',
	'preprepare',
	'prepare',
	'postprepare',
];

export interface Manifest {
	name?: string;
	license?: string;
	files?: string[];
	scripts?: Record<string, string>;
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	bundleDependencies?: unknown;
	bundledDependencies?: unknown;
	peerDependencies?: Record<string, string>;
	keywords?: string[];
	main?: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
	[field: string]: unknown;
}

/** The files package.json names for n8n to load: its nodes and credentials. */
export const n8nFiles = (pkg: Manifest): string[] => [
	...(pkg.n8n?.nodes ?? []),
	...(pkg.n8n?.credentials ?? []),
];

export function checkManifest(pkg: Manifest): string[] {
	const problems: string[] = [];
	for (const field of ['dependencies', 'optionalDependencies'] as const) {
		const names = Object.keys(pkg[field] ?? {});
		if (names.length)
			problems.push(
				`package.json ${field} must be empty (n8n installs community packages without them): move ${names.join(', ')} to devDependencies`,
			);
	}
	for (const field of ['bundleDependencies', 'bundledDependencies'] as const) {
		if (pkg[field] !== undefined)
			problems.push(`package.json ${field}: remove it; a community package bundles nothing`);
	}
	const peers = pkg.peerDependencies ?? {};
	if (peers['n8n-workflow'] !== '*' || Object.keys(peers).length !== 1)
		problems.push(
			`package.json peerDependencies must be exactly {"n8n-workflow": "*"}, found ${JSON.stringify(peers)}`,
		);
	const lifecycle = Object.keys(pkg.scripts ?? {}).filter((name) => INSTALL_SCRIPTS.includes(name));
	if (lifecycle.length)
		problems.push(
			`package.json scripts: remove ${lifecycle.join(', ')}; n8n refuses packages that run code when installed`,
		);
	if (pkg.license !== 'MIT')
		problems.push(`package.json license must be "MIT", found ${JSON.stringify(pkg.license)}`);
	const [first, ...rest] = pkg.files ?? [];
	if (
		first !== 'dist' ||
		!rest.includes(TEMPLATES) ||
		rest.some((entry) => !SHIPPED_ENTRY.test(entry))
	)
		problems.push(
			`package.json files must be "dist", "${TEMPLATES}", and besides them only "docs/*.md", docs/ pictures the README shows, SECURITY.md and CHANGELOG.md; found ${JSON.stringify(pkg.files)}`,
		);
	if (!pkg.keywords?.includes('n8n-community-node-package'))
		problems.push('package.json keywords must include "n8n-community-node-package"');
	for (const file of n8nFiles(pkg)) {
		if (!file.startsWith('dist/'))
			problems.push(`package.json n8n lists ${file}, outside dist/: list the built file`);
	}
	return problems;
}

/** Files npm always packs beside `files`. */
const ALWAYS_PACKED = /^(package\.json|README(\.md)?|LICEN[CS]E(\.md)?|CHANGELOG\.md)$/i;

/** The workflow templates, which "Import from URL" fetches from the package through an npm file CDN. */
export const TEMPLATES = 'workflows/*.json';
/**
 * What package.json's `files` may name besides dist/: the templates, the documentation pages and the
 * pictures README.md shows, the security policy and the changelog, which the README links to in the
 * package at its version.
 */
const SHIPPED_ENTRY =
	/^(?:workflows\/\*\.json|docs\/\*\.md|docs\/[\w-]+\.png|SECURITY\.md|CHANGELOG\.md)$/;
/** A file those entries put in the tarball. */
const SHIPPED_FILE = /^(?:workflows\/[\w-]+\.json|docs\/[\w-]+\.(?:md|png)|SECURITY\.md)$/;

/**
 * The tarball holds dist/, the templates, the documentation and npm's own files only, and every node
 * and credential package.json lists, and the file its `main` names, when it names one.
 */
export function checkTarball(pkg: Manifest, files: string[]): string[] {
	const problems: string[] = [];
	const stray = files.filter(
		(file) => !file.startsWith('dist/') && !ALWAYS_PACKED.test(file) && !SHIPPED_FILE.test(file),
	);
	if (stray.length)
		problems.push(
			`the tarball holds files outside dist/, workflows/ and docs/: ${stray.join(', ')}`,
		);
	if (!files.some((file) => /^workflows\/[\w-]+\.json$/.test(file)))
		problems.push(
			`the tarball holds no workflow template: package.json files must name ${TEMPLATES}`,
		);
	if (!files.some((file) => /^LICEN[CS]E(\.md)?$/i.test(file)))
		problems.push('the tarball has no LICENSE file: add the MIT licence text as LICENSE');
	for (const file of n8nFiles(pkg)) {
		if (!files.includes(file))
			problems.push(`the tarball lacks ${file}, which package.json lists: run npm run build`);
	}
	if (pkg.main !== undefined && !files.includes(pkg.main))
		problems.push(
			`the tarball lacks ${pkg.main}, which package.json's main names: remove main (n8n reads the n8n section)`,
		);
	const sources = files.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'));
	if (sources.length) problems.push(`the tarball holds TypeScript sources: ${sources.join(', ')}`);
	return problems;
}

/** The package's page on npm: it shows the README, and it is where every link leads until the owner sets a repository. */
export const npmPage = (name: string): string => `https://www.npmjs.com/package/${name}`;

/** A public GitHub repository as package.json's `repository.url` names it. */
const GITHUB_REPOSITORY = /^git\+(https:\/\/github\.com\/([A-Za-z0-9-]+)\/[\w.-]+?)\.git$/;

/**
 * package.json's links and author, as npm shows them and n8n's verification reads them. Errors: a
 * homepage other than the package's npm page or its repository's page, a repository that is no GitHub
 * repository, bugs that are not that repository's issues. Placeholders, refused by a release only: no
 * repository yet, the placeholder owner OWNER, an author without a real name and email.
 */
export function metadataProblems(pkg: Manifest): { errors: string[]; placeholders: string[] } {
	const errors: string[] = [];
	const placeholders: string[] = [];
	const { url } = (pkg.repository ?? {}) as { url?: string };
	const match = GITHUB_REPOSITORY.exec(url ?? '');
	const repository = match?.[1];
	if (pkg.repository === undefined)
		placeholders.push(
			'package.json has no repository: set it to {"type":"git","url":"git+https://github.com/<owner>/<name>.git"}, the public GitHub repository (npm\'s provenance and n8n\'s verification need it)',
		);
	else if (!match || (pkg.repository as { type?: string }).type !== 'git')
		errors.push(
			`package.json repository must be {"type":"git","url":"git+https://github.com/<owner>/<name>.git"}, found ${JSON.stringify(pkg.repository)}`,
		);
	else if (match[2] === 'OWNER')
		placeholders.push('package.json repository still names the placeholder owner OWNER');

	const bugs = repository ? { url: `${repository}/issues` } : undefined;
	if (JSON.stringify(pkg.bugs) !== JSON.stringify(bugs))
		errors.push(
			bugs
				? `package.json bugs must be ${JSON.stringify(bugs)}, the repository's issues`
				: `package.json bugs must be left out while package.json has no repository, found ${JSON.stringify(pkg.bugs)}`,
		);

	const homepages = [
		npmPage(String(pkg.name)),
		...(repository ? [repository, `${repository}#readme`] : []),
	];
	if (!homepages.includes(String(pkg.homepage)))
		errors.push(
			`package.json homepage must be ${homepages.map((page) => JSON.stringify(page)).join(' or ')}, found ${JSON.stringify(pkg.homepage)}`,
		);

	const author = (pkg.author ?? {}) as { name?: string; email?: string };
	if (!author.name || /OWNER/.test(author.name))
		placeholders.push(`package.json author.name is a placeholder (${JSON.stringify(author.name)})`);
	if (author.email === undefined)
		placeholders.push("package.json author has no email: add the npm author's address");
	else if (/@example\.(com|org|net)$/i.test(author.email))
		placeholders.push(`package.json author.email is a placeholder address (${author.email})`);
	else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(author.email))
		placeholders.push(
			`package.json author.email is not an email address: ${JSON.stringify(author.email)}`,
		);
	return { errors, placeholders };
}

/** GitHub's anchor of each heading of a Markdown document, `#` included. */
export function headingAnchors(markdown: string): Set<string> {
	return new Set(
		[...markdown.matchAll(/^#+ (.+)$/gm)].map(
			([, heading]) =>
				'#' +
				heading
					.trim()
					.toLowerCase()
					.replace(/[^\w\s-]/g, '')
					.replace(/\s/g, '-'),
		),
	);
}

/** A documentation link as n8n loaded it: whose it is, and whether n8n appends its tracking query. */
export interface DocumentationLink {
	owner: string;
	url: string;
	tracked: boolean;
}

/**
 * The documentation links the built package carries lead to package.json's homepage, name README
 * sections that exist, and keep no fragment where n8n appends `?utm_source=…` (a node's link): the
 * fragment would swallow the query and name no section.
 */
export function documentationProblems(
	homepage: string,
	readme: string,
	links: DocumentationLink[],
): string[] {
	const base = homepage.split('#')[0];
	const anchors = headingAnchors(readme);
	const problems: string[] = [];
	if (!links.length) problems.push('the package carries no documentation link');
	for (const { owner, url, tracked } of links) {
		const [address, fragment] = url.split(/(?=#)/);
		if (address !== base)
			problems.push(
				`${owner} links to ${url}, not to package.json's homepage ${base}: run npm run build`,
			);
		else if (fragment && tracked)
			problems.push(
				`${owner} links to ${url}: n8n appends ?utm_source=… to it, inside the fragment, so its link must carry no #`,
			);
		else if (fragment && !anchors.has(fragment))
			problems.push(`${owner} links to ${fragment}, which is no heading of README.md`);
	}
	return problems;
}
