/**
 * `npm run test:queue`: the package in n8n's queue mode. Starts Redis and PostgreSQL on loopback (from
 * Debian's packages, installed here when missing), runs the jest "queue" project, which starts the pinned
 * n8n as a main, a webhook and two worker processes and installs the package through the main process
 * from a local registry (test/queue/queue.test.ts), then stops both servers and removes their data.
 */
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const {
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
} = require('node:fs');
const { connect } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');

const { freePort } = require('./ports');
const { ensureRuntime, ROOT, runJestProject } = require('./runtime');

const log = (message) => process.stderr.write(`[queue] ${message}\n`);
const isRoot = process.getuid?.() === 0;

/** The PostgreSQL server programs of the newest installed major version, or undefined. */
function postgresBin() {
	const base = '/usr/lib/postgresql';
	if (!existsSync(base)) return undefined;
	const versions = readdirSync(base)
		.filter((v) => existsSync(join(base, v, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? join(base, versions[0], 'bin') : undefined;
}

const hasRedis = () => spawnSync('redis-server', ['--version']).status === 0;

function ensurePackages() {
	if (hasRedis() && postgresBin()) return;
	if (!isRoot) {
		throw new Error(
			'Redis and PostgreSQL are needed: install them with `sudo apt-get install -y redis-server postgresql`, then run this again',
		);
	}
	log('installing redis-server and postgresql from Debian packages…');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
	execFileSync(
		'apt-get',
		['install', '-y', '-qq', '--no-install-recommends', 'redis-server', 'postgresql'],
		{ stdio: 'inherit', env },
	);
}

/** Whether something accepts a connection on the loopback port now. */
const accepts = (port) =>
	new Promise((resolve) => {
		const socket = connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});

/** Resolves once something accepts connections on the port, tried every 100 ms for 30 seconds. */
async function waitForPort(port, what) {
	const deadline = Date.now() + 30_000;
	while (!(await accepts(port))) {
		if (Date.now() > deadline) throw new Error(`${what} did not start on port ${port}`);
		await sleep(100);
	}
}

/** PostgreSQL refuses to run as root, so as root its programs run as the postgres user the package made. */
function asPostgres(program, args, options = {}) {
	const [command, fullArgs] = isRoot
		? ['runuser', ['-u', 'postgres', '--', program, ...args]]
		: [program, args];
	return execFileSync(command, fullArgs, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

async function main() {
	ensurePackages();
	const runtime = ensureRuntime();
	if (!existsSync(join(ROOT, 'dist', 'nodes'))) {
		execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	}

	const work = mkdtempSync(join(tmpdir(), 'mm-queue-'));
	const cleanups = [() => rmSync(work, { recursive: true, force: true })];
	const cleanUp = () => {
		while (cleanups.length) {
			try {
				cleanups.pop()();
			} catch (error) {
				log(`clean-up: ${error.message}`);
			}
		}
	};
	process.on('exit', cleanUp);
	for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
	try {
		process.exitCode = await runSuite(runtime, work, cleanups);
	} finally {
		cleanUp();
	}
}

async function runSuite(runtime, work, cleanups) {
	const redisPort = await freePort();
	const redis = spawn(
		'redis-server',
		[
			'--port',
			String(redisPort),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			work,
		],
		{
			stdio: 'ignore',
		},
	);
	cleanups.push(() => redis.kill('SIGTERM'));
	await waitForPort(redisPort, 'Redis');
	log(`Redis on 127.0.0.1:${redisPort}`);

	const bin = postgresBin();
	const pgPort = await freePort();
	const data = join(work, 'postgres');
	mkdirSync(data, { mode: 0o700 });
	if (isRoot) {
		const [uid, gid] = ['-u', '-g'].map((flag) =>
			Number(execFileSync('id', [flag, 'postgres']).toString()),
		);
		chownSync(work, uid, gid);
		chownSync(data, uid, gid);
	}
	asPostgres(join(bin, 'initdb'), [
		'-D',
		data,
		'-U',
		'postgres',
		'-A',
		'trust',
		'--no-sync',
		'-E',
		'UTF8',
	]);
	const options = `-h 127.0.0.1 -p ${pgPort} -k ${data} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
	asPostgres(join(bin, 'pg_ctl'), [
		'-D',
		data,
		'-o',
		options,
		'-l',
		join(data, 'server.log'),
		'-w',
		'start',
	]);
	cleanups.push(() => asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']));
	asPostgres(join(bin, 'psql'), [
		'-h',
		'127.0.0.1',
		'-p',
		String(pgPort),
		'-U',
		'postgres',
		'-c',
		'CREATE DATABASE n8n',
	]);
	log(`PostgreSQL on 127.0.0.1:${pgPort}`);
	const postgresPid = readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0];

	return runJestProject('queue', runtime, {
		QUEUE_REDIS_PORT: String(redisPort),
		QUEUE_POSTGRES_PORT: String(pgPort),
		QUEUE_SERVER_PIDS: `${redis.pid},${postgresPid}`,
	});
}

main().catch((error) => {
	log(error.stack ?? String(error));
	process.exitCode = 1;
});
