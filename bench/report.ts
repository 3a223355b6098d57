import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TEMPLATE = join(__dirname, 'BENCHMARKS.template.md');

/** The measured figures and the machine they were measured on. */
export interface BenchmarkReport {
	date: string;
	machine: string;
	node: string;
	n8n: string;
	rounds: string;
	/** The load average over 1, 5 and 15 minutes when the run started, and when it ended. */
	loadAtStart: string;
	loadAtEnd: string;
	/** Measure, this package, anchor, ratio, target, and met, missed or recorded (no goal). */
	rows: string[][];
	notes: string[];
}

/** Replaces each `{{name}}` of the template; a placeholder without a value, or a value without a placeholder, is an error. */
export function fill(template: string, values: Record<string, string>): string {
	const unused = new Set(Object.keys(values));
	const text = template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => {
		if (!(name in values)) throw new Error(`The template's {{${name}}} has no value`);
		unused.delete(name);
		return values[name];
	});
	if (unused.size) throw new Error(`The template has no place for ${[...unused].join(', ')}`);
	return text;
}

/** BENCHMARKS.md: the template filled with the figures (bench/run.ts formats it with Prettier). */
export function renderBenchmarks(report: BenchmarkReport): string {
	const { rows, notes, ...values } = report;
	return fill(readFileSync(TEMPLATE, 'utf8'), {
		...values,
		rows: rows.map((row) => `| ${row.join(' | ')} |`).join('\n'),
		notes: notes.map((note) => `- ${note}`).join('\n'),
	});
}
