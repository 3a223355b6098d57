import { execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	freePort,
	PACKAGE_NAME,
	spawnLogged,
	stopProcess,
	waitUntil,
	type N8nInstance,
} from './n8n';

/**
 * What a test of n8n's Community Nodes installer needs besides n8n: a local npm registry with this
 * package published to it (verdaccio), as the installer tests and the queue suite install it, and n8n's
 * licence for a registry other than npm's.
 */
const ROOT = join(__dirname, '..', '..');
export const CURRENT = (
	JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
/** The same build under a lower version: the version the queue suite's update starts from. */
export const OLDER = `${CURRENT}-older.0`;

const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';

/** Runs a command to its end (2 minutes at most) and gives what it printed. */
export const run = (
	command: string,
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv },
) =>
	new Promise<string>((resolve, reject) => {
		execFile(command, args, { ...options, timeout: 120_000 }, (error, stdout, stderr) =>
			error
				? reject(new Error(`${command} ${args[0]} failed: ${error.message}\n${stdout}\n${stderr}`))
				: resolve(stdout),
		);
	});

/**
 * verdaccio on loopback, on the runtime's Node 24, storing in a temporary folder. Only this
 * package is served from its storage; every other name comes from the uplink, this machine's registry,
 * or, with `uplink: false`, is not found. `publicUrl` is the address its answers give for tarballs
 * (verdaccio's VERDACCIO_PUBLIC_URL), for a registry reached under another name than its own.
 * Its log goes to .runtime/logs/<name>.log.
 */
export class LocalRegistry {
	/** The temporary folder, made by start(). */
	dir = '';

	url = '';

	private server?: ChildProcess;

	private readonly logFile: string;

	constructor(
		name = 'installer-registry',
		private readonly options: { uplink?: boolean; publicUrl?: string } = {},
	) {
		this.logFile = join(ROOT, '.runtime', 'logs', `${name}.log`);
	}

	async start(): Promise<void> {
		this.dir = mkdtempSync(join(tmpdir(), 'mm-registry-'));
		const { uplink = true, publicUrl } = this.options;
		const machine = uplink ? (await run('npm', ['config', 'get', 'registry'], {})).trim() : '';
		const port = await freePort();
		this.url = `http://127.0.0.1:${port}/`;
		const config = {
			storage: join(this.dir, 'storage'),
			uplinks: machine ? { machine: { url: machine } } : {},
			packages: {
				[PACKAGE_NAME]: { access: '$all', publish: '$all' },
				'**': machine ? { access: '$all', proxy: 'machine' } : { access: '$all' },
			},
			web: { enable: false },
			log: { type: 'stdout', format: 'pretty', level: 'warn' },
		};
		// JSON is YAML.
		writeFileSync(join(this.dir, 'config.yaml'), JSON.stringify(config));
		// npm publish needs a token even for a registry that takes anonymous publishes.
		writeFileSync(join(this.dir, 'npmrc'), `//127.0.0.1:${port}/:_authToken=anonymous\n`);
		this.server = spawnLogged(
			[
				join(ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio'),
				'--config',
				join(this.dir, 'config.yaml'),
				'--listen',
				`127.0.0.1:${port}`,
			],
			this.logFile,
			publicUrl ? { ...process.env, VERDACCIO_PUBLIC_URL: publicUrl } : process.env,
		);
		await waitUntil(
			async () => (await fetch(`${this.url}-/ping`, { signal: AbortSignal.timeout(5_000) })).ok,
			`verdaccio to answer on ${this.url} (see ${this.logFile})`,
			60_000,
		);
	}

	/** npm publish of a tarball, as the release does but without its scripts and provenance. */
	async publish(tarball: string, tag: string): Promise<void> {
		await run(
			'npm',
			[
				'publish',
				tarball,
				'--ignore-scripts',
				'--provenance=false',
				`--tag=${tag}`,
				`--registry=${this.url}`,
				`--userconfig=${join(this.dir, 'npmrc')}`,
			],
			{},
		);
	}

	async stop(): Promise<void> {
		try {
			if (this.server) await stopProcess(this.server, 10_000);
		} finally {
			if (this.dir) rmSync(this.dir, { recursive: true, force: true });
		}
	}
}

/** `npm pack` of a folder, the built package unless another is named, into `dir`: the tarball's path. */
export const pack = (dir: string, folder = ROOT): Promise<string> =>
	run('npm', ['pack', '--ignore-scripts', '--json', `--pack-destination=${dir}`], {
		cwd: folder,
	}).then((out) => join(dir, (JSON.parse(out) as Array<{ filename: string }>)[0].filename));

/** A tarball packed again into `dir` under another version: its package.json's version, nothing else. */
export async function repackAs(tarball: string, version: string, dir: string): Promise<string> {
	const unpacked = join(dir, version);
	mkdirSync(unpacked);
	await run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], {});
	const manifest = join(unpacked, 'package.json');
	const json = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
	writeFileSync(manifest, JSON.stringify({ ...json, version }, null, '\t'));
	return pack(dir, unpacked);
}

/**
 * Licenses the custom registry in a started n8n, through n8n's test hook (PATCH /rest/e2e/feature,
 * which E2E_TESTS=true turns on): n8n 2.41 installs from a registry other than npm's only with it.
 */
export async function allowCustomRegistry(n8n: N8nInstance): Promise<void> {
	// n8n 2.0.0 reports ready before its REST routes are up: the hook answers 404 for a moment.
	await waitUntil(
		async () =>
			(
				await fetch(n8n.url('/rest/e2e/feature'), {
					method: 'PATCH',
					signal: AbortSignal.timeout(30_000),
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify({ feature: CUSTOM_REGISTRY_FEATURE, enabled: true }),
				})
			).status === 200,
		"n8n's test hook to license the custom registry (PATCH /rest/e2e/feature)",
		120_000,
	);
}

/**
 * Installs the package (POST) or updates it (PATCH) at `version` in a started n8n, as its owner does in
 * the settings, and expects n8n's 200 reporting that version installed. Returns n8n's answer.
 */
export async function changePackage(
	n8n: N8nInstance,
	method: 'POST' | 'PATCH',
	version: string,
): Promise<Rest> {
	const answer = await n8n.requestAsOwner(method, '/rest/community-packages', {
		name: PACKAGE_NAME,
		version,
	});
	expectStatus(answer, 200, method === 'POST' ? 'the install' : 'the update');
	expect(dataOf<{ installedVersion: string }>(answer).installedVersion).toBe(version);
	return answer;
}

type Rest = { status: number; body: unknown };
/** The `data` of a REST answer of n8n. */
export const dataOf = <T>(answer: Rest) => (answer.body as { data: T }).data;

/** Expects a REST answer's status, showing the answer when it is another. */
export function expectStatus(answer: Rest, status: number, what: string) {
	if (answer.status !== status)
		throw new Error(`${what}: n8n answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}
