import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Each test file loads its modules afresh, and parsing spec/openapi.yaml took about 1.5 s of CPU each
 * time. In the in-process suites `yaml`'s `parse` of a text keeps its result as JSON on disk, keyed by
 * the text, and reads it back in a few milliseconds; everything else of `yaml` is itself.
 */
const CACHE = join(tmpdir(), 'mm-yaml-as-json');

jest.mock('yaml', () => {
	const actual = jest.requireActual<typeof import('yaml')>('yaml');
	const parse = (text: string, ...rest: unknown[]): unknown => {
		if (rest.length || typeof text !== 'string')
			return (actual.parse as (...args: unknown[]) => unknown)(text, ...rest);
		const file = join(CACHE, `${createHash('sha256').update(text).digest('hex')}.json`);
		try {
			return JSON.parse(readFileSync(file, 'utf8'));
		} catch {
			const value: unknown = actual.parse(text);
			mkdirSync(CACHE, { recursive: true });
			const partial = `${file}.${process.pid}`;
			writeFileSync(partial, JSON.stringify(value));
			renameSync(partial, file);
			return value;
		}
	};
	return { ...actual, parse };
});
