/** The query of a list's first request: page 1 of `limit` records, with its other parameters. */
export const firstPageQuery = (limit: number, query: Record<string, string> = {}) => ({
	page: '1',
	limit: String(limit),
	...query,
});
