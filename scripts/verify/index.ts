/**
 * `npm run verify`: what n8n's verification checks, run here, offline, on the package as npm would
 * publish it. It builds and packs the package, then:
 * - checks package.json (no runtime dependencies, peer n8n-workflow "*", no install scripts, MIT,
 *   files limited to dist, the templates and the documentation) and the tarball's file list;
 * - checks the documentation links n8n loads from the package: made from package.json's homepage,
 *   naming README sections that exist, and without a fragment where n8n appends its tracking query;
 * - looks for placeholders (OWNER, the owner's example address, a stand-in address) in every file
 *   of the tarball but package.json, whose own the metadata check reports, and for a secret, a local
 *   address or an instance's ID in the workflow templates, and for what no template may do
 *   (templateRules.ts: send to another host, run a command, read the environment, …);
 * - lints the unpacked tarball and the source with the configuration of n8n's own scanner
 *   (@n8n/scan-community-package, whose rules and file patterns are reused as they are);
 * - runs `n8n-node lint`;
 * - installs the tarball, without node_modules, into a fresh n8n user folder's community-package folder
 *   and loads every node and credential with the pinned n8n's loader and its modules only.
 * What package.json lacks until the owner sets it (the repository, the author's email) is a warning;
 * everything else fails the run. With --release (the publish workflow), those fail it too: no release
 * goes out without its repository and author.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ESLint as ESLintType } from 'eslint';

import {
	checkManifest,
	checkTarball,
	documentationProblems,
	metadataProblems,
	type Manifest,
} from './checks';
import { localAddressProblems, placeholderProblems, textFilesUnder } from './placeholders';
import { templateProblems } from './templates';
import { templateHarms } from './templateRules';

const ROOT = join(__dirname, '..', '..');
const SCANNER = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs', {
	paths: [ROOT],
});

const errors: string[] = [];
const warnings: string[] = [];
const say = (line: string) => process.stdout.write(`${line}\n`);

function step(title: string, problems: string[], detail = ''): void {
	say(`${problems.length ? '✗' : '✓'} ${title}${detail ? `: ${detail}` : ''}`);
	for (const problem of problems) say(`    ${problem}`);
	errors.push(...problems);
}

function npm(args: string[], cwd = ROOT): string {
	return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Lints files with the scanner's own flat config, as its analyzePackage does; warnings count too. */
async function scannerLint(cwd: string, patterns: string[]): Promise<[number, string[]]> {
	const scanner = await import(SCANNER);
	const fromScanner = createRequire(SCANNER);
	const { ESLint } = fromScanner('eslint') as { ESLint: typeof ESLintType };
	const glob = fromScanner('fast-glob') as { sync: (p: string[], o: object) => string[] };
	const eslint = new ESLint({
		cwd,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = await eslint.lintFiles(files);
	const problems = results.flatMap((result) =>
		result.messages.map(
			(m) =>
				`${result.filePath.slice(cwd.length + 1)}:${m.line}:${m.column} ${m.severity === 2 ? 'error' : 'warning'} ${m.message} (${m.ruleId})`,
		),
	);
	if (!files.length) problems.push(`no files matched ${patterns.join(', ')}`);
	return [files.length, problems];
}

async function main(): Promise<void> {
	const started = Date.now();
	const work = mkdtempSync(join(tmpdir(), 'mm-verify-'));
	// The scanner makes a temporary folder when it loads; keep it inside ours.
	process.env.TMPDIR = work;
	try {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

		step('package.json', checkManifest(pkg));
		const metadata = metadataProblems(pkg);
		step('package.json homepage, repository and bugs', metadata.errors);
		if (process.argv.includes('--release'))
			step('package.json metadata for a release (--release)', metadata.placeholders);
		else
			for (const placeholder of metadata.placeholders)
				warnings.push(`${placeholder}: fill it in before the first release`);

		const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
		step('npm run build', build.status === 0 ? [] : [`${build.stdout}${build.stderr}`]);
		if (build.status !== 0) return;

		const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', work])) as Array<{
			filename: string;
			size: number;
			files: Array<{ path: string }>;
		}>;
		const tarball = join(work, packed.filename);
		const files = packed.files.map((file) => file.path);
		step(
			'npm pack',
			checkTarball(pkg, files),
			`${packed.filename}, ${files.length} files, ${Math.round(packed.size / 1024)} kB`,
		);
		const unpacked = join(work, 'tarball');
		mkdirSync(unpacked);
		execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
		// package.json's placeholders are the metadata check's (above): warnings until a release.
		const contents = textFilesUnder(unpacked);
		delete contents['package.json'];
		step('no placeholder in the tarball besides package.json', placeholderProblems(contents));
		const built = Object.fromEntries(
			Object.entries(contents).filter(([path]) => path.startsWith('dist/')),
		);
		step('no local address in the built nodes and credentials', localAddressProblems(built));
		const templates = Object.entries(contents).filter(([path]) => path.startsWith('workflows/'));
		step(
			'no secret, local address or instance ID in the workflow templates',
			templates.flatMap(([path, text]) => templateProblems(path, JSON.parse(text))),
			`${templates.length} templates`,
		);
		step(
			'nothing harmful in the workflow templates (scripts/verify/templateRules.ts)',
			templates.flatMap(([path, text]) => templateHarms(path, JSON.parse(text))),
			`${templates.length} templates`,
		);

		const scanner = await import(SCANNER);
		const [distCount, distProblems] = await scannerLint(unpacked, ['**/*.js', 'package.json']);
		step("n8n's scanner rules on the tarball", distProblems, `${distCount} files`);
		const [sourceCount, sourceProblems] = await scannerLint(ROOT, scanner.SOURCE_FILE_PATTERNS);
		step("n8n's scanner rules on the source", sourceProblems, `${sourceCount} files`);

		// Strict mode: the root's eslint.config.mjs is n8n's, word for word; the tests, sandbox, scripts and
		// benchmarks have their own, which ESLint 9 finds only under this flag (ESLint 10's default).
		const lint = spawnSync('npx', ['--no-install', 'n8n-node', 'lint'], {
			cwd: ROOT,
			encoding: 'utf8',
			env: { ...process.env, FORCE_COLOR: '0', ESLINT_FLAGS: 'unstable_config_lookup_from_file' },
		});
		const lintOutput = `${lint.stdout}${lint.stderr}`;
		step(
			'n8n-node lint',
			lint.status === 0 && !/\d+ (problems?|warnings?)/.test(lintOutput) ? [] : [lintOutput],
		);

		const loaded = loadInN8n(pkg, tarball, work);
		if (loaded) {
			const links = [
				...loaded.nodes.flatMap((node) =>
					node.documentation.map(({ url }) => ({ owner: node.name, url, tracked: true })),
				),
				...loaded.credentials.map((credential) => ({
					owner: credential.name,
					url: credential.documentationUrl ?? '',
					tracked: false,
				})),
			];
			const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
			step(
				'documentation links',
				documentationProblems(pkg.homepage as string, readme, links),
				[...new Set(links.map((link) => link.url))].join(', '),
			);
		}
	} finally {
		rmSync(work, { recursive: true, force: true });
		for (const warning of warnings) say(`! warning: ${warning}`);
		say(
			`${errors.length ? `✗ verify failed: ${errors.length} problem(s)` : '✓ verify passed'}${warnings.length ? `, ${warnings.length} warning(s)` : ''} in ${Math.round((Date.now() - started) / 1000)} s`,
		);
		process.exitCode = errors.length ? 1 : 0;
	}
}

interface Loaded {
	nodes: Array<{ name: string; sourcePath: string; documentation: Array<{ url: string }> }>;
	credentials: Array<{ name: string; sourcePath: string; documentationUrl?: string }>;
	modules: Record<string, string>;
	foreign: string[];
}

/**
 * Installs the tarball as n8n installs a community package and loads it with n8n's loader; returns
 * what n8n loaded, or nothing when it could not load the package.
 */
function loadInN8n(pkg: Manifest, tarball: string, work: string): Loaded | undefined {
	const { ensureRuntime } = createRequire(__filename)(join(ROOT, 'scripts', 'runtime.js')) as {
		ensureRuntime: () => { node: string; n8nDir: string };
	};
	const runtime = ensureRuntime();
	const n8nModules = realpathSync(join(runtime.n8nDir, 'node_modules'));
	const userFolder = join(work, 'user');
	const installDir = join(userFolder, '.n8n', 'nodes', 'node_modules', pkg.name!);
	mkdirSync(installDir, { recursive: true });
	const packageDir = realpathSync(installDir);
	execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	const loaded = spawnSync(
		runtime.node,
		[join(__dirname, 'load-in-n8n.js'), packageDir, n8nModules],
		{ encoding: 'utf8', env: { PATH: process.env.PATH, HOME: userFolder } },
	);
	if (loaded.status !== 0) {
		step('loads in the pinned n8n', [`n8n could not load the package:\n${loaded.stderr}`]);
		return undefined;
	}
	const result = JSON.parse(loaded.stdout) as Loaded;
	const problems: string[] = [];
	if (existsSync(join(packageDir, 'node_modules')))
		problems.push('the installed package has a node_modules folder');
	const expect = (kind: string, listed: string[] = [], found: Array<{ sourcePath: string }>) => {
		const missing = listed.filter((file) => !found.some((item) => item.sourcePath === file));
		if (missing.length) problems.push(`n8n loaded no ${kind} from ${missing.join(', ')}`);
	};
	expect('node', pkg.n8n?.nodes, result.nodes);
	expect('credential', pkg.n8n?.credentials, result.credentials);
	for (const [request, file] of Object.entries(result.modules)) {
		if (!file.startsWith(`${n8nModules}/`))
			problems.push(`${request} resolved to ${file}, not to n8n's own copy`);
	}
	if (result.foreign.length)
		problems.push(`modules loaded from outside n8n and the package: ${result.foreign.join(', ')}`);
	step(
		'loads in the pinned n8n, with n8n’s modules only',
		problems,
		`${result.nodes.map((n) => n.name).join(', ')}; ${result.credentials.map((c) => c.name).join(', ')}`,
	);
	return result;
}

void main();
