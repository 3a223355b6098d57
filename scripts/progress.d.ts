/** A process as /proc shows it: its id, its parent's, its start in clock ticks, its arguments. */
export type Proc = { pid: number; ppid: number; start: number; argv: string[] };

/** A step's progress reporter: each call of the function it returns gives the next report line. */
export function reporter(options: {
	label?: string;
	step: string;
	dir?: string;
	packages?: Array<{ path: string; integrity?: string }>;
	now?: () => number;
	exists?: (path: string) => boolean;
	tarballSize?: (integrity: string) => number | undefined;
	processes?: () => Proc[];
	openFiles?: (pid: number) => string[];
	parent?: number;
	self?: number;
}): () => string;

/**
 * Writes `report()` every `intervalMs` (8 s by default) until the returned function is called or
 * `orphaned()` holds.
 */
export function heartbeat(options: {
	report: () => string;
	write: (line: string) => void;
	intervalMs?: number;
	orphaned?: () => boolean;
}): () => void;

/** Starts scripts/progress.js beside a step; kill the process it returns when the step ends. */
export function showProgress(options: {
	label: string;
	step: string;
	dir?: string;
	lockfile?: string;
}): import('node:child_process').ChildProcess;

/** The packages a lockfile installs on the platform: each one's folder and its tarball's integrity. */
export function lockedPackages(
	lock: {
		packages: Record<
			string,
			{
				os?: string[];
				cpu?: string[];
				libc?: string[];
				link?: boolean;
				extraneous?: boolean;
				integrity?: string;
			}
		>;
	},
	platform?: { os: string; cpu: string; libc: string },
): Array<{ path: string; integrity?: string }>;

/** A duration as a person reads it: `40 s`, `2 min 10 s`. */
export function duration(ms: number): string;

/** A time left, rounded as far as an estimate deserves. */
export function estimate(ms: number): string;
