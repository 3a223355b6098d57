import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * scripts/test.js, what `npm test` runs, in a folder of its own whose npm scripts are stubs that pass or
 * fail: every step runs to its end, and the command fails when any step failed, with each result shown.
 */
const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'test.js');
const say = (text: string, code = 0) => `node -e "console.log('${text}'); process.exit(${code})"`;

let folder: string;
beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'mm-test-command-'));
	writeFileSync(
		join(folder, 'package.json'),
		JSON.stringify({
			name: 'stub',
			scripts: {
				build: say('built'),
				broken: say('build broke', 2),
				fast: say('fast suite failed', 1),
				e2e: say('e2e suite passed'),
			},
		}),
	);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function npmTest(...steps: string[]) {
	const run = spawnSync(process.execPath, [SCRIPT, ...steps], { cwd: folder, encoding: 'utf8' });
	return { status: run.status, output: run.stdout, errors: run.stderr };
}

/** What the command prints after the steps' own output. */
const summary = (output: string) => output.slice(output.indexOf('npm test, each step:'));

describe('npm test (scripts/test.js)', () => {
	it('runs the end-to-end suite after the fast suite failed, fails, and shows both results', () => {
		const { status, output } = npmTest('build!', 'fast', 'e2e');
		expect(status).toBe(1);
		expect(output).toContain('fast suite failed');
		expect(output).toContain('e2e suite passed');
		expect(summary(output)).toMatch(
			/ {2}build {2}passed, [\d.]+ s\n {2}fast {3}FAILED \(exit 1\), [\d.]+ s\n {2}e2e {4}passed, [\d.]+ s\n1 of 3 steps did not pass: fast\n$/,
		);
	});

	it('passes when every step passes', () => {
		const { status, output } = npmTest('e2e');
		expect(status).toBe(0);
		expect(summary(output)).toMatch(
			/^npm test, each step:\n {2}e2e {2}passed, [\d.]+ s\nAll 1 steps passed\.\n$/,
		);
	});

	it('skips the steps after a failed step they need, and shows them as skipped', () => {
		const { status, output } = npmTest('broken!', 'fast', 'e2e');
		expect(status).toBe(1);
		expect(output).not.toContain('fast suite failed');
		expect(summary(output)).toMatch(
			/broken {2}FAILED \(exit 2\), [\d.]+ s\n {2}fast {4}skipped: broken failed\n {2}e2e {5}skipped: broken failed\n3 of 3 steps did not pass: broken, fast, e2e\n$/,
		);
	});

	it('refuses to run with no step named', () => {
		expect(npmTest()).toMatchObject({ status: 2, errors: expect.stringContaining('Name the npm') });
	});

	it("is what package.json's test script runs, with the build needed by the rest", () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		const [command, script, ...steps] = pkg.scripts.test.split(' ');
		expect([command, script]).toEqual(['node', 'scripts/test.js']);
		expect(steps[0]).toBe('build!');
		expect(steps).toEqual(expect.arrayContaining(['test:fast', 'test:e2e']));
		expect(steps.indexOf('test:e2e')).toBeGreaterThan(steps.indexOf('test:fast'));
		for (const step of steps) expect(pkg.scripts[step.replace(/!$/, '')]).toBeDefined();
	});
});
