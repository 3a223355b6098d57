import { heartbeat, reporter } from '../../scripts/progress';

/**
 * The heartbeat of a long step of npm run dev (scripts/dev.js runs scripts/progress.js beside its sandbox
 * start, the build, the import and n8n's start): a line naming the step and the time so far at least every
 * 10 s. On jest's fake clock, with the processes given, so no test waits or starts a process.
 */
describe('a step’s heartbeat', () => {
	beforeEach(() => jest.useFakeTimers({ now: 0 }));
	afterEach(() => jest.useRealTimers());

	/**
	 * A step of npm run dev lasting `stepMs` on the fake clock: dev's line announcing it at 0, the
	 * heartbeat's lines, and dev's next line when the step ends. Returns each line with its time.
	 */
	const runStep = (stepMs: number, orphanedAt = Infinity) => {
		const lines: Array<{ at: number; line: string }> = [];
		const write = (line: string) => lines.push({ at: Date.now(), line: line.trimEnd() });
		write('[dev] building the package…');
		const stop = heartbeat({
			report: reporter({
				label: 'dev',
				step: 'building the package',
				now: () => Date.now(),
				// dev.js (10) started its sandbox (5), this script (11), then npm run build (12), which runs tsc (13).
				processes: () => [
					{ pid: 10, ppid: 1, start: 100, argv: ['node', 'scripts/dev.js'] },
					{ pid: 5, ppid: 10, start: 150, argv: ['node', 'sandbox/cli.ts'] },
					{ pid: 11, ppid: 10, start: 200, argv: ['node', 'scripts/progress.js'] },
					{ pid: 12, ppid: 10, start: 201, argv: ['npm run build'] },
					{ pid: 13, ppid: 12, start: 202, argv: ['node', '/repo/node_modules/.bin/tsc'] },
				],
				parent: 10,
				self: 11,
			}),
			write,
			orphaned: () => Date.now() >= orphanedAt,
		});
		jest.advanceTimersByTime(stepMs);
		stop();
		write('[dev] importing the credential and the example workflows…');
		// Nothing more once stopped.
		jest.advanceTimersByTime(60_000);
		return lines;
	};
	const gaps = (lines: Array<{ at: number }>) =>
		lines.slice(1).map(({ at }, i) => at - lines[i].at);

	it('says what a 35 s step does, naming it and the time so far, with no line more than 10 s after the one before', () => {
		const lines = runStep(35_000);
		expect(lines.map(({ at, line }) => `${at / 1000} ${line}`)).toEqual([
			'0 [dev] building the package…',
			'8 [dev]   building the package: running tsc; 8 s so far',
			'16 [dev]   building the package: running tsc; 16 s so far',
			'24 [dev]   building the package: running tsc; 24 s so far',
			'32 [dev]   building the package: running tsc; 32 s so far',
			'35 [dev] importing the credential and the example workflows…',
		]);
		expect(Math.max(...gaps(lines))).toBeLessThanOrEqual(10_000);
	});

	it('stops once the process that started the step is gone', () => {
		const lines = runStep(35_000, 20_000);
		expect(lines.map(({ at }) => at / 1000)).toEqual([0, 8, 16, 35]);
	});

	it('names a program by its package, not by a node option or a generic script name', () => {
		const N8N = '/x/.runtime/n8n/node_modules';
		let clock = 0;
		const report = reporter({
			label: 'dev',
			step: 'starting n8n',
			now: () => clock,
			processes: () => [
				{ pid: 10, ppid: 1, start: 100, argv: ['node', 'scripts/dev.js'] },
				{ pid: 11, ppid: 10, start: 200, argv: ['node', 'scripts/progress.js'] },
				{ pid: 12, ppid: 10, start: 201, argv: ['/x/node', `${N8N}/n8n/bin/n8n`, 'start'] },
				{
					pid: 13,
					ppid: 12,
					start: 300,
					argv: [
						'node',
						'--disallow-code-generation-from-strings',
						'--disable-proto=delete',
						`${N8N}/@n8n/task-runner/dist/start.js`,
					],
				},
			],
			parent: 10,
			self: 11,
		});
		clock = 8_000;
		expect(report()).toBe('[dev]   starting n8n: running @n8n/task-runner; 8 s so far');
	});
});
