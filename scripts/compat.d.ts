/** The n8n versions `npm run test:compat` runs for its arguments (`--others`: all but the pinned one). */
export function versionsToRun(args: string[]): string[];
