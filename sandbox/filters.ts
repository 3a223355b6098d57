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
	const predicates: Predicate[] = [];
	const sample = items[0]?.attributes ?? {};
	const known = (field: string): boolean => field in sample;
	for (const [key, value] of query) {
		if (RESERVED.has(key)) continue;
		let match: RegExpMatchArray | null;
		if ((match = key.match(/^s_(.+)_in$/)) && known(match[1])) {
			const field = match[1];
			const set = new Set(value.split(',').map((v) => v.trim()));
			predicates.push((a) => set.has(text(a[field])));
		} else if ((match = key.match(/^s_(.+)_notin$/)) && known(match[1])) {
			const field = match[1];
			const set = new Set(value.split(',').map((v) => v.trim()));
			predicates.push((a) => !set.has(text(a[field])));
		} else if ((match = key.match(/^s_(.+)_like$/)) && known(match[1])) {
			const field = match[1];
			const test = likeMatcher(value);
			predicates.push((a) => test(a[field]));
		} else if ((match = key.match(/^date_min_(.+)$/)) && known(match[1])) {
			const field = match[1];
			predicates.push(
				(a) => a[field] !== null && text(a[field]).replace('T', ' ') >= value.replace('T', ' '),
			);
		} else if ((match = key.match(/^date_max_(.+)$/)) && known(match[1])) {
			const field = match[1];
			predicates.push(
				(a) => a[field] !== null && text(a[field]).replace('T', ' ') <= value.replace('T', ' '),
			);
		} else if ((match = key.match(/^s_(.+)$/)) && known(match[1])) {
			const field = match[1];
			predicates.push((a) => text(a[field]) === value);
		} else if (plainFields.includes(key)) {
			// A date given without its time matches that whole day; IDs and statuses match exactly.
			const day = value.replace('T', ' ');
			predicates.push(
				key.endsWith('_date') ? (a) => text(a[key]).startsWith(day) : (a) => text(a[key]) === value,
			);
		}
	}
	let result = predicates.length
		? items.filter((r) => predicates.every((p) => p(r.attributes)))
		: items;
	const sort = query.get('sort');
	if (sort) {
		const descending = sort.endsWith('-');
		const field = sort.replace(/-$/, '');
		if (known(field)) {
			const direction = descending ? -1 : 1;
			result = [...result].sort((a, b) => {
				const x = a.attributes[field] as string | number;
				const y = b.attributes[field] as string | number;
				return x === y ? 0 : (x > y ? 1 : -1) * direction;
			});
		}
	}
	return result;
}
