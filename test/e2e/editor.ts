import type { Browser, Page } from 'playwright-core';

import { launchChromium } from '../../scripts/chromium';
import { OWNER, type N8nInstance } from './n8n';

/** Chromium with one page at the size the docs' screenshots are taken at. */
export async function openEditor(): Promise<{ browser: Browser; editor: Page }> {
	const browser = await launchChromium();
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
	// A loaded machine (two cores shared with other jobs) takes its time to serve the editor.
	context.setDefaultTimeout(90_000);
	return { browser, editor: await context.newPage() };
}

/** Signs in to the n8n editor as the owner. */
export async function signInAsOwner(editor: Page, n8n: N8nInstance): Promise<void> {
	await editor.goto(n8n.url('/signin'));
	await editor.fill('input[type=email], input[name=emailOrLdapLoginId]', OWNER.email);
	await editor.fill('input[type=password]', OWNER.password);
	await editor.keyboard.press('Enter');
	await editor.waitForURL((url) => !url.pathname.includes('signin'));
}
