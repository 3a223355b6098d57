import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm test`, package.json's own test script, run in a folder of its own whose other npm scripts are
 * stubs that say they ran and fail when named in FAIL: a failing step leaves the later steps to run and
 * the command to fail, and a failed build stops the rest.
 */
const ROOT = join(__dirname, '..', '..');
const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	scripts: Record<string, string>;
};
const STUB =
	'node -e "const step = process.env.npm_lifecycle_event; console.log(\'ran \' + step); process.exit(process.env.FAIL === step ? 1 : 0)"';
/** The steps npm test runs, in their order (README, Tests). */
const STEPS = ['build', 'typecheck', 'lint', 'test:fast', 'test:devtools', 'test:e2e'];

let folder: string;
beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'mm-test-command-'));
	const stubs = Object.fromEntries(Object.keys(scripts).map((name) => [name, STUB]));
	writeFileSync(
		join(folder, 'package.json'),
		JSON.stringify({ name: 'stub', scripts: { ...stubs, test: scripts.test } }),
	);
	// The runner the test script names, from this repository's scripts.
	symlinkSync(join(ROOT, 'scripts'), join(folder, 'scripts'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function npmTest(fail = '') {
	const run = spawnSync('npm', ['test'], {
		cwd: folder,
		encoding: 'utf8',
		env: { ...process.env, FAIL: fail },
	});
	const ran = [...run.stdout.matchAll(/^ran (\S+)$/gm)].map(([, step]) => step);
	return { status: run.status, ran, errors: run.stderr };
}

describe("npm test (package.json's test script)", () => {
	it('runs every step, in order, and passes when each passes', () => {
		expect(npmTest()).toMatchObject({ status: 0, ran: STEPS });
	});

	it.each(['typecheck', 'test:fast'])(
		'runs the steps after %s fails, then fails naming it',
		(step) => {
			const { status, ran, errors } = npmTest(step);
			expect(status).not.toBe(0);
			expect(ran).toEqual(STEPS);
			expect(errors).toContain(`"${step}" exited with 1`);
		},
	);

	it('runs nothing after a failed build, and fails', () => {
		const { status, ran } = npmTest('build');
		expect(status).not.toBe(0);
		expect(ran).toEqual(['build']);
	});
});
