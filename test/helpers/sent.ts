/** One field of each request body the sandbox logged, in order. */
export const sentField = async (
	fixture: { requests(): Promise<Array<{ body: unknown }>> },
	field: string,
): Promise<unknown[]> =>
	(await fixture.requests()).map((request) => (request.body as Record<string, unknown>)[field]);

/** The query of the first request the sandbox logged. */
export const firstQuery = async (fixture: {
	requests(): Promise<Array<{ query: Record<string, string> }>>;
}): Promise<Record<string, string>> => (await fixture.requests())[0].query;

/** The page and limit of each request the sandbox logged, as "page/limit". */
export const pagesRead = async (fixture: {
	requests(): Promise<Array<{ query: Record<string, string> }>>;
}): Promise<string[]> =>
	(await fixture.requests()).map((request) => `${request.query.page}/${request.query.limit}`);

/** Return All's answer: no error, `count` records each once, read in the pages named ("page/limit"). */
export async function expectEveryRecord(
	result: { output: Array<{ json: Record<string, unknown> }>; error?: unknown },
	fixture: { requests(): Promise<Array<{ query: Record<string, string> }>> },
	count: number,
	pages: string[],
): Promise<void> {
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(count);
	expect(new Set(result.output.map((item) => item.json.id)).size).toBe(count);
	expect(await pagesRead(fixture)).toEqual(pages);
}
