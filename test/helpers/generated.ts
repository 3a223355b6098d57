/** What to do about a generated table that differs from spec/openapi.yaml. */
export const REGENERATE =
	'run `npm run endpoints` (or `npm run build`), which rewrites it from spec/openapi.yaml';

/**
 * The entries of a table generated from spec/openapi.yaml (endpoints.generated.ts, for one)
 * that differ from what the document gives now, each named: missing, extra or different.
 */
export function staleEntries(
	written: Record<string, unknown>,
	current: Record<string, unknown>,
): string[] {
	const names = [...new Set([...Object.keys(current), ...Object.keys(written)])];
	return names
		.filter((name) => JSON.stringify(written[name]) !== JSON.stringify(current[name]))
		.map((name) =>
			!(name in written)
				? `${name}: in the document, not in the table`
				: !(name in current)
					? `${name}: in the table, not in the document`
					: `${name}: the table has ${JSON.stringify(written[name])}, the document ${JSON.stringify(current[name])}`,
		);
}
