import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { z } from 'zod/v3';

import { MaintenanceManagementApi } from '../../credentials/MaintenanceManagementApi.credentials';
import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { lazy } from '../../nodes/shared/schemas';
import { n8nFiles } from '../../scripts/verify/checks';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Evaluates an n8n `={{ ... }}` expression over credential data, the way n8n evaluates it. */
const evaluate = (expression: unknown, credentials: Record<string, unknown>): unknown => {
	const source = String(expression)
		.replace(/^=\{\{/, '')
		.replace(/\}\}$/, '');
	return new Function('$credentials', `return (${source});`)(credentials);
};

describe('package.json', () => {
	it('is a community node package with no runtime dependencies, shipping its templates and documentation', () => {
		expect(pkg.name).toBe('n8n-nodes-maintenance-management');
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.license).toBe('MIT');
		// The pictures: exactly those its pages show (test/tooling/npmPage.test.ts).
		const pictures = (pkg.files as string[]).filter((entry) => /^docs\/[\w-]+\.png$/.test(entry));
		expect(pkg.files).toEqual([
			'dist',
			'workflows/*.json',
			'docs/*.md',
			...pictures,
			'SECURITY.md',
			'CHANGELOG.md',
		]);
		expect(pkg.dependencies).toBeUndefined();
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1 });
	});

	it('names, in its n8n section, a source file for every built node and credential', () => {
		const listed: string[] = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
		expect(listed.length).toBeGreaterThanOrEqual(3);
		for (const file of listed) {
			expect(file).toMatch(/^dist\/.+\.js$/);
			expect(existsSync(join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(
				true,
			);
		}
	});

	it('names only files npm packs: its main, nodes and credentials are all in the tarball', () => {
		// The package as npm packs it from a clean checkout after the build: the files at the top of the
		// repository, and the nodes and credentials built into dist/.
		const folder = mkdtempSync(join(tmpdir(), 'mm-pack-'));
		try {
			const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' });
			for (const file of tracked.split('\n').filter((path) => path && !path.includes('/')))
				copyFileSync(join(root, file), join(folder, file));
			execFileSync('npx', ['--no-install', 'gulp', 'build:bundle'], {
				cwd: root,
				env: { ...process.env, BUNDLE_OUTDIR: join(folder, 'dist') },
				stdio: 'ignore',
			});
			const [packed] = JSON.parse(
				execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
					cwd: folder,
					encoding: 'utf8',
				}),
			) as Array<{ files: Array<{ path: string }> }>;
			const files = packed.files.map(({ path }) => path);
			const named: string[] = [...(pkg.main === undefined ? [] : [pkg.main]), ...n8nFiles(pkg)];
			expect(named.length).toBeGreaterThanOrEqual(4);
			expect(named.filter((file) => !files.includes(file))).toEqual([]);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});

describe('loading the action node', () => {
	it('builds a request schema the first time it is asked for, and only once', () => {
		const build = jest.fn(() => z.object({ id: z.number() }));
		const schema = lazy(build);
		expect(build).not.toHaveBeenCalled();
		const first = schema();
		expect(schema()).toBe(first);
		expect(build).toHaveBeenCalledTimes(1);
		expect(first.parse({ id: 1 })).toEqual({ id: 1 });
	});

	it('gives every operation with a body one schema, kept between runs', () => {
		const bodies = Object.values(resources).flatMap(({ operations }) =>
			Object.values(operations).flatMap(({ endpoint }) => (endpoint.body ? [endpoint.body] : [])),
		);
		expect(bodies.length).toBeGreaterThan(10);
		for (const { schema } of bodies) expect(schema()).toBe(schema());
	});
});

describe('credential', () => {
	const credential = new MaintenanceManagementApi();

	it('holds the token as a password field, the environment and a base URL per environment', () => {
		const byName = Object.fromEntries(credential.properties.map((p) => [p.name, p]));
		expect(byName.accessToken.typeOptions?.password).toBe(true);
		expect(byName.environment.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual([
			'production',
			'sandbox',
		]);
		expect(byName.productionBaseUrl.displayOptions?.show?.environment).toEqual(['production']);
		expect(byName.sandboxBaseUrl.displayOptions?.show?.environment).toEqual(['sandbox']);
	});

	it.each([
		['abc123', 'Bearer abc123'],
		['  abc123 \n', 'Bearer abc123'],
		['\tabc123\r\n', 'Bearer abc123'],
	])('sends Authorization for token %j as %j', (token, header) => {
		expect(
			evaluate(credential.authenticate.properties.headers?.Authorization, { accessToken: token }),
		).toBe(header);
	});
});
