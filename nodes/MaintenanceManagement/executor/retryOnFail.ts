import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import type { Outcome } from '../../shared/errors/outcome';
import { retriedTry } from '../../shared/errors/messages';

export type NodeError = NodeApiError | NodeOperationError;

/** What became of a row whose request reached the API, or may have: a later try does not send it again. */
export const ANSWERED = new Set<Outcome>(['written', 'refusedByApi', 'unknown']);

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
export type Answer =
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
export class EarlierTries {
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

/** The run each try's context belongs to, for its item loop (itemLoop.ts). */
const byContext = new WeakMap<IExecuteFunctions, EarlierTries>();

/**
 * Whether a try's rows are kept for the tries to come: a write, with Retry On Fail on. Anything else
 * runs as it is, without the keeping of this file.
 */
export const keepsTries = (context: IExecuteFunctions, writes: boolean): boolean =>
	writes && context.getNode().retryOnFail === true;

/** How many runs are kept now: for the tests, which check that nothing stays. */
export const keptRuns = (): number => kept.size;

/** The run whose answers a try's item loop keeps and gives again, when Retry On Fail is on for a write. */
export const earlierTriesOf = (context: IExecuteFunctions): EarlierTries | undefined =>
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
