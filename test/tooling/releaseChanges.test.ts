import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { recordedSurfaces, SURFACE_DIR } from '../../scripts/recordSurface';
import {
	changesProblems,
	differenceLine,
	differences,
	unexplained,
	type RecordedChange,
} from '../e2e/releaseChanges';

/**
 * The update test's comparison (test/e2e/installer.e2e.test.ts): the differences it finds between a
 * release's runs and the current build's, and the deliberate changes recorded beside the release
 * (surface/<version>.changes.json), which it accepts and no others.
 */
describe('the differences between the runs of two releases', () => {
	const was = {
		stop: {
			message: 'Refused',
			failure: { cause: 'rate-limited' },
			context: { outcome: 'unknown' },
		},
		output: { success: [{ json: { id: '1', 'odd key': 1 } }], error: [] },
	};

	it('are none for the same data', () => {
		expect(differences('case', was, structuredClone(was))).toEqual([]);
	});

	it('name each value that differs by its path, a key one side lacks absent there', () => {
		const now = {
			stop: { message: 'Refused.', context: { outcome: 'unknown', itemIndex: 1 } },
			output: { success: [{ json: { id: 1, 'odd key': 1 } }, { json: {} }], error: [] },
		};
		expect(differences('case', was, now)).toEqual([
			{ case: 'case', path: 'stop.message', was: 'Refused', now: 'Refused.' },
			{ case: 'case', path: 'stop.failure', was: { cause: 'rate-limited' } },
			{ case: 'case', path: 'stop.context.itemIndex', now: 1 },
			{ case: 'case', path: 'output.success[0].json.id', was: '1', now: 1 },
			{ case: 'case', path: 'output.success[1]', now: { json: {} } },
		]);
		expect(differences('case', { a: { 'odd key': [1] } }, { a: { 'odd key': [2] } })).toEqual([
			{ case: 'case', path: 'a["odd key"][0]', was: 1, now: 2 },
		]);
	});

	it('print one line each: case, path, was, now', () => {
		expect(differenceLine({ case: 'c', path: 'stop.failure', was: { cause: 'x' } })).toBe(
			'c, stop.failure, was {"cause":"x"}, now (absent)',
		);
		expect(differenceLine({ case: 'c', path: 'p', was: null, now: 'a' })).toBe(
			'c, p, was null, now "a"',
		);
	});
});

describe('what the update test reports', () => {
	const found = [
		{ case: 'a', path: 'stop.failure', was: { cause: 'rate-limited' } },
		{ case: 'b', path: 'stop.message', was: 'x', now: 'y' },
	];
	const recorded: RecordedChange = { ...found[0], why: 'deliberate' };

	it('is nothing when every difference is recorded', () => {
		expect(unexplained([found[0]], [recorded])).toEqual([]);
	});

	it('names every difference not recorded, and a record whose was or now differs is no record of it', () => {
		expect(unexplained(found, [recorded])).toEqual(['b, stop.message, was "x", now "y"']);
		expect(
			unexplained([found[0]], [{ ...recorded, now: { cause: 'credential-invalid' } }]),
		).toEqual([
			'a, stop.failure, was {"cause":"rate-limited"}, now (absent)',
			'recorded but not seen: a, stop.failure, was {"cause":"rate-limited"}, now {"cause":"credential-invalid"}',
		]);
	});

	it('names a recorded change it did not see, unless told an older n8n may not show it', () => {
		expect(unexplained([], [recorded])).toEqual([
			'recorded but not seen: a, stop.failure, was {"cause":"rate-limited"}, now (absent)',
		]);
		expect(unexplained([], [recorded], { unseen: false })).toEqual([]);
		expect(unexplained(found, [recorded], { unseen: false })).toEqual([
			'b, stop.message, was "x", now "y"',
		]);
	});

	it('lists at most 40 differences, then how many more', () => {
		const many = Array.from({ length: 45 }, (_, i) => ({ case: 'c', path: `p${i}`, now: i }));
		const lines = unexplained(many, []);
		expect(lines).toHaveLength(41);
		expect(lines[40]).toBe('and 5 more differences');
	});
});

describe('a file of deliberate changes', () => {
	it('refuses an entry without its case, path and why, with neither was nor now, with other keys, or twice', () => {
		const whole = { case: 'c', path: 'p', was: 1, why: 'w' };
		expect(changesProblems([whole])).toEqual([]);
		expect(changesProblems({})).toEqual(['the file holds no list of changes']);
		expect(
			changesProblems([
				whole,
				{ case: 'c', path: ' ', now: 1 },
				{ case: 'c', path: 'q', why: 'w', because: 'x' },
				{ ...whole },
			]),
		).toEqual([
			'change 1: "path" must be a text that says it',
			'change 1: "why" must be a text that says it',
			'change 2: give "was", "now" or both (a key left out is absent there)',
			'change 2: unknown keys because',
			'change 3: the same as change 0',
		]);
	});

	it('is whole in surface/, each beside a recorded release', () => {
		const versions = recordedSurfaces().map(({ version }) => version);
		const files = existsSync(SURFACE_DIR)
			? readdirSync(SURFACE_DIR).filter((file) => file.endsWith('.changes.json'))
			: [];
		for (const file of files) {
			expect({ file, recorded: versions.includes(file.replace(/\.changes\.json$/, '')) }).toEqual({
				file,
				recorded: true,
			});
			const problems = changesProblems(JSON.parse(readFileSync(join(SURFACE_DIR, file), 'utf8')));
			expect({ file, problems }).toEqual({ file, problems: [] });
		}
	});
});
