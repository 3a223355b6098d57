import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const runtime = createRequire(__filename)(join(root, 'scripts', 'runtime.js')) as {
	supportedVersions: () => string[];
	PINNED_VERSION: string;
};

/** Parts of the stated range: `1.123.x` (a whole minor line) or `2.0.0 - 2.41` (a span of lines). */
type Part = { line: string } | { from: string; toLine: string };

const parse = (range: string): Part[] =>
	range.split('||').map((text) => {
		const part = text.trim();
		const line = /^(\d+\.\d+)\.x$/.exec(part);
		if (line) return { line: line[1] };
		const span = /^(\d+\.\d+\.\d+) - (\d+\.\d+)$/.exec(part);
		if (span) return { from: span[1], toLine: span[2] };
		throw new Error(`"${part}" is neither "A.B.x" nor "A.B.C - D.E"`);
	});

const numbers = (version: string) => version.split('.').map(Number);
const compare = (a: string, b: string) => {
	const [x, y] = [numbers(a), numbers(b)];
	for (let i = 0; i < Math.max(x.length, y.length); i++)
		if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
	return 0;
};
const lineOf = (version: string) => version.split('.').slice(0, 2).join('.');
const within = (version: string, part: Part) =>
	'line' in part
		? lineOf(version) === part.line
		: compare(version, part.from) >= 0 && compare(lineOf(version), part.toLine) <= 0;

describe('the n8n versions the package supports (package.json engines.n8n)', () => {
	const range: string = pkg.engines.n8n;
	const parts = parse(range);
	const tested = runtime.supportedVersions();

	it('are the last 1.x line and a span of 2.x up to the pinned n8n', () => {
		expect(range).toMatch(/^1\.123\.x \|\| 2\.\d+\.\d+ - 2\.\d+$/);
		const span = parts[1] as { toLine: string };
		expect(span.toLine).toBe(lineOf(runtime.PINNED_VERSION));
	});

	it('has every end of the range in the compatibility matrix, and nothing outside it', () => {
		for (const part of parts) {
			if ('line' in part)
				expect(tested.some((version) => lineOf(version) === part.line)).toBe(true);
			else {
				expect(tested).toContain(part.from);
				expect(tested.some((version) => lineOf(version) === part.toLine)).toBe(true);
			}
		}
		for (const version of tested) expect(parts.some((part) => within(version, part))).toBe(true);
	});

	it('reads the range as meant', () => {
		const [last1x, span] = parse('1.123.x || 2.0.0 - 2.41');
		expect(within('1.123.81', last1x)).toBe(true);
		expect(within('1.122.5', last1x)).toBe(false);
		expect(within('2.0.0', span)).toBe(true);
		expect(within('2.41.3', span)).toBe(true);
		expect(within('2.42.0', span)).toBe(false);
		expect(within('1.123.81', span)).toBe(false);
		expect(() => parse('>=2')).toThrow('neither');
	});
});
