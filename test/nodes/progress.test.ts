import type { IDataObject } from 'n8n-workflow';

import { Progress } from '../../nodes/MaintenanceManagement/executor/progress';
import { MATERIAL_FROM_ROW } from '../helpers/rows';
import { ResourceFixture } from './helpers/resource';
import { inSimulatedTime, type Timers } from './helpers/simulatedTime';

/**
 * The progress of a long run, as n8n's editor receives it: the node runs in n8n-core in a manual run
 * against the sandbox's rate limit, and each line is what n8n's server would push to the editor
 * (`sendConsoleMessage`, printed in the browser's console). Time is simulated (see `inSimulatedTime`).
 */
jest.mock('n8n-workflow', () =>
	jest.requireActual<Timers>('./helpers/simulatedTime').sleepingOnTestTimers(),
);

const fixture = new ResourceFixture('material');

const materials = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, index) => ({
		code: `SLOW-${String(index + 1).padStart(4, '0')}`,
		name: `Slow part ${index + 1}`,
	}));

/** A line the editor received, at the simulated time it came. */
interface Line {
	at: number;
	text: string;
}

/** Runs the node over the items in simulated time, keeping each line the editor receives. */
async function runSimulated(items: IDataObject[]) {
	const lines: Line[] = [];
	const sources = new Set<string>();
	const { result, endedAt } = await inSimulatedTime(
		async (elapsed) =>
			await fixture.run(MATERIAL_FROM_ROW, {
				items,
				sendDataToUI: (type, data) => {
					if (type !== 'sendConsoleMessage') return;
					const { source, messages } = data as { source: string; messages: string[] };
					sources.add(source);
					lines.push({ at: elapsed(), text: messages.join(' ') });
				},
			}),
	);
	return { ...result, lines, sources, endedAt };
}

/**
 * Checks that a line's estimate is within 20% of the true time left, or, when little is left, within
 * the 1 s a line counts in ("about 1 s more" is the least it says).
 */
function expectTimeLeft({ at, text }: Line, endedAt: number): void {
	const trueLeft = endedAt - at;
	expect({
		line: text,
		within: Math.abs(estimateOf(text) - trueLeft) <= Math.max(0.2 * trueLeft, 1000),
	}).toEqual({ line: text, within: true });
}

/** The "about … more" of a line, in milliseconds. */
function estimateOf(text: string): number {
	const match = / about (?:(\d+) min)? ?(?:(\d+) s)? more/.exec(text);
	if (!match) throw new Error(`no estimate in: ${text}`);
	return (Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0)) * 1000;
}

describe('progress of a long run at the rate limit, as the editor receives it', () => {
	it('comes at least every 30 s, waits included, each estimate within 20% of the time left', async () => {
		// 400 items at 60 requests a minute: six waits of about a minute each, over 5 minutes in all.
		await fixture.control('POST', '/rate-limit', { limit: 60, windowMs: 60_000 });
		const { output, error, lines, sources, endedAt } = await runSimulated(materials(400));
		expect(error).toBeUndefined();
		expect(output).toHaveLength(400);
		expect(endedAt).toBeGreaterThan(5 * 60_000);
		expect([...sources]).toEqual(['[Node: "Maintenance Management"]']);
		const progress = lines.slice(0, -1);
		// From the start of the run, through every wait, to the end: never 30 s without a line.
		const times = [0, ...lines.map(({ at }) => at)];
		const gaps = times.slice(1).map((at, index) => at - times[index]);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
		expect(endedAt - times[times.length - 1]).toBeLessThanOrEqual(30_000);
		// Most lines come while the node waits for the rate limit, and say so.
		const waiting = progress.filter(({ text }) =>
			/; now waiting \d+ s for the API's rate limit$/.test(text),
		);
		expect(waiting.length).toBeGreaterThanOrEqual(progress.length / 2);
		for (const { at, text } of progress) {
			expect(text).toMatch(
				/^Maintenance Management \(POST \/stocks\/materials\): \d+ of 400 items done, \d+ left, about .+ more at 60 items a minute/,
			);
			expectTimeLeft({ at, text }, endedAt);
		}
		expect(lines[lines.length - 1].text).toMatch(
			/: all 400 items processed in 6 min( \d+ s)? \(400 written, 0 failed\)$/,
		);
	});

	it('reports inside one long wait for the rate limit, counting down what is left of it', async () => {
		// 5 requests in a 4-minute window: the sixth item waits about 4 minutes, in one wait.
		await fixture.control('POST', '/rate-limit', { limit: 5, windowMs: 240_000 });
		const { output, lines, endedAt } = await runSimulated(materials(8));
		expect(output).toHaveLength(8);
		const progress = lines.slice(0, -1);
		// Every 30 s of the wait, and once the reset has let the next item through (240 s after the first
		// request), with what little is left.
		expect(progress.map(({ at }) => at / 1000)).toEqual([30, 60, 90, 120, 150, 180, 210, 240]);
		expect(progress[0].text).toBe(
			"Maintenance Management (POST /stocks/materials): 5 of 8 items done, 3 left, about 3 min 30 s more at 75 items an hour; now waiting 3 min 30 s for the API's rate limit",
		);
		expect(progress[progress.length - 1].text).toMatch(
			/: 6 of 8 items done, 2 left, about 1 s more/,
		);
		for (const line of progress) expectTimeLeft(line, endedAt);
	});
});

describe('progress while a request waits to be tried again', () => {
	afterEach(() => jest.useRealTimers());

	it('says so every 30 s of the wait; a run of one item says nothing and sleeps in one piece', async () => {
		jest.useFakeTimers();
		const lines: string[] = [];
		const progress = new Progress(10, (line) => lines.push(line));
		jest.advanceTimersByTime(10_000);
		progress.finishedItems(5);
		const waiting = progress.pause(60_000, 'retry');
		await jest.advanceTimersByTimeAsync(60_000);
		await waiting;
		expect(lines).toEqual([
			'5 of 10 items done, 5 left, about 70 s more at 10 items a minute; now waiting 40 s before trying again',
			'5 of 10 items done, 5 left, about 70 s more at 5 items a minute; now waiting 10 s before trying again',
		]);
		const alone = new Progress(1, (line) => lines.push(line));
		const once = alone.pause(90_000, 'rateLimit');
		expect(jest.getTimerCount()).toBe(1);
		await jest.advanceTimersByTimeAsync(90_000);
		await once;
		expect(lines).toHaveLength(2);
	});
});
