/** n8n-workflow, its `sleep` on the test's own timers (the same wait, on a clock a test may fake). */
export const sleepingOnTestTimers = (): object => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms)),
});

export type Timers = { sleepingOnTestTimers: typeof sleepingOnTestTimers };

/**
 * Runs a piece of work in simulated time: jest's fake clock drives the node's waits and the in-process
 * sandbox's rate-limit windows alike, so minutes of waiting take no real time. Whenever the work waits on
 * a timer (and only then, its requests being real ones on loopback), the clock jumps to that timer.
 *
 * n8n-workflow is loaded once per worker, outside the test's timers: a test file that uses this gives the
 * node's `sleep` the test's own timer, which the fake clock replaces, with
 * `jest.mock('n8n-workflow', () => jest.requireActual<Timers>(…).sleepingOnTestTimers())`.
 */
export async function inSimulatedTime<T>(
	work: (elapsed: () => number) => Promise<T>,
): Promise<{ result: T; endedAt: number }> {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	try {
		const start = Date.now();
		const elapsed = () => Date.now() - start;
		let settled = false;
		const running = work(elapsed).finally(() => (settled = true));
		while (!settled) {
			await new Promise((resolve) => setImmediate(resolve));
			if (jest.getTimerCount() > 0) await jest.advanceTimersToNextTimerAsync();
		}
		return { result: await running, endedAt: elapsed() };
	} finally {
		jest.useRealTimers();
	}
}
