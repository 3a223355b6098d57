import type { Page } from 'playwright-core';

/**
 * Does one thing in the sandbox console and returns the message that ends it, line by line. The console
 * counts each finished message in `data-said`, so neither the last action's result nor the busy line
 * shown while events are delivered is taken for this action's outcome.
 */
export async function consoleOutcome(
	page: Page,
	act: () => Promise<unknown>,
	timeoutMs = 60_000,
): Promise<string[]> {
	const said = await page.locator('#message').getAttribute('data-said');
	await act();
	const next = said === null ? '[data-said]' : `:not([data-said="${said}"])`;
	const message = page.locator(`#message${next}:not(.busy)`);
	await message.waitFor({ timeout: timeoutMs });
	return (await message.innerText()).split('\n');
}
