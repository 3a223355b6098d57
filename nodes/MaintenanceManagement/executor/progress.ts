import { sleep } from 'n8n-workflow';

import { PROGRESS_WORDS } from '../../shared/errors/messages';
import type { WaitReason } from '../transport';

/**
 * The progress of a long run: a line every 30 s, also while a request waits for the API's rate limit,
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
