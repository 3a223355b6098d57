import type { Browser } from 'playwright-core';

/** Launches Debian's chromium headless, installing it with apt-get first when it is missing. */
export function launchChromium(): Promise<Browser>;
