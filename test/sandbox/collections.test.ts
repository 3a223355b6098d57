import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Collection, DEFAULT_SEED, seedStore } from '../../sandbox/data';

/** The collection names the "Record collections" table of docs/sandbox.md lists. */
function documented(): string[] {
	const page = readFileSync(join(__dirname, '..', '..', 'docs', 'sandbox.md'), 'utf8');
	const section = page.split('### Record collections')[1]?.split('\n#')[0] ?? '';
	return section
		.split('\n')
		.filter((line) => line.startsWith('| `'))
		.flatMap((line) => [...line.matchAll(/\| `(\w+)`/g)].map(([, name]) => name));
}

describe('the record collections of the sandbox', () => {
	it('are each listed in docs/sandbox.md, and no other', () => {
		const store = seedStore(DEFAULT_SEED) as unknown as Record<string, unknown>;
		const collections = Object.keys(store).filter((name) => store[name] instanceof Collection);
		expect(collections.length).toBeGreaterThan(10);
		expect(documented().sort()).toEqual(collections.sort());
	});
});
