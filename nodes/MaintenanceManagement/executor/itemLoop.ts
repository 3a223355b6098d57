/**
 * One execution's loop over its input items: each item's output or error, and what became of every item
 * when an error stops the node. A long run's progress lines come from progress.ts, and, with Retry On
 * Fail, what a write's earlier tries got from retryOnFail.ts, so that no row is sent twice.
 */

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { outcomeOf, withOutcome } from '../../shared/errors/outcome';
import type { Outcome, RecordOutcome } from '../../shared/errors/outcome';
import { duration, stopSummary, withSummary } from '../../shared/errors/messages';
import { LINE_BREAK } from '../../shared/errors/text';
import { asNodeError, pauseWaitsWith } from '../transport';
import type { OperationModule } from '../../shared/types';
import { Progress } from './progress';
import type { Answer, EarlierTries, NodeError } from './retryOnFail';
import { ANSWERED, earlierTriesOf, keepsTries } from './retryOnFail';

/** The output of each input item, by item index. */
export type Outputs = INodeExecutionData[][];

/**
 * The keys of an item that n8n's "Continue (using error output)" takes for an error item when they are
 * all it has, `error` set (n8n-core's WorkflowExecute.handleNodeErrorOutput). n8n 2.41 takes any of
 * them beside `error`; n8n 1.123 and 2.0 take `error` alone or `error` with `message`, a narrower
 * set that this one covers.
 */
const ERROR_ITEM_KEYS = new Set(['error', 'message', 'details']);

const readAsError = (json: IDataObject): boolean =>
	Boolean(json.error) && Object.keys(json).every((key) => ERROR_ITEM_KEYS.has(key));

/**
 * One execution's walk over its input items: their outputs, a progress line in n8n's log (and, in a
 * manual run, the browser console) every 30 s of a long run, waits included (progress.ts), and, when
 * an error stops the node, what became of each item. Items are numbered as n8n numbers them, from 0,
 * so a message and n8n's own `[item N]` never disagree. With Continue On Fail a failed item gets its
 * error as output (on the Error output with "Continue (using error output)"), and the others go on.
 */
export class ItemLoop {
	readonly outputs: Outputs = [];

	/** Item indexes done so far (their records output), in order. */
	private readonly done: number[] = [];

	/** Item indexes sent whose answer does not say whether they were written. */
	private readonly unknown = new Set<number>();

	private readonly started = Date.now();

	private readonly progress: Progress;

	/** Items with an output so far: their records, or their error with Continue On Fail. */
	private finished = 0;

	private readonly summarized = new WeakSet<Error>();

	/** With Retry On Fail, what the earlier tries of this run got for its rows (retryOnFail.ts). */
	private readonly tries?: EarlierTries;

	/**
	 * @param what The operation, for progress lines: the node's name and its request
	 *   ("Create materials (POST /stocks/materials)").
	 * @param writes Whether an item's request changes data (its items are "written") or reads it.
	 */
	constructor(
		private readonly context: IExecuteFunctions,
		readonly itemCount: number,
		private readonly what: string,
		private readonly writes: boolean,
	) {
		this.progress = new Progress(itemCount, (line) => this.log(`${what}: ${line}`));
		this.tries = keepsTries(context, writes) ? earlierTriesOf(context) : undefined;
		// The requests of this execution wait in the progress, which reports while they wait.
		pauseWaitsWith(context, async (ms, reason) => await this.progress.pause(ms, reason));
	}

	/**
	 * Runs one step for some items (one item, or a group sent as one request). When it fails, the error
	 * stops the node, saying what became of every item, or, with Continue On Fail, becomes the output of
	 * each of those items. An item an earlier try of Retry On Fail sent is not sent again: its output,
	 * or its error, is the one that try got.
	 */
	async guard(itemIndexes: number[], step: () => Promise<void> | void): Promise<void> {
		const earlier = itemIndexes.length === 1 ? this.tries?.earlier(itemIndexes[0]) : undefined;
		try {
			if (earlier) this.again(itemIndexes[0], earlier);
			else await step();
		} catch (error) {
			const nodeError = asNodeError(this.context.getNode(), error, itemIndexes[0]);
			// A step within a step (an item of a group) has already said what became of each item.
			if (this.summarized.has(nodeError)) throw nodeError;
			const outcome = outcomeOf(nodeError);
			// The error says what became of its request, whichever part of the node threw it.
			withOutcome(nodeError, outcome);
			if (outcome === 'unknown') for (const itemIndex of itemIndexes) this.unknown.add(itemIndex);
			this.remember(itemIndexes, nodeError, outcome);
			if (!this.context.continueOnFail()) {
				this.summarized.add(nodeError);
				// An earlier try stopped here: this one stops as it did, every row it answered given again.
				const failed = earlier && 'failed' in earlier ? this.allAgain(earlier.failed) : itemIndexes;
				throw this.stopped(nodeError, failed, outcome);
			}
			for (const itemIndex of itemIndexes)
				this.outputs[itemIndex] = [this.errorItem(nodeError, itemIndex, outcome)];
			this.progress.finishedItems((this.finished += itemIndexes.length));
		}
	}

	/**
	 * Sets an item's records as its output, counting it done. A record n8n would take for an error item
	 * (Output: Raw of a record holding only `error` and `message`) says what became of it, `outcome`
	 * beside its fields, so that it stays on the Success output.
	 */
	output(itemIndex: number, records: IDataObject[]): void {
		const outcome: RecordOutcome = this.writes ? 'written' : 'read';
		this.outputs[itemIndex] = records.map((record) => ({
			json: readAsError(record) ? { ...record, outcome } : record,
			pairedItem: { item: itemIndex },
		}));
		this.done.push(itemIndex);
		this.tries?.remember(itemIndex, { records });
		this.progress.finishedItems(++this.finished);
	}

	/**
	 * Counts items as sent without an answer that confirms them, each with its error: they may have been
	 * written. Their errors are thrown one by one after (a stop throws only the first).
	 */
	unconfirmed(errors: Map<number, NodeError>): void {
		for (const [itemIndex, error] of errors) {
			this.unknown.add(itemIndex);
			this.remember([itemIndex], error, outcomeOf(error));
		}
	}

	/**
	 * With Retry On Fail, keeps the error of items the API answered, or may have, as it is before a
	 * stop adds its summary, for the tries to come.
	 */
	private remember(itemIndexes: number[], error: NodeError, outcome: Outcome): void {
		if (!this.tries || !ANSWERED.has(outcome)) return;
		const { message, description } = error;
		const answer: Answer = {
			error,
			message,
			description,
			context: { ...error.context },
			outcome,
			failed: itemIndexes,
		};
		for (const itemIndex of itemIndexes) this.tries.remember(itemIndex, answer);
	}

	/** Gives an item what an earlier try got: its records, or its error thrown as it was then. */
	private again(itemIndex: number, answer: Answer): void {
		if ('records' in answer) {
			this.output(itemIndex, answer.records);
			return;
		}
		const { error } = answer;
		error.message = answer.message;
		error.description = answer.description;
		error.context = { ...answer.context };
		throw error;
	}

	/**
	 * Before a stop that repeats an earlier try's, gives every item that try answered: the stop then
	 * says what it said. Returns the items that failed with it.
	 */
	private allAgain(itemIndexes: number[]): number[] {
		const failed = new Set(itemIndexes);
		for (const [itemIndex, answer] of this.tries?.entries() ?? []) {
			if (this.outputs[itemIndex] || failed.has(itemIndex)) continue;
			if ('records' in answer) this.output(itemIndex, answer.records);
			else if (answer.outcome === 'unknown') this.unknown.add(itemIndex);
			else failed.add(itemIndex);
		}
		return [...failed].sort((a, b) => a - b);
	}

	/** The last progress line of a run long enough to have reported. */
	finish(): void {
		if (!this.progress.reported) return;
		const elapsed = Date.now() - this.started;
		const unknown = this.unknown.size ? `, ${this.unknown.size} unknown` : '';
		this.log(
			`${this.what}: all ${this.itemCount} items processed in ${duration(elapsed)} (${this.done.length} ${this.writes ? 'written' : 'read'}${unknown}, ${this.itemCount - this.done.length - this.unknown.size} failed)`,
		);
	}

	private log(message: string): void {
		this.context.logger.info(message, { node: this.context.getNode().name });
		this.context.sendMessageToUI(message);
	}

	/**
	 * The output of a failed item with Continue On Fail, paired with its input item. With "Continue
	 * (using error output)" it is `{ error: { message, outcome, description } }`: an item whose JSON holds
	 * `error` alone is what every supported n8n (1.123 to 2.41) moves to the Error output, where it lays it
	 * over the input item, so the row arrives with its reason, ready to be corrected and sent again. (An
	 * item-level `error` would move it too, but n8n then replaces its JSON with the message alone. Every
	 * supported n8n also takes `error` with `message`; 2.41 takes `details` too.) With "Continue
	 * (regular output)" it is `{ error, description, outcome }`.
	 */
	private errorItem(error: NodeError, itemIndex: number, outcome: Outcome): INodeExecutionData {
		// In item data a description's lines are plain text lines, not the error panel's HTML breaks.
		const text = error.description?.split(LINE_BREAK).join('\n');
		const description = text ? { description: text } : {};
		const json: IDataObject =
			this.context.getNode().onError === 'continueErrorOutput'
				? { error: { message: error.message, outcome, ...description } }
				: { error: error.message, ...description, outcome };
		return { json, pairedItem: { item: itemIndex } };
	}

	/** The error that stops the node, with what became of every item and where to resume. */
	private stopped(error: NodeError, failed: number[], outcome: Outcome): NodeError {
		// A read whose answer was lost wrote nothing: it is simply to be run again.
		const unknown = this.writes ? [...this.unknown].sort((a, b) => a - b) : [];
		// With nothing done or uncertain yet, the error alone says it all.
		if (this.itemCount < 2 || (this.done.length === 0 && unknown.length === 0)) return error;
		const settled = new Set([...this.done, ...unknown, ...failed]);
		const notSent = Array.from({ length: this.itemCount }, (_, index) => index).filter(
			(index) => !settled.has(index),
		);
		const written = [...this.done].sort((a, b) => a - b);
		const ids = written.flatMap((index) =>
			this.outputs[index].map(({ json }) => json.id).filter((id) => id !== undefined),
		) as Array<string | number>;
		const { summary, listed } = stopSummary({
			itemCount: this.itemCount,
			writes: this.writes,
			unknownOutcome: outcome === 'unknown',
			written,
			unknown,
			failed,
			notSent,
			ids,
		});
		error.message = withSummary(error.message, summary);
		error.description = [error.description, summary, listed]
			.filter(Boolean)
			.join(LINE_BREAK.repeat(2));
		Object.assign(error.context, {
			itemsDone: written.length,
			itemsUnknown: unknown,
			firstItemNotDone: failed[0],
			[`ids${this.writes ? 'Written' : 'Read'}`]: ids,
		});
		return error;
	}
}

/** The loop over an operation's input items, its progress lines naming the node and the request. */
export const itemLoopFor = (
	context: IExecuteFunctions,
	operation: OperationModule,
	itemCount: number,
): ItemLoop =>
	new ItemLoop(
		context,
		itemCount,
		`${context.getNode().name} (${operation.endpoint.method} ${operation.endpoint.path})`,
		operation.endpoint.method !== 'GET',
	);
