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

describe('the demo data', () => {
	const sizes = { ...DEFAULT_SEED, failures: 4500 };
	/** The time of an ISO date-time or of an SQL one (UTC). */
	const time = (date: unknown) => Date.parse(String(date).replace(/^(\S+) (\S+)$/, '$1T$2Z'));
	const hours = (a: unknown, b: unknown) => (time(b) - time(a)) / 3_600_000;

	it('is the same in a process that seeds it for the first time and in one that seeded it before', async () => {
		let first: typeof seedStore | undefined;
		await jest.isolateModulesAsync(async () => {
			({ seedStore: first } = await import('../../sandbox/data'));
		});
		seedStore(DEFAULT_SEED);
		expect(seedStore(DEFAULT_SEED)).toEqual(first!(DEFAULT_SEED));
	});

	it('dates each record 7 hours after the one before, in ISO and in SQL form', () => {
		const { clients, failures } = seedStore(sizes);
		const created = clients.items.map((c) => c.attributes.created_at);
		const started = failures.items.map((f) => f.attributes.start_date);
		expect(created[0]).toBe('2026-01-01T07:00:00.000Z');
		expect(started[0]).toBe('2026-01-01 07:00:00');
		for (const dates of [created, started])
			expect(new Set(dates.slice(1).map((date, i) => hours(dates[i], date)))).toEqual(new Set([7]));
	});

	it('gives each work order maps of its own', () => {
		const store = seedStore(DEFAULT_SEED);
		const [one, two] = store.failures.items.map((f) => f.attributes);
		(one.time_statistics as Record<string, unknown>).real_duration = 60;
		one.approved_by = 'Operator 1';
		expect(two.time_statistics).toMatchObject({ real_duration: null });
		expect(two.approved_by).toBeNull();
		expect(seedStore(DEFAULT_SEED).failures.items[0].attributes).toMatchObject({
			time_statistics: { real_duration: null },
			approved_by: null,
		});
	});
});
