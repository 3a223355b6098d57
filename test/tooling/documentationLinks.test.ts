import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ICredentialType } from 'n8n-workflow';

import {
	documentationProblems,
	headingAnchors,
	type DocumentationLink,
} from '../../scripts/verify/checks';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	homepage: string;
	n8n: { nodes: string[]; credentials: string[] };
};
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const fromTest = createRequire(__filename);

/** Builds the bundles and codex files into a folder of their own; returns their links. */
function builtLinks(): DocumentationLink[] {
	const out = mkdtempSync(join(tmpdir(), 'mm-docs-'));
	try {
		execFileSync('npx', ['--no-install', 'gulp', 'build:bundle', 'build:codex'], {
			cwd: ROOT,
			env: { ...process.env, BUNDLE_OUTDIR: out },
			stdio: 'ignore',
		});
		const built = (file: string) => join(out, file.replace(/^dist\//, ''));
		const nodes = pkg.n8n.nodes.flatMap((node) => {
			const codex = JSON.parse(readFileSync(built(node).replace(/\.js$/, '.json'), 'utf8')) as {
				resources: Record<string, Array<{ url: string }>>;
			};
			return Object.values(codex.resources)
				.flat()
				.map(({ url }) => ({ owner: node, url, tracked: true }));
		});
		const credentials = pkg.n8n.credentials.map((file) => {
			const module = fromTest(built(file)) as Record<string, new () => ICredentialType>;
			const credential = new (Object.values(module)[0])();
			return { owner: credential.name, url: credential.documentationUrl ?? '', tracked: false };
		});
		return [...nodes, ...credentials];
	} finally {
		rmSync(out, { recursive: true, force: true });
	}
}

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
