/**
 * The sandbox's request log, bounded: at most `maxEntries` requests and `maxBytes` of logged text
 * (bodies, headers, paths), the oldest requests dropped first. A request's body is kept only once its
 * token is accepted, so no stranger can fill the log, or the memory behind it, with bodies.
 */
export class RequestLog<Entry extends { body: unknown }> {
	private entries: Entry[] = [];

	private readonly sizes = new WeakMap<Entry, number>();

	private bytes = 0;

	constructor(
		readonly maxEntries: number,
		readonly maxBytes: number,
	) {}

	/** Logs a request without its body; `bytes` is the size of what it keeps (headers, path, query). */
	add(entry: Entry, bytes: number): void {
		entry.body = null;
		this.entries.push(entry);
		this.grow(entry, bytes);
	}

	/** Keeps the body of an authenticated request; one larger than the whole log is not kept. */
	keepBody(entry: Entry, body: unknown, bytes: number): void {
		if (bytes > this.maxBytes / 2 || !this.sizes.has(entry)) {
			entry.body = { notKept: `a body of ${bytes} bytes, larger than the log keeps` };
			return;
		}
		entry.body = body;
		this.grow(entry, bytes);
	}

	list(): readonly Entry[] {
		return this.entries;
	}

	/** The bytes the log holds now, as counted. */
	get size(): number {
		return this.bytes;
	}

	clear(): void {
		this.entries = [];
		this.bytes = 0;
	}

	private grow(entry: Entry, bytes: number): void {
		this.sizes.set(entry, (this.sizes.get(entry) ?? 0) + bytes);
		this.bytes += bytes;
		while (
			this.entries.length > this.maxEntries ||
			(this.bytes > this.maxBytes && this.entries.length > 1)
		) {
			const oldest = this.entries.shift();
			if (!oldest) break;
			this.bytes -= this.sizes.get(oldest) ?? 0;
			this.sizes.delete(oldest);
		}
	}
}
