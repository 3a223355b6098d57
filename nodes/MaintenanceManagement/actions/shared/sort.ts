/**
 * Sorts by a text field. A plain comparison, not localeCompare: the first localeCompare loads the ICU
 * collator, which costs tens of milliseconds at package load.
 */
export const byText =
	<K extends string>(key: K) =>
	(a: Record<K, string>, b: Record<K, string>): number =>
		a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;
