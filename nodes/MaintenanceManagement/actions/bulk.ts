import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { LINE_BREAK } from '../helpers/input';
import { asNodeError } from '../transport';
import { API_TEXT, plainText } from '../transport/errors';

/** The output of each input item, by item index. */
export type Outputs = INodeExecutionData[][];

/** How often a long run reports its progress, in milliseconds. */
export const PROGRESS_EVERY_MS = 30_000;

/** The most IDs a stop's description lists; the error's context keeps them all. */
const LISTED_IDS = 200;

/** "1–3, 5, 7–9": consecutive whole numbers as ranges, anything else as it is. */
export function ranges(values: Array<string | number>): string {
	const parts: string[] = [];
	let start: number | undefined;
	let end: number | undefined;
	const close = () => {
		if (start !== undefined) parts.push(start === end ? String(start) : `${start}–${end}`);
		start = end = undefined;
	};
	for (const value of values) {
		const number = /^\d{1,15}$/.test(String(value)) ? Number(value) : undefined;
		if (number !== undefined && end !== undefined && number === end + 1) {
			end = number;
			continue;
		}
		close();
		if (number === undefined) parts.push(String(value));
		else start = end = number;
	}
	close();
	return parts.join(', ');
}

const minutes = (ms: number): string =>
	ms < 90_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`;

/**
 * One execution's walk over its input items: their outputs, a progress line in n8n's log (and, in a
 * manual run, the browser console) every 30 s on a long run, and, when an error stops the node, what was
 * done before it and where to resume. With Continue On Fail a failed item gets its error as output and
 * the others go on.
 */
export class ItemRun {
	readonly outputs: Outputs = [];

	/** Item indexes done so far (their records output), in order. */
	private readonly done: number[] = [];

	private readonly started = Date.now();

	private reportedAt = this.started;

	private readonly summarized = new WeakSet<Error>();

	/**
	 * @param what The operation, for progress lines ("Material → Create").
	 * @param writes Whether an item's request changes data (its items are "written") or reads it.
	 */
	constructor(
		private readonly context: IExecuteFunctions,
		readonly itemCount: number,
		private readonly what: string,
		private readonly writes: boolean,
	) {}

	/**
	 * Runs one step for some items (one item, or a group sent as one request). When it fails, the error
	 * stops the node, saying what was done before it, or, with Continue On Fail, becomes the output of
	 * each of those items.
	 */
	async guard(itemIndexes: number[], step: () => Promise<void> | void): Promise<void> {
		try {
			await step();
		} catch (error) {
			if (!this.context.continueOnFail()) {
				const nodeError = asNodeError(this.context.getNode(), error, itemIndexes[0]);
				// A step within a step (an item of a group) has already said what was done.
				if (this.summarized.has(nodeError)) throw nodeError;
				this.summarized.add(nodeError);
				throw this.stopped(nodeError, itemIndexes);
			}
			for (const itemIndex of itemIndexes) this.outputs[itemIndex] = [errorItem(error, itemIndex)];
		}
	}

	/** Sets an item's records as its output, counting it done. */
	output(itemIndex: number, records: IDataObject[]): void {
		this.outputs[itemIndex] = records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		this.done.push(itemIndex);
		this.report();
	}

	/** The last progress line of a run long enough to have reported. */
	finish(): void {
		if (this.reportedAt === this.started) return;
		const elapsed = Date.now() - this.started;
		this.log(
			`${this.what}: all ${this.itemCount} items processed in ${minutes(elapsed)} (${this.done.length} ${this.writes ? 'written' : 'read'}, ${this.itemCount - this.done.length} failed)`,
		);
	}

	private report(): void {
		const now = Date.now();
		if (now - this.reportedAt < PROGRESS_EVERY_MS || this.itemCount < 2) return;
		this.reportedAt = now;
		const finished = this.outputs.filter(Boolean).length;
		const left = this.itemCount - finished;
		const perMinute = (finished / (now - this.started)) * 60_000;
		this.log(
			`${this.what}: ${finished} of ${this.itemCount} items done, ${left} left, about ${minutes((left / perMinute) * 60_000)} more at the current pace of ${Math.round(perMinute)} items a minute`,
		);
	}

	private log(message: string): void {
		this.context.logger.info(message, { node: this.context.getNode().name });
		this.context.sendMessageToUI(message);
	}

	/** The error that stops the node, with what was done before it and where to resume. */
	private stopped(
		error: NodeApiError | NodeOperationError,
		failed: number[],
	): NodeApiError | NodeOperationError {
		// With nothing done yet, the error alone says it all.
		if (this.itemCount < 2 || this.done.length === 0) return error;
		const verb = this.writes ? 'written' : 'read';
		const failedIndex = failed[0];
		const firstUnsent = Math.max(...failed) + 1;
		const ids = this.done.flatMap((index) =>
			this.outputs[index].map(({ json }) => json.id).filter((id) => id !== undefined),
		) as Array<string | number>;
		const summary = [
			`${this.done.length === 1 ? 'Item' : 'Items'} ${ranges(this.done.map((index) => index + 1))} of ${this.itemCount} ${this.done.length === 1 ? 'was' : 'were'} ${verb} before it.`,
			firstUnsent === this.itemCount - 1
				? `Item ${this.itemCount} was not sent.`
				: firstUnsent < this.itemCount
					? `Items ${firstUnsent + 1}–${this.itemCount} were not sent.`
					: '',
			`Run again from item ${failedIndex + 1}.`,
		]
			.filter(Boolean)
			.join(' ');
		const listed =
			ids.length === 0
				? ''
				: `IDs ${verb}: ${plainText(ranges(ids.slice(0, LISTED_IDS)))}${ids.length > LISTED_IDS ? ` and ${ids.length - LISTED_IDS} more (all in the error's context)` : ''}.`;
		// The node's words go before the API's quoted text, never after it.
		const quoted = error.message.indexOf(API_TEXT);
		error.message =
			quoted === -1
				? `${error.message.trimEnd()} ${summary}`
				: `${error.message.slice(0, quoted).trimEnd()} ${summary} ${error.message.slice(quoted)}`;
		error.description = [error.description, summary, listed]
			.filter(Boolean)
			.join(LINE_BREAK.repeat(2));
		Object.assign(error.context, {
			itemsDone: this.done.length,
			firstItemNotDone: failedIndex + 1,
			[`ids${this.writes ? 'Written' : 'Read'}`]: ids,
		});
		return error;
	}
}

/** The output of a failed item when "Continue On Fail" is on. */
function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description } = error as { message?: string; description?: string };
	// In item data a description's lines are plain text lines, not the error panel's HTML breaks.
	const text = description?.split(LINE_BREAK).join('\n');
	return {
		json: { error: message ?? String(error), ...(text ? { description: text } : {}) },
		pairedItem: { item: itemIndex },
	};
}
