import { validateWorkflow } from '@action-validator/core';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, parseDocument, visit } from 'yaml';

import { jestArgsFor, PINNED_ONLY, versionsToRun } from '../../scripts/compat';

const ROOT = join(__dirname, '..', '..');
const PACKAGE_NAME = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).name;
const read = (name: string) => readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8');

describe('GitHub Actions workflows', () => {
	it.each(['ci.yml', 'publish.yml'])('%s passes the workflow schema (action-validator)', (name) => {
		expect(validateWorkflow(read(name)).errors).toEqual([]);
	});

	it('the schema check fails a malformed workflow', () => {
		const broken = read('ci.yml').replace('runs-on:', 'runs-onn:');
		expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
	});

	it('CI runs the fast checks in a job of their own beside the full run', () => {
		const { fast, test } = parsed(read('ci.yml')).workflow.jobs;
		expect(fast.steps.flatMap((step) => (step.run ? [step.run] : []))).toEqual([
			'npm ci',
			'npm run build',
			'npm run typecheck',
			'npm run lint',
			'npm run test:fast',
		]);
		expect(fast.needs).toBeUndefined();
		expect(test.steps.flatMap((step) => (step.run ? [step.run] : []))).toEqual(['.ci/run']);
	});

	it('CI restores the install cache keyed on every file that names its entries and on its image', () => {
		const { fast, test } = parsed(read('ci.yml')).workflow.jobs;
		const caches = [...fast.steps, ...test.steps].filter((step) =>
			step.uses?.startsWith('actions/cache@'),
		);
		for (const step of caches) expect(String(step.with?.key)).toMatch(/hashFiles\('.*lock\.json'/);
		const runtime = test.steps.find((step) => step.with?.path === `~/.cache/${PACKAGE_NAME}`);
		// No restore-keys: a changed lockfile starts from an empty cache, not from stale entries. Nor does
		// a changed image restore a sqlite3 built in the old one: the key holds the job's image by digest.
		const image = imageOf(test);
		expect(image).toMatch(/@sha256:[0-9a-f]{64}$/);
		expect(runtime?.with).toEqual({
			path: `~/.cache/${PACKAGE_NAME}`,
			key: `runtime-${image}-\${{ hashFiles('scripts/n8n/**/package.json', 'scripts/n8n/**/package-lock.json', 'scripts/runtime.js') }}`,
		});
		// The fast job's Node 24 too, and an older key it restores from is of the same image.
		const node = fast.steps.find((step) => String(step.with?.path).includes('/node-*'));
		expect(imageOf(fast)).toMatch(/@sha256:[0-9a-f]{64}$/);
		expect(node?.with).toEqual({
			path: `~/.npm\n~/.cache/${PACKAGE_NAME}/node-*\n`,
			key: `fast-${imageOf(fast)}-\${{ hashFiles('package-lock.json', 'scripts/runtime.js') }}`,
			'restore-keys': `fast-${imageOf(fast)}-`,
		});
		expect(readFileSync(join(ROOT, 'scripts', 'runtime.js'), 'utf8')).toMatch(
			/^const NODE_VERSION = '[\d.]+';$/m,
		);
	});

	it('CI runs .ci/run, which runs the test command, the zod 4 run, the queue suite and verify', () => {
		const run = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
		expect(run).toMatch(/^npm install && npm test$/m);
		// The build in npm test writes the README's Operations table; CI fails when that changed it.
		expect(run.indexOf('git diff --exit-code -- README.md')).toBeGreaterThan(
			run.indexOf('npm install && npm test'),
		);
		expect(run).toMatch(/^npm run test:zod4$/m);
		expect(run).toMatch(/^npm run test:queue$/m);
		expect(run).toMatch(/^npm run verify$/m);
	});

	it("CI's compatibility step runs each n8n version npm test did not, and not the pinned one again", () => {
		const run = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
		expect(run).toMatch(/^npm run test:compat -- --others$/m);
		const pinned = JSON.parse(readFileSync(join(ROOT, 'scripts', 'n8n', 'package.json'), 'utf8'))
			.dependencies.n8n;
		const others = versionsToRun(['--others']);
		expect(others).not.toContain(pinned);
		expect(others.length).toBeGreaterThan(0);
		expect([...others, pinned].sort()).toEqual([...versionsToRun([])].sort());
		expect(versionsToRun(['2.0.0'])).toEqual(['2.0.0']);
	});

	it('leaves to the pinned n8n the end-to-end files that never run the n8n under test', () => {
		const pinned = JSON.parse(readFileSync(join(ROOT, 'scripts', 'n8n', 'package.json'), 'utf8'))
			.dependencies.n8n;
		expect(jestArgsFor(pinned)).toEqual([]);
		const [flag, ...patterns] = jestArgsFor('2.0.0');
		expect(flag).toBe('--testPathIgnorePatterns');
		expect(PINNED_ONLY.length).toBeGreaterThan(0);
		for (const file of PINNED_ONLY) {
			expect(existsSync(join(ROOT, file))).toBe(true);
			expect(patterns.filter((pattern) => new RegExp(pattern).test(join(ROOT, file)))).toHaveLength(
				1,
			);
		}
		expect(
			patterns.some((pattern) => new RegExp(pattern).test(join(ROOT, 'test/e2e/n8n.e2e.test.ts'))),
		).toBe(false);
	});

	it('publish runs on a version tag, verifies refusing placeholders, then publishes with provenance', () => {
		const publish = read('publish.yml');
		expect(publish).toMatch(/^on:\n {2}push:\n {4}tags: \['v\*\.\*\.\*'\]$/m);
		expect(publish.indexOf('npm run verify -- --release')).toBeGreaterThan(0);
		expect(publish.indexOf('npm publish "./$TARBALL" --provenance')).toBeGreaterThan(
			publish.indexOf('npm run verify'),
		);
		expect(publish).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN/);
	});
});

interface Step {
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
}
interface Job {
	needs?: string | string[];
	permissions?: Record<string, string>;
	container?: string | { image: string };
	steps: Step[];
}
interface Workflow {
	permissions?: unknown;
	jobs: Record<string, Job>;
}

/** The image a job runs in. */
const imageOf = (job: Job) =>
	String(typeof job.container === 'object' ? job.container.image : job.container);

/** The workflow as data, and every `uses:` with the comment written after it. */
function parsed(source: string): { workflow: Workflow; uses: Array<[string, string]> } {
	const document = parseDocument(source);
	const uses: Array<[string, string]> = [];
	visit(document, {
		Pair(_key, pair) {
			if (isScalar(pair.key) && pair.key.value === 'uses' && isScalar(pair.value))
				uses.push([String(pair.value.value), (pair.value.comment ?? '').trim()]);
		},
	});
	expect(isMap(document.contents)).toBe(true);
	return { workflow: document.toJS() as Workflow, uses };
}

/** What a workflow breaks of the supply-chain rules; empty when it keeps them all. */
function supplyChainProblems(source: string): string[] {
	const { workflow, uses } = parsed(source);
	const problems: string[] = [];
	for (const [action, comment] of uses) {
		if (!/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(action))
			problems.push(`${action} is not pinned by a full commit SHA`);
		if (!/^v\d+\.\d+\.\d+$/.test(comment)) problems.push(`${action} has no version comment`);
	}
	const top = workflow.permissions;
	if (typeof top !== 'object' || top === null || Object.keys(top).length > 0)
		problems.push('the workflow grants permissions to every job');
	for (const [name, job] of Object.entries(workflow.jobs)) {
		const permissions = job.permissions ?? {};
		if (job.permissions === undefined) problems.push(`job ${name} sets no permissions`);
		for (const [scope, level] of Object.entries(permissions)) {
			const allowed =
				scope === 'contents' ? level === 'read' : scope === 'id-token' && name === 'publish';
			if (!allowed) problems.push(`job ${name} holds ${scope}: ${level}`);
		}
		const image = typeof job.container === 'object' ? job.container.image : job.container;
		if (image !== undefined && !/@sha256:[0-9a-f]{64}$/.test(image))
			problems.push(`job ${name} runs in ${image}, not pinned by digest`);
		for (const step of job.steps) {
			if (
				step.uses?.startsWith('actions/checkout@') &&
				step.with?.['persist-credentials'] !== false
			)
				problems.push(`job ${name} keeps checkout's credentials`);
			for (const [, tool, version] of (step.run ?? '').matchAll(
				/\bnpm (?:install|i) (?:--global|-g) (\S+?)@(\S+)/g,
			))
				if (!/^\d+\.\d+\.\d+$/.test(version))
					problems.push(`${tool}@${version} is not an exact version`);
			if (
				step.with?.['node-version'] !== undefined &&
				!/^\d+\.\d+\.\d+$/.test(String(step.with['node-version']))
			)
				problems.push(`node-version ${String(step.with['node-version'])} is not an exact version`);
		}
	}
	return problems;
}

describe('the supply chain of the workflows', () => {
	it.each(['ci.yml', 'publish.yml'])(
		'%s pins every action, tool and image and grants least privilege',
		(name) => {
			expect(supplyChainProblems(read(name))).toEqual([]);
		},
	);

	it('only the publish job holds the OIDC token', () => {
		const publish = parsed(read('publish.yml')).workflow;
		expect(publish.jobs.publish.permissions).toEqual({ 'id-token': 'write' });
		expect(publish.jobs.build.permissions).toEqual({ contents: 'read' });
		for (const job of Object.values(parsed(read('ci.yml')).workflow.jobs))
			expect(job.permissions).toEqual({ contents: 'read' });
	});

	it.each([
		[
			'a tag',
			(yml: string) => yml.replace(/checkout@[0-9a-f]{40} # v[\d.]+/, 'checkout@v6'),
			/not pinned by a full commit SHA/,
		],
		[
			'a SHA without its version',
			(yml: string) => yml.replace(/(checkout@[0-9a-f]{40}) # v[\d.]+/, '$1'),
			/no version comment/,
		],
		[
			'a floating npm',
			(yml: string) =>
				yml.replace(/^( {6})- run: npm ci$/m, '$1- run: npm install --global npm@latest\n$&'),
			/npm@latest is not an exact version/,
		],
		[
			'a floating Node',
			(yml: string) => yml.replace(/node-version: [\d.]+/, 'node-version: 24'),
			/node-version 24/,
		],
		[
			'checkout credentials kept',
			(yml: string) => yml.replace('persist-credentials: false', 'persist-credentials: true'),
			/keeps checkout's credentials/,
		],
		[
			'write access for the job',
			(yml: string) => yml.replace(/ {6}contents: read/, '      contents: write'),
			/holds contents: write/,
		],
		[
			'permissions for every job',
			(yml: string) => yml.replace('permissions: {}', 'permissions:\n  id-token: write'),
			/every job/,
		],
	])('finds %s in publish.yml', (_label, change, problem) => {
		const changed = change(read('publish.yml'));
		expect(changed).not.toBe(read('publish.yml'));
		expect(supplyChainProblems(changed).join('\n')).toMatch(problem);
	});

	it('finds a container image by tag in ci.yml', () => {
		const changed = read('ci.yml').replace(/@sha256:[0-9a-f]{64}/g, '');
		expect(supplyChainProblems(changed)).toEqual([
			'job fast runs in node:20-bookworm, not pinned by digest',
			'job test runs in node:20-bookworm, not pinned by digest',
		]);
	});
});

/** What the job holding the OIDC token may run: the checksum check and the publish, nothing installed. */
const PUBLISH_COMMANDS = [
	/^echo "\$SHA256 {2}\$TARBALL" \| sha256sum --check --strict$/,
	/^npm publish "\.\/\$TARBALL" --provenance --access public --ignore-scripts$/,
];
const PUBLISH_ACTIONS = /^actions\/(?:download-artifact|setup-node)@/;

/**
 * What a publish workflow breaks of the rule that the publishing identity runs nothing but the publish
 * of a tarball built, verified and packed by a job without it; empty when it keeps the rule.
 */
function publishingProblems(source: string): string[] {
	const { jobs } = parsed(source).workflow;
	const problems: string[] = [];
	const holders = Object.entries(jobs).filter(([, job]) => job.permissions?.['id-token']);
	if (holders.length !== 1)
		problems.push(`${holders.length} jobs hold id-token: ${holders.map(([n]) => n).join(', ')}`);
	for (const [name, job] of holders) {
		for (const step of job.steps) {
			if (step.uses !== undefined && !PUBLISH_ACTIONS.test(step.uses))
				problems.push(`job ${name} uses ${step.uses}`);
			const commands = (step.run ?? '')
				.split('\n')
				.map((line) => line.trim())
				.filter(Boolean);
			for (const command of commands)
				if (!PUBLISH_COMMANDS.some((allowed) => allowed.test(command)))
					problems.push(`job ${name} runs ${command}`);
		}
		const run = job.steps.map((step) => step.run ?? '').join('\n');
		if (!/sha256sum --check[\s\S]*npm publish/.test(run))
			problems.push(`job ${name} publishes without checking the tarball's checksum first`);
		const builders = [job.needs ?? []].flat();
		const built = builders.some((builder) => {
			const steps = jobs[builder]?.steps ?? [];
			const runs = steps.map((step) => step.run ?? '').join('\n');
			return (
				/^npm ci$/m.test(runs) &&
				runs.includes('npm run verify -- --release') &&
				/npm pack --ignore-scripts/.test(runs) &&
				/sha256sum/.test(runs) &&
				steps.some((step) => step.uses?.startsWith('actions/upload-artifact@'))
			);
		});
		if (!built)
			problems.push(
				`job ${name} needs no job that installs with npm ci, verifies, packs and uploads the tarball`,
			);
	}
	return problems;
}

describe('the publishing identity', () => {
	it('runs nothing but the checksum check and the publish of the verified tarball', () => {
		expect(publishingProblems(read('publish.yml'))).toEqual([]);
	});

	it.each([
		[
			'an install in the publish job',
			(yml: string) =>
				yml.replace(/(\n {6}- name: Publish the verified)/, '\n      - run: npm ci$1'),
			/job publish runs npm ci/,
		],
		[
			'an npm upgrade in the publish job',
			(yml: string) =>
				yml.replace(
					/(\n {6}- name: Publish the verified)/,
					'\n      - run: npm install --global npm@11.21.2 --ignore-scripts$1',
				),
			/job publish runs npm install --global npm@11\.21\.2/,
		],
		[
			'a build in the publish job',
			(yml: string) => yml.replace('sha256sum --check --strict', '$&\n          npm run build'),
			/job publish runs npm run build/,
		],
		[
			'a checkout in the publish job',
			(yml: string) =>
				yml.replace(
					/(\n {6}- uses: actions\/download-artifact)/,
					'\n      - uses: actions/checkout@d23441a48e516b6c34aea4fa41551a30e30af803 # v6.1.0$1',
				),
			/job publish uses actions\/checkout/,
		],
		[
			'a publish running scripts',
			(yml: string) => yml.replace(/(npm publish .*) --ignore-scripts/, '$1'),
			/job publish runs npm publish/,
		],
		[
			'a publish without the checksum check',
			(yml: string) => yml.replace(/ *echo "\$SHA256.*\n/, ''),
			/without checking the tarball's checksum/,
		],
		[
			'the OIDC token in the build job too',
			(yml: string) =>
				yml.replace(
					/( {4}permissions:\n {6}contents: read\n {4}outputs:)/,
					'    permissions:\n      contents: read\n      id-token: write\n    outputs:',
				),
			/2 jobs hold id-token: build, publish/,
		],
		[
			'npm install in the build job',
			(yml: string) => yml.replace(/^ {6}- run: npm ci$/m, '      - run: npm install'),
			/needs no job that installs with npm ci/,
		],
	])('finds %s', (_label, change, problem) => {
		const changed = change(read('publish.yml'));
		expect(changed).not.toBe(read('publish.yml'));
		expect(publishingProblems(changed).join('\n')).toMatch(problem);
	});
});
