/** A step's progress reporter: each call of the function it returns gives the next report line. */
export function reporter(options: {
	step: string;
	dir: string;
	total?: string;
	intervalMs: number;
	now?: () => number;
	used?: () => number;
}): () => string;
