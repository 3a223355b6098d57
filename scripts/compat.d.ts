/** The n8n versions `npm run test:compat` runs for its arguments (`--others`: all but the pinned one). */
export function versionsToRun(args: string[]): string[];
/** The jest arguments of one version's end-to-end run (none for the pinned n8n). */
export function jestArgsFor(version: string): string[];
/** The end-to-end files that run in the pinned n8n only, as they never run the n8n under test. */
export const PINNED_ONLY: string[];
