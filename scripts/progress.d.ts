/** A process as /proc shows it: its id, its parent's, its start in clock ticks, its arguments. */
export type Proc = { pid: number; ppid: number; start: number; argv: string[] };

/** A step's progress reporter: each call of the function it returns gives the next report line. */
export function reporter(options: {
	step: string;
	dir: string;
	packages?: string[];
	now?: () => number;
	exists?: (path: string) => boolean;
	processes?: () => Proc[];
	openFiles?: (pid: number) => string[];
	parent?: number;
	self?: number;
}): () => string;

/** The folders (`node_modules/…`) of the packages a lockfile installs on the platform. */
export function lockedPackages(
	lock: {
		packages: Record<
			string,
			{ os?: string[]; cpu?: string[]; libc?: string[]; link?: boolean; extraneous?: boolean }
		>;
	},
	platform?: { os: string; cpu: string; libc: string },
): string[];

/** A duration as a person reads it: `40 s`, `2 min 10 s`. */
export function duration(ms: number): string;

/** A time left, rounded as far as an estimate deserves. */
export function estimate(ms: number): string;
