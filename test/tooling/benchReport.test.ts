import { readFileSync } from 'node:fs';

import { fill, renderBenchmarks, TEMPLATE } from '../../bench/report';

const report = {
	date: '2026-11-23',
	machine: '2 × Test CPU, 8 GiB',
	node: 'v20.0.0',
	n8n: '2.41.1',
	rounds: '5',
	loadAtStart: '1.25, 0.98, 0.71',
	loadAtEnd: '2.50, 1.40, 0.87',
	rows: [['Package load', '16.7 ms', '479.7 ms', '0.03', 'a few ms', '**missed**']],
	notes: ['Rate limit scaled from 60 a minute to 20 every 2 s.'],
};

describe('the benchmark report (a dry run of its template)', () => {
	it('fills every placeholder of the template with the figures and keeps its prose', () => {
		const text = renderBenchmarks(report);
		expect(text).not.toMatch(/\{\{|\}\}/);
		for (const value of [
			report.date,
			report.machine,
			report.node,
			report.n8n,
			report.rounds,
			report.loadAtStart,
			report.loadAtEnd,
		])
			expect(text).toContain(value);
		expect(text).toContain('| Package load | 16.7 ms | 479.7 ms | 0.03 | a few ms | **missed** |');
		expect(text).toContain('- Rate limit scaled from 60 a minute to 20 every 2 s.');
		const prose = readFileSync(TEMPLATE, 'utf8')
			.split('\n')
			.filter((line) => line.trim() && !line.includes('{{'));
		expect(prose.length).toBeGreaterThan(0);
		expect(prose.filter((line) => !text.includes(line))).toEqual([]);
	});

	it('refuses a placeholder without a value, and a value without a placeholder', () => {
		expect(() => fill('{{a}} {{b}}', { a: '1' })).toThrow('{{b}} has no value');
		expect(() => fill('{{a}}', { a: '1', c: '3' })).toThrow('no place for c');
		expect(fill('{{a}}-{{a}}', { a: '1' })).toBe('1-1');
		expect(readFileSync(TEMPLATE, 'utf8')).toContain('{{rows}}');
	});
});
