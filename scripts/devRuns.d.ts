/** A process as a run record names it. */
export interface NamedProcess {
	pid: number;
	/** Its start time, in clock ticks since boot. */
	start: string;
	command: string;
	/** Started in a process group of its own, stopped with that group. */
	group?: boolean;
}

/** A run that holds its record. */
export interface Run {
	holder?: undefined;
	/** What a run that is gone had left running, stopped. */
	stopped: NamedProcess[];
	/** What the run started, as recorded. */
	processes: NamedProcess[];
	/** Records a process the run started (`group`: in a process group of its own). */
	add(pid: number, group: boolean): void;
	/** Removes the record, when the run has stopped what it started. */
	release(): void;
}

/**
 * Claims a run record for the run whose owner is `owner`; `holder` when a live run holds it (with
 * `whileRunning`, only while one of its recorded processes runs too).
 */
export function claim(
	file: string,
	owner: number,
	options?: { whileRunning?: boolean },
): Promise<Run | { holder: NamedProcess }>;
/** A process for a message: its pid and the start of its command line. */
export function describe(named: NamedProcess): string;
/**
 * Stops what of `processes` still runs: SIGTERM, then SIGKILL after 10 seconds; resolves with what it
 * stopped once all of it is gone.
 */
export function stop(processes: NamedProcess[]): Promise<NamedProcess[]>;
/** A live process, with its start time and command line; undefined when gone. */
export function identity(pid: number): NamedProcess | undefined;
/** A live process's parent, process group and start time; undefined when gone. */
export function stat(pid: number): { ppid: number; pgid: number; start: string } | undefined;
