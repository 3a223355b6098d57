import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * What saved workflows see across an update, compared case by case: the data each case gave with the
 * recorded release (`was`) and with the current build (`now`), as JSON. A difference is named by its case
 * and its path in that data (`output.success[1].json.code`, `error.failure`); a key one side lacks is
 * absent there (left out of a recorded change, printed `(absent)`).
 *
 * A deliberate change between releases is recorded beside the release, in surface/<version>.changes.json:
 * a list of `{ case, path, was, now, why }`, `was` or `now` left out where the key is absent. The update
 * test accepts exactly the recorded differences: any other is named, and so is a recorded one it did not
 * see (a record that no longer holds is taken out, with the change it recorded).
 */

export interface Difference {
	case: string;
	path: string;
	was?: unknown;
	now?: unknown;
}

export interface RecordedChange extends Difference {
	why: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const pathOf = (parent: string, key: string | number) =>
	typeof key === 'number'
		? `${parent}[${key}]`
		: /^[A-Za-z_$][\w$]*$/.test(key)
			? parent
				? `${parent}.${key}`
				: key
			: `${parent}[${JSON.stringify(key)}]`;

/** A side of a difference: the value, or nothing where the key is absent. */
const side = (name: 'was' | 'now', value: unknown) =>
	value === undefined ? {} : { [name]: value };

/**
 * The differences between two cases' data, down to the values that differ: objects key by key and arrays
 * item by item; a value of another kind (an object for an array, a text for a number) is one difference.
 */
export function differences(caseName: string, was: unknown, now: unknown, path = ''): Difference[] {
	if (isDeepStrictEqual(was, now)) return [];
	if (Array.isArray(was) && Array.isArray(now)) {
		const length = Math.max(was.length, now.length);
		return Array.from({ length }, (_, index) =>
			differences(caseName, was[index], now[index], pathOf(path, index)),
		).flat();
	}
	if (isObject(was) && isObject(now)) {
		const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
		return keys.flatMap((key) => differences(caseName, was[key], now[key], pathOf(path, key)));
	}
	return [
		{ case: caseName, path: path || '(the whole case)', ...side('was', was), ...side('now', now) },
	];
}

/** A difference as one line: case, path, was, now. */
export const differenceLine = ({ case: name, path, was, now }: Difference): string =>
	`${name}, ${path}, was ${was === undefined ? '(absent)' : JSON.stringify(was)}, now ${now === undefined ? '(absent)' : JSON.stringify(now)}`;

/** The most differences a failure lists: a renamed key of every record would be thousands of lines. */
const LISTED = 40;

const matches = (change: Difference, found: Difference) =>
	change.case === found.case &&
	change.path === found.path &&
	isDeepStrictEqual(change.was, found.was) &&
	isDeepStrictEqual(change.now, found.now);

/**
 * What the update test reports: the differences found that no recorded change accepts, and, with
 * `unseen` (the default), the recorded changes not found, each one line. Empty when the two releases
 * differ exactly as recorded. An n8n that knows less than the pinned one (no declared failure causes in
 * 1.123 and 2.0) may not show a recorded change: there only the differences are reported.
 */
export function unexplained(
	found: Difference[],
	recorded: RecordedChange[],
	{ unseen: reportUnseen = true }: { unseen?: boolean } = {},
): string[] {
	const unrecorded = found.filter((difference) => !recorded.some((c) => matches(c, difference)));
	const unseen = reportUnseen
		? recorded.filter((change) => !found.some((difference) => matches(change, difference)))
		: [];
	const lines = unrecorded.slice(0, LISTED).map(differenceLine);
	if (unrecorded.length > LISTED) lines.push(`and ${unrecorded.length - LISTED} more differences`);
	return [...lines, ...unseen.map((change) => `recorded but not seen: ${differenceLine(change)}`)];
}

/** What is wrong with a changes file's entries, one line each; empty when every entry is whole. */
export function changesProblems(entries: unknown): string[] {
	if (!Array.isArray(entries)) return ['the file holds no list of changes'];
	return entries.flatMap((entry: unknown, index) => {
		const problems: string[] = [];
		if (!isObject(entry)) return [`change ${index}: not an object`];
		for (const key of ['case', 'path', 'why'])
			if (typeof entry[key] !== 'string' || !(entry[key] as string).trim())
				problems.push(`change ${index}: "${key}" must be a text that says it`);
		if (!('was' in entry) && !('now' in entry))
			problems.push(`change ${index}: give "was", "now" or both (a key left out is absent there)`);
		const unknown = Object.keys(entry).filter(
			(key) => !['case', 'path', 'was', 'now', 'why'].includes(key),
		);
		if (unknown.length) problems.push(`change ${index}: unknown keys ${unknown.join(', ')}`);
		const twin = entries.findIndex(
			(other: unknown, at) =>
				at < index &&
				isObject(other) &&
				matches(other as unknown as Difference, entry as unknown as Difference),
		);
		if (twin >= 0) problems.push(`change ${index}: the same as change ${twin}`);
		return problems;
	});
}

/** The file of a release's deliberate changes. */
export const changesFile = (surfaceDir: string, version: string) =>
	join(surfaceDir, `${version}.changes.json`);

/** The deliberate changes recorded beside a release; none when it has no file. */
export function recordedChanges(surfaceDir: string, version: string): RecordedChange[] {
	const file = changesFile(surfaceDir, version);
	if (!existsSync(file)) return [];
	const entries = JSON.parse(readFileSync(file, 'utf8')) as unknown;
	const problems = changesProblems(entries);
	if (problems.length) throw new Error(`${file}:\n${problems.join('\n')}`);
	return entries as RecordedChange[];
}
