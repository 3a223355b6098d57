import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { ICredentialType } from 'n8n-workflow';
import { parse } from 'yaml';

import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import {
	anchorsOf,
	linkProblems,
	measureReadme,
	paragraphs,
	readmeProblems,
	repositoryLinkProblems,
	usageProblems,
	wordCount,
} from '../../scripts/docsCheck';
import { packageFilesUrl } from '../../scripts/packageFiles';
import {
	documentationProblems,
	headingAnchors,
	type DocumentationLink,
} from '../../scripts/verify/checks';
import {
	localAddressProblems,
	placeholderProblems,
	textFilesUnder,
} from '../../scripts/verify/placeholders';
import { builtPackage } from '../helpers/built';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	homepage: string;
	n8n: { nodes: string[]; credentials: string[] };
};
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const fromTest = createRequire(__filename);

/** The package as `npm run build` makes dist/, built into a folder of its own. */
const dist = builtPackage('build:dist');

/** The documentation links of the built nodes' codex files and credentials. */
function builtLinks(): DocumentationLink[] {
	const file = (listed: string) => join(dist(), listed.replace(/^dist\//, ''));
	const nodes = pkg.n8n.nodes.flatMap((node) => {
		const codex = JSON.parse(readFileSync(file(node).replace(/\.js$/, '.json'), 'utf8')) as {
			resources: Record<string, Array<{ url: string }>>;
		};
		return Object.values(codex.resources)
			.flat()
			.map(({ url }) => ({ owner: node, url, tracked: true }));
	});
	const credentials = pkg.n8n.credentials.map((listed) => {
		const module = fromTest(file(listed)) as Record<string, new () => ICredentialType>;
		const credential = new (Object.values(module)[0])();
		return { owner: credential.name, url: credential.documentationUrl ?? '', tracked: false };
	});
	return [...nodes, ...credentials];
}

describe('placeholders', () => {
	it("are in no file of the built package, the README and CHANGELOG npm packs, nor package.json's links", () => {
		const files = textFilesUnder(dist());
		expect(Object.keys(files)).toEqual(
			expect.arrayContaining([...pkg.n8n.nodes, ...pkg.n8n.credentials].map((f) => f.slice(5))),
		);
		for (const name of ['README.md', 'CHANGELOG.md'])
			files[name] = readFileSync(join(ROOT, name), 'utf8');
		const { homepage, repository, bugs } = pkg as Record<string, unknown>;
		files['package.json'] = JSON.stringify({ homepage, repository, bugs });
		expect(placeholderProblems(files)).toEqual([]);
	});

	it('are each named with the file that holds them', () => {
		expect(
			placeholderProblems({
				'a.js': "url = 'https://github.com/OWNER/n8n-nodes-x#readme'; again('OWNER')",
				'b.json': '{"author":{"name":"OWNER NAME","email":"Owner@Example.com"}}',
				'c.js': "documentationUrl = 'https://readme.invalid#credentials'",
				'd.js': "OWNERS; owner@example.community; 'https://api.example.com/v3'; x.invalid_type",
			}),
		).toEqual([
			'a.js holds https://github.com/OWNER/n8n-nodes-x#readme: the placeholder owner OWNER',
			'a.js holds OWNER: the placeholder owner OWNER',
			'b.json holds OWNER: the placeholder owner OWNER',
			'b.json holds Owner@Example.com: the placeholder address of the owner',
			'c.js holds https://readme.invalid: a stand-in address under .invalid, which never resolves',
		]);
	});
});

describe('local addresses', () => {
	it('are in no built node or credential', () => {
		const files = textFilesUnder(dist());
		expect(Object.keys(files)).toEqual(
			expect.arrayContaining([...pkg.n8n.nodes, ...pkg.n8n.credentials].map((f) => f.slice(5))),
		);
		expect(localAddressProblems(files)).toEqual([]);
	});

	it('are each named with the file that holds them; the loopback rule of a base URL is none', () => {
		expect(
			localAddressProblems({
				'a.js': "href = 'http://127.0.0.1:4010/__sandbox/console'; again('http://127.0.0.1:4010')",
				'b.js': "'http://localhost/v3'; 'localhost:5678'; 'http://[::1]:8080'; 'host:4010/x'",
				'c.js': "/^(localhost|127(\\.\\d{1,3}){3})$/; 'allowed only for localhost'; ':40100'",
			}),
		).toEqual(
			[
				['a.js', '127.0.0.1:4010'],
				['b.js', '//localhost'],
				['b.js', 'localhost:5678'],
				['b.js', '[::1]:8080'],
				['b.js', ':4010'],
			].map(
				([file, found]) =>
					`${file} holds ${found}: a local address, which means nothing to a user of the package; name the address npm run dev prints instead`,
			),
		);
	});
});

describe('documentation links', () => {
	it('in the built package all follow the homepage; the nodes’ carry no fragment for n8n to append to', () => {
		const repository = pkg.homepage.split('#')[0];
		const links = builtLinks();
		expect(links.map((link) => link.url)).toEqual([
			...pkg.n8n.nodes.flatMap(() => [repository, repository]),
			`${repository}#credentials`,
			`${repository}#webhook-setup`,
		]);
		expect(documentationProblems(pkg.homepage, readme, links)).toEqual([]);
	});

	it("name the README's sections as GitHub anchors them", () => {
		expect(
			headingAnchors('# A title\n## Webhook setup\n### Running at scale (v2)\ntext # no'),
		).toEqual(new Set(['#a-title', '#webhook-setup', '#running-at-scale-v2']));
	});

	it('are refused when they leave the homepage, keep a fragment n8n appends to, or name no section', () => {
		const homepage = 'https://github.com/acme/n8n-nodes-x#readme';
		expect(
			documentationProblems(homepage, '## Credentials\n', [
				{ owner: 'a', url: 'https://github.com/other/n8n-nodes-x#credentials', tracked: false },
				{ owner: 'b', url: 'https://github.com/acme/n8n-nodes-x#credentials', tracked: true },
				{ owner: 'c', url: 'https://github.com/acme/n8n-nodes-x#operations', tracked: false },
				{ owner: 'd', url: 'https://github.com/acme/n8n-nodes-x#credentials', tracked: false },
			]),
		).toEqual([
			"a links to https://github.com/other/n8n-nodes-x#credentials, not to package.json's homepage https://github.com/acme/n8n-nodes-x: run npm run build",
			'b links to https://github.com/acme/n8n-nodes-x#credentials: n8n appends ?utm_source=… to it, inside the fragment, so its link must carry no #',
			'c links to #operations, which is no heading of README.md',
		]);
		expect(documentationProblems(homepage, '', [])).toEqual([
			'the package carries no documentation link',
		]);
	});
});

describe('the documentation', () => {
	it('keeps README.md within its limits', () => {
		expect(readmeProblems(readme)).toEqual([]);
	});

	it("gives each of README's Usage subsections 3 to 6 bullets and a link to a page of docs/ for depth", () => {
		expect(usageProblems(readme)).toEqual([]);
	});

	it('names the Usage subsection that is too long, too short or without a link', () => {
		const usage = (body: string) => `# P\n## Usage\n${body}\n## Troubleshooting\n`;
		expect(
			usageProblems(
				usage(
					'### Short\n- a\n- b [x](docs/a.md)\n### Long\n- 1\n- 2\n- 3\n- 4\n- 5\n- 6\n- 7 [x](https://cdn.jsdelivr.net/npm/p@1.0.0/docs/a.md)\n### Unlinked\n- a\n- b\n- c [n8n](https://docs.n8n.io) [here](#usage) [t](https://cdn.jsdelivr.net/npm/p@1.0.0/workflows/t.json)',
				),
			),
		).toEqual([
			'README.md\'s Usage "Short" has 2 bullets, not 3 to 6',
			'README.md\'s Usage "Long" has 7 bullets, not 3 to 6',
			'README.md\'s Usage "Unlinked" links to no page for its depth',
		]);
		expect(usageProblems('# P\n')).toEqual(['README.md has no "## Usage" section']);
	});

	it('resolves every relative link and anchor of README, CONTRIBUTING, SECURITY and docs/', () => {
		expect(repositoryLinkProblems()).toEqual([]);
	});

	it("puts the two commands at the README's top, the test command being the one CI runs", () => {
		const top = readme.slice(0, readme.search(/^## /m));
		const commands = [...top.matchAll(/^(npm [^#\n]*?)\s*(#.*)?$/gm)].map(([, command]) => command);
		expect(commands).toEqual(['npm install && npm run dev', 'npm install && npm test']);
		const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
		expect(ci.split('\n')).toContain(commands[1]);
	});

	it('names, in its contributor part, every port npm run dev opens, with its variable and default', () => {
		const dev = readFileSync(join(ROOT, 'scripts', 'dev.js'), 'utf8');
		const ports = [...dev.matchAll(/portFor\('(\w+)', (\d+)\)/g)];
		expect(ports.map(([, variable]) => variable)).toEqual(
			expect.arrayContaining(['N8N_PORT', 'N8N_RUNNERS_BROKER_PORT', 'SANDBOX_PORT']),
		);
		const contributing = readme.slice(readme.indexOf('## Contributing'));
		const line = contributing.split('\n').find((text) => text.startsWith('- **Ports**'));
		for (const [, variable, port] of ports) expect(line).toContain(`${port} (\`${variable}\`)`);
		expect(readme.slice(0, readme.indexOf('## Contributing'))).not.toMatch(/\bN8N_PORT\b/);
	});

	it('says at its top that the node reads work orders, as long as it offers no work-order write, and never that the service cannot write them', () => {
		const methods = Object.values(resources.failure.operations).map(
			({ endpoint }) => endpoint.method,
		);
		expect(new Set(methods)).toEqual(new Set(['GET']));
		const top = readme.slice(0, readme.search(/^## /m));
		expect(top).toContain(
			'The node reads work orders: the specification it implements has no call that writes one.',
		);
		// The service has endpoints the specification does not show: the README names the way to them.
		expect(top).toContain(
			'[Endpoints the node does not cover](#endpoints-the-node-does-not-cover)',
		);
		expect(readme).not.toMatch(/the API (has no call|lets it read work orders, not write)/i);
		const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((file) => `docs/${file}`)];
		for (const page of pages.filter((file) => file.endsWith('.md')))
			expect([page, readFileSync(join(ROOT, page), 'utf8')]).not.toEqual([
				page,
				expect.stringMatching(/\b(writes|creates|updates|changes) work orders\b/i),
			]);
	});

	it("pins docs/docker.md's image to the n8n the tests run, and links it from Installation", () => {
		const docker = readFileSync(join(ROOT, 'docs', 'docker.md'), 'utf8');
		const compose = parse(/```yaml\n([\s\S]*?)```/.exec(docker)?.[1] ?? '') as {
			services: { n8n: { image: string; volumes: string[] } };
		};
		const runtime = JSON.parse(
			readFileSync(join(ROOT, 'scripts', 'n8n', 'package.json'), 'utf8'),
		) as { dependencies: { n8n: string } };
		expect(compose.services.n8n.image).toBe(`n8nio/n8n:${runtime.dependencies.n8n}`);
		expect(compose.services.n8n.volumes).toEqual(['n8n_data:/home/node/.n8n']);
		const installation = readme.slice(
			readme.indexOf('## Installation'),
			readme.indexOf('## Credentials'),
		);
		const { name, version } = pkg as unknown as { name: string; version: string };
		expect(installation).toContain(`](${packageFilesUrl(name, version)}docs/docker.md)`);
	});

	it('counts words, paragraphs and the words before Installation as a reader meets them', () => {
		expect(wordCount('| --- | a `b` c-d | 12 |')).toBe(4);
		expect(
			paragraphs('# T\n\nOne\ntwo.\n\n- a\n  b\n- c\n| x | y |\n\n```\nnot this\n```\nEnd'),
		).toEqual(['# T', 'One two.', '- a   b', '- c', '| x | y |', 'End']);
		const table =
			'<!-- Operations table: written by `npm run build` from the operations registry; edit the operations, not this table. -->\n| many words here |\n<!-- End of the operations table. -->';
		expect(measureReadme(`# P\n\nFour words right here.\n\n## Installation\n\n${table}\n`)).toEqual(
			{
				words: 6,
				longestParagraph: { words: 4, text: 'Four words right here.' },
				wordsBeforeInstallation: 5,
			},
		);
	});

	it('names each README limit it breaks', () => {
		const long = `# P\n\n${'word '.repeat(90)}\n\n## Installation\n`;
		expect(
			readmeProblems(long, { words: 50, paragraphWords: 80, wordsBeforeInstallation: 20 }),
		).toEqual([
			'README.md has 92 words besides the Operations table, over 50: move depth to docs/',
			`README.md has a paragraph of 90 words, over 80: "${'word '.repeat(16)}…"`,
			'README.md has 91 words before "## Installation", over 20',
		]);
		expect(readmeProblems('# P\n')).toEqual(['README.md has no "## Installation" heading']);
	});

	it('names the file and the link whose target or anchor is missing', () => {
		const files: Record<string, string> = {
			'README.md':
				'# Top\n## Usage\n[ok](#usage) [gone](#nope) [doc](docs/a.md#setup-steps) [bad](docs/a.md#x) [missing](docs/b.md) [site](https://example.com/#x) `[code](nowhere.md)`\n',
			'docs/a.md':
				'# A\n## Setup steps\n<a id="rate-limit"></a>\n[back](../README.md#usage) [id](#rate-limit) [img](pic.png)\n```\n# Not a heading\n```\n',
		};
		const read = (file: string) => files[file];
		expect(
			linkProblems(['README.md', 'docs/a.md', 'SECURITY.md'], read, (file) => file in files),
		).toEqual([
			'README.md links to #nope: no heading of README.md makes #nope',
			'README.md links to docs/a.md#x: no heading of docs/a.md makes #x',
			'README.md links to docs/b.md: docs/b.md does not exist',
			'docs/a.md links to pic.png: docs/pic.png does not exist',
			'SECURITY.md does not exist',
		]);
		expect(anchorsOf(files['docs/a.md'])).toEqual(new Set(['#a', '#setup-steps', '#rate-limit']));
	});
});
