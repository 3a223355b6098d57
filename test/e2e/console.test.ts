import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Browser, Page } from 'playwright-core';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { launchChromium } from '../../scripts/chromium';
import { consoleOutcome } from './consoleMessage';

/**
 * The sandbox console in a real browser, delivering to a receiver that answers as n8n does: its Test URL
 * takes one event per Listen and answers 404 after it; each delivery is explained, a spent Test URL is
 * marked stale, and a slow delivery shows progress. No n8n is needed.
 */
jest.setTimeout(120_000);

const SPENT =
	"n8n's Test URL takes one event per Listen: click Listen for test event again, or register the Production URL";

describe('the sandbox console explains its deliveries', () => {
	let sandbox: RunningSandbox;
	let receiver: Server;
	let browser: Browser;
	let page: Page;
	let testUrl: string;
	/** Whether the receiver listens for a test event: it takes one, then answers 404 as n8n does. */
	let listening = true;
	/** How long the receiver takes to answer, to see the console's progress. */
	let delayMs = 0;

	beforeAll(async () => {
		sandbox = await startSandbox({
			port: 0,
			quiet: true,
			webhookSecret: 'console-secret-0123456789',
		});
		receiver = createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				setTimeout(() => {
					const taken = listening;
					listening = false;
					res.writeHead(taken ? 200 : 404, { 'Content-Type': 'application/json' });
					res.end(JSON.stringify(taken ? { received: true } : { message: 'not registered' }));
				}, delayMs);
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		const { port } = receiver.address() as AddressInfo;
		testUrl = `http://127.0.0.1:${port}/webhook-test/3f1c2b7e-1111-4222-8333-444455556666/webhook`;
		browser = await launchChromium();
		page = await browser.newPage();
		await page.goto(sandbox.consoleUrl);
	});

	afterAll(async () => {
		await browser?.close();
		await new Promise((resolve) => receiver?.close(resolve));
		await sandbox?.close();
	});

	it('names each delivery and its status; a spent Test URL gets its reason and is marked stale', async () => {
		await page.fill('#hook-url', testUrl);
		const [registered] = await consoleOutcome(page, () => page.click('#hook-register'));
		expect(registered).toBe(`Registered POST ${testUrl} for all events`);
		await page.locator('#hooks tr', { hasText: 'none yet' }).waitFor();

		// Reported while n8n listens: taken.
		await page.fill('#report-description', 'Broken window');
		const reported = await consoleOutcome(page, () => page.click('#report'));
		const id = /Work order (\d+)/.exec(reported[0])![1];
		expect(reported).toEqual([
			`Work order ${id} reported (FAILURE_CREATED). 1 delivery (200)`,
			`FAILURE_CREATED → 200 from POST ${testUrl}`,
		]);
		expect(await page.locator('#hooks tr').first().getAttribute('data-stale')).toBeNull();

		// Approved without listening again: both events are refused, each explained.
		expect(await consoleOutcome(page, () => page.click(`[data-test="approve-${id}"]`))).toEqual([
			`Work order ${id}: approve: FAILURE_APPROVED, FAILURE_STATE_CHANGED. 2 deliveries (404, 404)`,
			`FAILURE_APPROVED → 404 from POST ${testUrl}: ${SPENT}`,
			`FAILURE_STATE_CHANGED → 404 from POST ${testUrl}: ${SPENT}`,
		]);
		await page.locator('#hooks tr[data-stale="true"]', { hasText: 'Stale:' }).waitFor();
		await page.locator('#deliveries tr', { hasText: SPENT }).first().waitFor();

		// Listening again makes it fresh once a delivery is taken.
		listening = true;
		await page.selectOption('#fire-event', 'FAILURE_UPDATED');
		const [fired] = await consoleOutcome(page, () => page.click('#fire'));
		expect(fired).toMatch(/^FAILURE_UPDATED fired\. 1 delivery \(200\)$/);
		await page.locator('#hooks tr', { hasText: '200' }).waitFor();
		expect(await page.locator('#hooks tr').first().getAttribute('data-stale')).toBeNull();
	});

	it('shows that a slow delivery is under way, then its result', async () => {
		listening = true;
		delayMs = 2500;
		await page.fill('#report-description', 'Flickering light');
		await page.click('#report');
		await page.locator('#message.busy', { hasText: 'delivering the events…' }).waitFor();
		await page.locator('#message.ok', { hasText: 'reported' }).waitFor();
		delayMs = 0;
	});

	it('clears the last result the moment a new action starts, so it is never read as the new one', async () => {
		listening = true;
		await page.fill('#report-description', 'Dripping tap');
		const [first] = await consoleOutcome(page, () => page.click('#report'));
		expect(first).toMatch(/^Work order \d+ reported \(FAILURE_CREATED\)\. 1 delivery \(200\)$/);
		const [second] = await consoleOutcome(page, async () => {
			// Clicked from inside the page, the click's handler has run when the message is read, so
			// what it shows does not depend on timing.
			const shown = await page.evaluate(
				"document.getElementById('report').click(), [document.getElementById('message').className, document.getElementById('message').textContent]",
			);
			expect(shown).toEqual(['busy', 'Reporting a work order: delivering the events… 0 s']);
		});
		expect(second).toMatch(/^Work order \d+ reported \(FAILURE_CREATED\)\. 1 delivery \(404\)$/);
	});

	it('keeps a secret already in the pasted URL when the secret field is blank, and shows the URL without it', async () => {
		const pasted = `${testUrl.replace('/webhook-test/', '/webhook/')}?token=pasted-secret-0123456789`;
		await page.fill('#hook-secret', '');
		await page.fill('#hook-url', pasted);
		const [registered] = await consoleOutcome(page, () => page.click('#hook-register'));
		expect(registered).toBe(`Registered POST ${pasted.split('?')[0]} for all events`);
		const { webhooks } = (await (await fetch(`${sandbox.controlUrl}/webhooks`)).json()) as {
			webhooks: Array<{ url: string }>;
		};
		expect(webhooks.map(({ url }) => url)).toContain(pasted);
		// The tables show the URL with its query values masked: the secret is never on screen.
		listening = true;
		await page.selectOption('#fire-event', 'FAILURE_UPDATED');
		await consoleOutcome(page, () => page.click('#fire'));
		const maskedUrl = `${pasted.split('?')[0]}?token=***`;
		await page.locator('#hooks tr', { hasText: maskedUrl }).waitFor();
		await page.locator('#deliveries tr', { hasText: maskedUrl }).first().waitFor();
		for (const table of ['#hooks', '#deliveries'])
			expect(await page.locator(table).textContent()).not.toContain('pasted-secret-0123456789');
		// The field's secret, when given, is the one registered.
		await page.fill('#hook-secret', 'typed-secret-0123456789');
		await page.fill('#hook-url', pasted.replace('/webhook/', '/webhook-typed/'));
		await consoleOutcome(page, () => page.click('#hook-register'));
		const after = (await (await fetch(`${sandbox.controlUrl}/webhooks`)).json()) as {
			webhooks: Array<{ url: string }>;
		};
		expect(after.webhooks.map(({ url }) => url)).toContain(
			`${testUrl.replace('/webhook-test/', '/webhook-typed/')}?token=typed-secret-0123456789`,
		);
	});
});
