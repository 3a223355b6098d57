/**
 * One execution's loop over its input items: each item's output or error, what became of every item
 * when an error stops the node, the progress lines of a long run, and, with Retry On Fail, what a
 * write's earlier tries got, so that no row is sent twice.
 */

import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { outcomeOf, withOutcome } from '../../shared/errors/outcome';
import type { Outcome, RecordOutcome } from '../../shared/errors/outcome';
import {
	duration,
	PROGRESS_WORDS,
	retriedTry,
	stopSummary,
	withSummary,
} from '../../shared/errors/messages';
import { LINE_BREAK } from '../../shared/errors/text';
import type { WaitReason } from '../transport';
import { asNodeError, pauseWaitsWith } from '../transport';
import type { OperationModule } from '../../shared/types';

type NodeError = NodeApiError | NodeOperationError;

/** What became of a row whose request reached the API, or may have: a later try does not send it again. */
const ANSWERED = new Set<Outcome>(['written', 'refusedByApi', 'unknown']);

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
 * The progress of a long run (below): a line every 30 s, also while a request waits for the API's rate limit,
 * with the time left worked out here alone.
 *
 * What n8n 2.41 lets a node show while it runs: nothing in the editor's canvas or output panel (they show
 * "Executing node…" until the node returns; execution hints and the node's output come after). A node can
 * write to n8n's log (`this.logger`), and in a manual run send a message to the editor's push connection
 * (`sendMessageToUI`), which the editor prints in the browser's developer console. So each line goes to
 * both.
 */

/** How often a long run reports its progress, in milliseconds. */
export const PROGRESS_EVERY_MS = 30_000;

/**
 * One stretch of the API's rate limit, from the end of one wait for it to the end of the next: how many
 * items it let through, how long they took to send, and how long it lasted in all.
 */
interface Cycle {
	items: number;
	sendingMs: number;
	totalMs: number;
}

/** A wait under way: when it ends, and why. */
interface Wait {
	endsAt: number;
	reason: WaitReason;
}

/**
 * Counts a run's items and its waits, and reports every 30 s. The time left counts the waits to come:
 * once the rate limit has made the run wait, it is known how many items one of its stretches lets
 * through and how long a stretch lasts, and the items left need that many more stretches.
 */
export class Progress {
	private readonly started = Date.now();

	private reportedAt = this.started;

	private finished = 0;

	/** The last whole stretch of the rate limit, once there has been one. */
	private cycle?: Cycle;

	/** When the current stretch began (a wait's end, in the future while the wait lasts) and its items. */
	private cycleStart = this.started;

	private cycleFirstItem = 0;

	/** What the current stretch has waited before retries, which is not sending time. */
	private retryWaitedMs = 0;

	private wait?: Wait;

	constructor(
		private readonly itemCount: number,
		private readonly say: (line: string) => void,
	) {}

	/** Whether the run has said anything yet. */
	get reported(): boolean {
		return this.reportedAt !== this.started;
	}

	/** Counts the items finished so far (output or failed), and reports when a line is due. */
	finishedItems(finished: number): void {
		this.finished = finished;
		this.reportIfDue();
	}

	/** Waits as a request must, reporting every 30 s of it; a wait for the rate limit ends a stretch. */
	async pause(ms: number, reason: WaitReason): Promise<void> {
		const now = Date.now();
		const endsAt = now + ms;
		if (reason === 'rateLimit') this.endCycle(now, endsAt);
		else this.retryWaitedMs += ms;
		this.wait = { endsAt, reason };
		try {
			// In slices that end when a line is due, so that a long wait reports as it goes.
			for (let left = ms; left > 0;) {
				this.reportIfDue();
				const due = this.reportedAt + PROGRESS_EVERY_MS - Date.now();
				const slice = this.reporting ? Math.min(left, Math.max(1, due)) : left;
				await sleep(slice);
				left -= slice;
			}
		} finally {
			this.wait = undefined;
		}
	}

	/**
	 * The milliseconds the items left still need, or undefined before anything says: what is left of the
	 * current wait, the stretches of the rate limit still to come, and the sending.
	 */
	timeLeftMs(now = Date.now()): number | undefined {
		const left = this.itemCount - this.finished;
		const waitLeft = this.wait ? Math.max(0, this.wait.endsAt - now) : 0;
		const { cycle } = this;
		if (!cycle) {
			if (this.finished === 0) return undefined;
			return waitLeft + left * ((now - this.started) / this.finished);
		}
		const perItem = cycle.sendingMs / cycle.items;
		// The items the current stretch still lets through before its end.
		const inCycle = Math.max(0, this.finished - this.cycleFirstItem);
		const fit = Math.max(0, cycle.items - inCycle);
		const firstPart = waitLeft + Math.min(left, fit) * perItem;
		if (left <= fit) return firstPart;
		const rest = left - fit;
		const moreCycles = Math.ceil(rest / cycle.items) - 1;
		const cycleEnd = this.cycleStart + cycle.totalMs;
		return (
			Math.max(cycleEnd - now, firstPart) +
			moreCycles * cycle.totalMs +
			(rest - moreCycles * cycle.items) * perItem
		);
	}

	/** The pace of the run in items a minute: the rate limit's, once known, else the pace so far. */
	private perMinute(now: number): number {
		const { cycle } = this;
		if (cycle) return (cycle.items / cycle.totalMs) * 60_000;
		return (this.finished / Math.max(1, now - this.started)) * 60_000;
	}

	/** Ends the current stretch of the rate limit at a wait for it; the next begins when the wait ends. */
	private endCycle(now: number, endsAt: number): void {
		const items = this.finished - this.cycleFirstItem;
		// A stretch without an item (a wait right after a wait) says nothing of the limit's pace.
		if (items > 0) {
			const sendingMs = Math.max(0, now - this.cycleStart - this.retryWaitedMs);
			this.cycle = { items, sendingMs, totalMs: endsAt - this.cycleStart };
		}
		this.cycleStart = endsAt;
		this.cycleFirstItem = this.finished;
		this.retryWaitedMs = 0;
	}

	/** Whether lines are to come: a run of several items with some left (the last line says the rest). */
	private get reporting(): boolean {
		return this.itemCount > 1 && this.finished < this.itemCount;
	}

	private reportIfDue(): void {
		const now = Date.now();
		if (!this.reporting || now - this.reportedAt < PROGRESS_EVERY_MS) return;
		const left = this.itemCount - this.finished;
		this.reportedAt = now;
		const timeLeft = this.timeLeftMs(now);
		const { wait } = this;
		this.say(
			PROGRESS_WORDS.done(this.finished, this.itemCount, left) +
				(timeLeft === undefined ? '' : PROGRESS_WORDS.timeLeft(timeLeft, this.perMinute(now))) +
				(wait && wait.endsAt > now ? PROGRESS_WORDS.waiting(wait.endsAt - now, wait.reason) : ''),
		);
	}
}

/**
 * Retry On Fail: what a write's earlier tries got from the API.
 *
 * n8n runs a node again, with the same input items and the same run index, up to Max Tries times, when
 * it throws (On Error: Stop Workflow) or when the first item of its first output holds `json.error`
 * (either Continue mode, row 0 failed): n8n-core's WorkflowExecute, the loop over `tryIndex`. Sent again
 * as they are, the rows the API already wrote would be written twice. So while a write runs with Retry
 * On Fail on, each row the API answered (written, refused, or its answer lost: it may have been
 * written) is kept with its output, and a later try of the same run gives that output again instead of
 * sending the row; it sends only the rows never sent (refused by the node's own checks, which refuse
 * them again, or left unsent by a stop or the rate limit).
 *
 * A run is one execution's run of one node (`getExecutionId()`, the node's name, `$runIndex`), over the
 * same input items. What it keeps lives in this process's memory only, and goes when n8n will not run
 * the node again: after a try n8n takes for a success, after the last of Max Tries, at the execution's
 * end (where n8n lets a node know it), and in any case once a run has not been tried for
 * `IDLE_MS` (n8n waits 5 s at most between tries), or, the least recently tried first, when more than
 * `MAX_RUNS` runs wait between tries.
 */

/** How a row's answer is given again: its output records, or its error as it was before any stop's summary. */
type Answer =
	| { records: IDataObject[] }
	| {
			error: NodeError;
			message: string;
			description: string | null | undefined;
			context: IDataObject;
			outcome: Outcome;
			/** The items that failed with it (one, or a group sent as one request). */
			failed: number[];
	  };

/** The most runs kept at once; the least recently tried, between two tries, go first. */
const MAX_RUNS = 200;

/** A run not tried again for this long is over: n8n waits at most 5 s between tries. */
const IDLE_MS = 10 * 60_000;

/** One run's answers, by item index, and the try that got each. */
class EarlierTries {
	private readonly answers = new Map<number, Answer & { tryNumber: number }>();

	/** The try under way, from 1. */
	tryNumber = 0;

	running = false;

	lastTriedAt = Date.now();

	constructor(readonly items: INodeExecutionData[]) {}

	/** Whether these are the input items this run began with (n8n hands each try the same items). */
	sameInput(items: INodeExecutionData[]): boolean {
		return (
			items.length === this.items.length && items.every((item, index) => item === this.items[index])
		);
	}

	/** The answer an earlier try got for this item, if it got one. */
	earlier(itemIndex: number): Answer | undefined {
		const answer = this.answers.get(itemIndex);
		return answer && answer.tryNumber < this.tryNumber ? answer : undefined;
	}

	/** Keeps an item's answer; the first a run gets for an item is the one kept. */
	remember(itemIndex: number, answer: Answer): void {
		if (!this.answers.has(itemIndex))
			this.answers.set(itemIndex, { ...answer, tryNumber: this.tryNumber });
	}

	/** How many items have an answer. */
	get answered(): number {
		return this.answers.size;
	}

	/** The items with an answer, the one each got. */
	entries(): IterableIterator<[number, Answer]> {
		return this.answers.entries();
	}
}

/** The runs kept, the least recently tried first. */
const kept = new Map<string, EarlierTries>();

/** The run each try's context belongs to, for its item loop (below). */
const byContext = new WeakMap<IExecuteFunctions, EarlierTries>();

/**
 * Whether a try's rows are kept for the tries to come: a write, with Retry On Fail on. Anything else
 * runs as it is, without the keeping below.
 */
export const keepsTries = (context: IExecuteFunctions, writes: boolean): boolean =>
	writes && context.getNode().retryOnFail === true;

/** How many runs are kept now: for the tests, which check that nothing stays. */
export const keptRuns = (): number => kept.size;

/** The run whose answers a try's item loop keeps and gives again, when Retry On Fail is on for a write. */
const earlierTriesOf = (context: IExecuteFunctions): EarlierTries | undefined =>
	byContext.get(context);

/** The number of tries n8n makes: n8n-core's `getRetryParams`, 3 unless set, from 2 to 5. */
const maxTriesOf = (node: INode): number => Math.min(5, Math.max(2, node.maxTries || 3));

/** Whether n8n takes an output for a failed try: its first item's `json.error` is set (n8n-core's `checkFailure`). */
const failedTry = (output: INodeExecutionData[]): boolean => {
	const error = output[0]?.json?.error;
	return error !== undefined && error !== null && error !== false;
};

/** Drops the runs not tried for IDLE_MS, then the least recently tried while more than MAX_RUNS are kept. */
function prune(now: number): void {
	for (const [key, run] of kept) {
		if (!run.running && now - run.lastTriedAt > IDLE_MS) kept.delete(key);
	}
	for (const [key, run] of kept) {
		if (kept.size <= MAX_RUNS) break;
		if (!run.running) kept.delete(key);
	}
}

const release = (key: string, run: EarlierTries): void => {
	if (kept.get(key) === run) kept.delete(key);
};

/**
 * Runs one try of the node over its input items. A write with Retry On Fail on keeps its rows' answers
 * for the tries to come, and is given those of the tries before; anything else runs as it is.
 */
export async function inTries(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	writes: boolean,
	run: () => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const node = context.getNode();
	const executionId = context.getExecutionId();
	if (!writes || node.retryOnFail !== true || !executionId || items.length === 0) {
		return await run();
	}
	const runIndex = Number(context.getWorkflowDataProxy(0).$runIndex);
	const key = JSON.stringify([executionId, node.name, runIndex]);
	const now = Date.now();
	prune(now);
	let tries = kept.get(key);
	if (!tries?.sameInput(items) || tries.running) {
		tries = new EarlierTries(items);
		const first = tries;
		context.onExecutionFinish?.(() => release(key, first));
	}
	// Last in the map: the most recently tried.
	kept.delete(key);
	kept.set(key, tries);
	prune(now);
	tries.tryNumber++;
	tries.running = true;
	byContext.set(context, tries);
	if (tries.tryNumber > 1) {
		// In n8n's log and, in a manual run, the browser's console, as the progress lines are.
		const line = retriedTry(node.name, tries.tryNumber, maxTriesOf(node), tries.answered);
		context.logger.info(line, { node: node.name });
		context.sendMessageToUI(line);
	}
	let again = true;
	try {
		const output = await run();
		again = failedTry(output);
		return output;
	} finally {
		tries.running = false;
		tries.lastTriedAt = Date.now();
		if (!again || tries.tryNumber >= maxTriesOf(node)) release(key, tries);
	}
}

/**
 * One execution's walk over its input items: their outputs, a progress line in n8n's log (and, in a
 * manual run, the browser console) every 30 s of a long run, waits included (Progress, above), and, when
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

	/** With Retry On Fail, what the earlier tries of this run got for its rows (EarlierTries, above). */
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
