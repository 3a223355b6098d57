/** One field of each request body the sandbox logged, in order. */
export const sentField = async (
	fixture: { requests(): Promise<Array<{ body: unknown }>> },
	field: string,
): Promise<unknown[]> =>
	(await fixture.requests()).map((request) => (request.body as Record<string, unknown>)[field]);
