import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { inc, lt, major, minor, minVersion, Range, satisfies } from 'semver';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const runtime = createRequire(__filename)(join(root, 'scripts', 'runtime.js')) as {
	supportedVersions: () => string[];
	PINNED_VERSION: string;
};

const lineOf = (version: string) => `${major(version)}.${minor(version)}`;

describe('the n8n versions the package supports (package.json engines.n8n)', () => {
	const range: string = pkg.engines.n8n;
	const tested = runtime.supportedVersions();
	/** The range's parts: `1.123.x` (a whole minor line) and `2.0.0 - 2.41` (a span of lines). */
	const parts = new Range(range).set.map((comparators) => comparators.join(' '));

	it('are the last 1.x line and a span of 2.x up to the pinned n8n', () => {
		expect(range).toMatch(/^1\.123\.x \|\| 2\.\d+\.\d+ - 2\.\d+$/);
		expect(satisfies(runtime.PINNED_VERSION, range)).toBe(true);
		expect(satisfies(inc(runtime.PINNED_VERSION, 'minor')!, range)).toBe(false);
	});

	it('has the lowest and the highest line of each part in the matrix, and nothing outside it', () => {
		for (const part of parts) {
			const inPart = tested.filter((version) => satisfies(version, part));
			expect(inPart.map(lineOf)).toContain(lineOf(minVersion(part)!.version));
			expect(satisfies(inc(inPart[inPart.length - 1], 'minor')!, part)).toBe(false);
		}
		for (const version of tested) expect(satisfies(version, range)).toBe(true);
	});

	it('are listed in version order', () => {
		for (let i = 1; i < tested.length; i++) expect(lt(tested[i - 1], tested[i])).toBe(true);
	});
});
