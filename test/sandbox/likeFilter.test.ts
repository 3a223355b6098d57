import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The `s_<field>_like` filter on an input that makes a backtracking matcher run for minutes. The
 * sandbox runs in its own process (npm run sandbox), so a matcher that blocks it makes this test fail
 * at Jest's timeout instead of blocking the test process.
 */

const root = join(__dirname, '..', '..');
let child: ChildProcess;
let base: string;
let token: string;

beforeAll(async () => {
	child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts'], {
		cwd: root,
		env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_CONTRACT: '0' },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [line] = await createInterface({ input: child.stdout! })
		[Symbol.asyncIterator]()
		.next()
		.then(({ value }) => [value as string]);
	const started = JSON.parse(line) as {
		environments: { sandbox: { baseUrl: string; token: string } };
	};
	({ baseUrl: base, token } = started.environments.sandbox);
}, 60_000);
// SIGKILL: a sandbox blocked in a matcher would never run its SIGTERM handler.
afterAll(() => {
	child.kill('SIGKILL');
});

async function api(method: string, path: string, body?: unknown) {
	const response = await fetch(`${base}${path}`, {
		method,
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return {
		status: response.status,
		body: (await response.json()) as { data: Array<{ id: string }> },
	};
}

const matching = async (observation: string, pattern: string): Promise<string[]> => {
	expect((await api('PATCH', '/locations', { locations: [{ id: 3, observation }] })).status).toBe(
		200,
	);
	const query = new URLSearchParams({ s_observation_like: pattern, limit: '2000' });
	const answer = await api('GET', `/locations?${query}`);
	expect(answer.status).toBe(200);
	return answer.body.data.map((location) => location.id);
};

it('answers a 90-character pattern with 8 wildcards on a long value, and correctly', async () => {
	// A backtracking matcher tries about C(300, 8) ways here.
	const pattern = `${'%aaaaaaaaaa'.repeat(8)}ab`;
	expect(pattern).toHaveLength(90);
	expect(pattern.split('%')).toHaveLength(9);
	expect(await matching('a'.repeat(300), pattern)).not.toContain('3');
	expect(await matching(`${'a'.repeat(300)}b`, pattern)).toContain('3');
	expect(await matching(`${'a'.repeat(80)}b`, pattern)).not.toContain('3');
	expect(await matching(`${'a'.repeat(81)}b`, pattern)).toContain('3');
});
