import type { Resource } from './data';

const RESERVED = new Set(['page', 'limit', 'expanded', 'with_assets_count', 'sort']);

const text = (value: unknown): string =>
	value === null || value === undefined ? '' : String(value);

/**
 * `%` is a wildcard; without one the pattern matches anywhere. Case-insensitive. Matched segment by
 * segment (the first as a prefix, the last as a suffix, the others leftmost in between), which is
 * exact for `%` alone and takes time linear in the value per segment, never backtracking.
 */
const likeMatcher = (pattern: string): ((value: unknown) => boolean) => {
	const segments = pattern.toLowerCase().split('%');
	if (segments.length === 1) return (value) => text(value).toLowerCase().includes(segments[0]);
	const first = segments[0];
	const last = segments[segments.length - 1];
	const middle = segments.slice(1, -1).filter((segment) => segment !== '');
	return (value) => {
		const subject = text(value).toLowerCase();
		if (subject.length < first.length + last.length) return false;
		if (!subject.startsWith(first) || !subject.endsWith(last)) return false;
		let from = first.length;
		const end = subject.length - last.length;
		for (const segment of middle) {
			const at = subject.indexOf(segment, from);
			if (at < 0 || at + segment.length > end) return false;
			from = at + segment.length;
		}
		return true;
	};
};

type Predicate = (attributes: Record<string, unknown>) => boolean;

/** A date or date-time as comparable text: `T` and space alike. */
const dateText = (value: unknown): string => text(value).replace('T', ' ');

const setOf = (value: string): Set<string> => new Set(value.split(',').map((v) => v.trim()));

/** The prefixed filter forms, in the order they are tried: each names its field, and its test. */
const FORMS: Array<[RegExp, (field: string, value: string) => Predicate]> = [
	[
		/^s_(.+)_in$/,
		(field, value) => {
			const set = setOf(value);
			return (a) => set.has(text(a[field]));
		},
	],
	[
		/^s_(.+)_notin$/,
		(field, value) => {
			const set = setOf(value);
			return (a) => !set.has(text(a[field]));
		},
	],
	[
		/^s_(.+)_like$/,
		(field, value) => {
			const test = likeMatcher(value);
			return (a) => test(a[field]);
		},
	],
	[
		/^date_min_(.+)$/,
		(field, value) => (a) => a[field] !== null && dateText(a[field]) >= dateText(value),
	],
	[
		/^date_max_(.+)$/,
		(field, value) => (a) => a[field] !== null && dateText(a[field]) <= dateText(value),
	],
	[/^s_(.+)$/, (field, value) => (a) => text(a[field]) === value],
];

/** The test of one query parameter, or undefined when it filters nothing this resource has. */
function predicateOf(
	key: string,
	value: string,
	known: (field: string) => boolean,
	plainFields: readonly string[],
): Predicate | undefined {
	for (const [form, build] of FORMS) {
		const match = key.match(form);
		if (match && known(match[1])) return build(match[1], value);
	}
	if (!plainFields.includes(key)) return undefined;
	// A date given without its time matches that whole day; IDs and statuses match exactly.
	const day = dateText(value);
	return key.endsWith('_date')
		? (a) => text(a[key]).startsWith(day)
		: (a) => text(a[key]) === value;
}

/** `sort=<field>` (ascending) or `sort=<field>-` (descending), on a field the resource has. */
function sorted(items: Resource[], sort: string | null, known: (field: string) => boolean) {
	if (!sort) return items;
	const field = sort.replace(/-$/, '');
	if (!known(field)) return items;
	const direction = sort.endsWith('-') ? -1 : 1;
	return [...items].sort((a, b) => {
		const x = a.attributes[field] as string | number;
		const y = b.attributes[field] as string | number;
		return x === y ? 0 : (x > y ? 1 : -1) * direction;
	});
}

/**
 * The service's filter forms: `s_<field>`, `s_<field>_in`, `s_<field>_notin`, `s_<field>_like`,
 * `date_min_<field>`, `date_max_<field>`, plus `plainFields` given without prefix (GET /failures/open).
 * Filters on fields the resource does not have are ignored, as are unknown parameters.
 */
export function applyFilters(
	items: Resource[],
	query: URLSearchParams,
	plainFields: readonly string[] = [],
): Resource[] {
	const sample = items[0]?.attributes ?? {};
	const known = (field: string): boolean => field in sample;
	const predicates: Predicate[] = [];
	for (const [key, value] of query) {
		if (RESERVED.has(key)) continue;
		const predicate = predicateOf(key, value, known, plainFields);
		if (predicate) predicates.push(predicate);
	}
	const result = predicates.length
		? items.filter((r) => predicates.every((p) => p(r.attributes)))
		: items;
	return sorted(result, query.get('sort'), known);
}
