import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { launchChromium } from '../../scripts/chromium';
import { N8nInstance, OWNER, TESTING_PINNED_N8N } from './n8n';
import { credentials, WEBHOOK_SECRET } from './workflows';

/**
 * A new user's event path in a real browser (Debian's chromium through playwright-core), in the pinned
 * n8n with the package and its credentials, and the sandbox with its console: create a workflow with the
 * trigger for "Work Order Created", listen for a test event, register the Test URL in the console as n8n
 * shows it, report a work order there, see it in the trigger's output, then get its location with the
 * action node, twice. UPDATE_DOCS=1 writes the screenshots and the walk's time into docs/.
 */
jest.setTimeout(600_000);

const DOCS = join(__dirname, '..', '..', 'docs');
/** Where a failed walk leaves its pages, and the screenshots go unless UPDATE_DOCS=1. */
const SCRATCH = join(tmpdir(), 'mm-walk');
const SHOTS = process.env.UPDATE_DOCS === '1' ? DOCS : SCRATCH;
const describeWalk = TESTING_PINNED_N8N ? describe : describe.skip;

describeWalk('the event path, walked in a real browser', () => {
	const n8n = new N8nInstance('walk');
	let sandbox: RunningSandbox;
	let browser: Browser;
	let editor: Page;

	beforeAll(async () => {
		mkdirSync(SHOTS, { recursive: true });
		mkdirSync(SCRATCH, { recursive: true });
		sandbox = await startSandbox({ port: 0, quiet: true, webhookSecret: WEBHOOK_SECRET });
		const { baseUrl, token } = sandbox.environments.sandbox;
		await n8n.setup();
		const file = join(n8n.userFolder, 'credentials.json');
		writeFileSync(file, JSON.stringify(credentials(baseUrl, token)));
		await n8n.cli(['import:credentials', `--input=${file}`]);
		await n8n.start();
		browser = await launchChromium();
		const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
		editor = await context.newPage();
	});

	afterAll(async () => {
		await browser?.close();
		await n8n.stop();
		await sandbox?.close();
	});

	const shoot = async (page: Page, name: string) =>
		await page.screenshot({ path: join(SHOTS, `walk-${name}.png`) });
	const executeStep = async () =>
		await editor
			.getByRole('button', { name: 'Execute step' })
			.filter({ hasText: 'Execute step' })
			.first()
			.click();
	/** Finds the package's node in the open node creator, by its name. */
	const pickPackageNode = async () => {
		await editor
			.locator('[data-test-id="node-creator"] input')
			.first()
			.fill('Maintenance Management');
		await editor
			.locator('[data-test-id="node-creator-item-name"]', { hasText: 'Maintenance Management' })
			.first()
			.click();
	};
	const output = () => editor.locator('[data-test-id="output-panel"]');

	afterEach(async () => {
		// The pages as they were when a step failed, for a look.
		for (const [index, page] of (editor?.context().pages() ?? []).entries())
			await page.screenshot({ path: join(SCRATCH, `failed-${index}.png`) }).catch(() => undefined);
	});

	it('from a new workflow to a fired trigger and the location of its work order', async () => {
		const started = Date.now();
		await editor.goto(n8n.url('/signin'));
		await editor.fill('input[type=email], input[name=emailOrLdapLoginId]', OWNER.email);
		await editor.fill('input[type=password]', OWNER.password);
		await editor.keyboard.press('Enter');
		await editor.waitForURL((url) => !url.pathname.includes('signin'));

		// A new workflow, and the trigger for "Work Order Created" from the node creator.
		await editor.goto(n8n.url('/workflow/new'));
		await editor.click('[data-test-id="canvas-plus-button"]');
		await pickPackageNode();
		await editor.getByText('On work order created', { exact: true }).click();
		await expect(
			editor.locator('[data-test-id="parameter-input-events"]').innerText(),
		).resolves.toContain('Work Order Created');

		// The Test URL as n8n shows it, then listen for a test event.
		await editor.getByText('Webhook URLs').first().click();
		const testUrl = (await editor.locator('.webhook-url').first().innerText()).trim();
		expect(testUrl).toMatch(new RegExp(`^${n8n.url('/webhook-test/')}[0-9a-f-]+/webhook$`));
		await executeStep();
		await editor.getByText('Listening for test event').first().waitFor();
		await shoot(editor, '1-listening');

		// The console: register the pasted URL (the dev secret is added), report a work order.
		const consolePage = await editor.context().newPage();
		await consolePage.goto(sandbox.url);
		expect(consolePage.url()).toBe(sandbox.consoleUrl);
		await consolePage.fill('#hook-url', testUrl);
		await consolePage.click('#hook-register');
		await consolePage.locator('#message', { hasText: 'Registered' }).waitFor();
		await consolePage.fill('#report-description', 'Leaking pipe in the boiler room');
		await consolePage.fill('#report-location', '3');
		await consolePage.click('#report');
		await consolePage.locator('#message', { hasText: 'reported' }).waitFor();
		expect(await consolePage.locator('#message').innerText()).toMatch(
			/^Work order (\d+) reported \(FAILURE_CREATED\)\. 1 delivery \(200\)$/,
		);
		const workOrderId = /Work order (\d+)/.exec(
			await consolePage.locator('#message').innerText(),
		)![1];
		await consolePage.locator('#deliveries tr', { hasText: 'FAILURE_CREATED' }).waitFor();
		await shoot(consolePage, '2-console');
		const { webhooks } = (await (await fetch(`${sandbox.controlUrl}/webhooks`)).json()) as {
			webhooks: Array<{ url: string }>;
		};
		expect(webhooks.map((hook) => hook.url)).toEqual([`${testUrl}?token=${WEBHOOK_SECRET}`]);

		// The trigger's output: the event with its work order.
		await editor.bringToFront();
		await output().getByText('FAILURE_CREATED').first().waitFor();
		await output().getByText('Leaking pipe in the boiler room').first().waitFor();
		await shoot(editor, '3-event');
		await editor.click('[data-test-id="ndv-close-button"]');

		// The action node after it: Location → Get, by the event's local_id.
		await editor.locator('[data-test-id="canvas-handle-plus"]').first().click();
		await pickPackageNode();
		await editor.getByText('Get a location', { exact: true }).click();
		await editor.click('[data-test-id="rlc-mode-selector"]');
		await editor.getByText('By ID', { exact: true }).click();
		await editor
			.locator('[data-test-id="parameter-item"]', {
				has: editor.locator('[data-test-id="parameter-input-id"]'),
			})
			.hover();
		await editor
			.locator(
				'[data-test-id="id-parameter-input-options-container"] [data-test-id="radio-button-expression"]',
			)
			.click();
		await editor
			.locator('[data-test-id="parameter-input-id"] .cm-content')
			.fill('{{ $json.payload.data.attributes.local_id }}');
		// The input shows the event's work order, and the expression resolves to its location.
		await editor.getByText(`WO-${workOrderId}`).first().waitFor();

		// Run the step twice: a partial run works again on a workflow built in the editor.
		for (const run of [1, 2]) {
			const before = await finishedManualRuns();
			// A click the editor takes while it still applies the expression starts nothing: click again,
			// as a user would, at most three times.
			for (let attempt = 1; ; attempt++) {
				await executeStep();
				try {
					await n8n.waitFor(
						async () => (await finishedManualRuns()) > before,
						`execute step, run ${run}`,
						attempt < 3 ? 20_000 : 60_000,
					);
					break;
				} catch (error) {
					if (attempt === 3) throw error;
				}
			}
			await output().getByText('Building 1-Floor 2-Room 3').first().waitFor();
			expect(await editor.getByText('Cannot read properties of null').count()).toBe(0);
		}
		await shoot(editor, '4-location');
		const seconds = Math.round((Date.now() - started) / 100) / 10;
		process.stdout.write(`[walk] the event path took ${seconds} s in the browser\n`);
		if (SHOTS === DOCS)
			writeFileSync(join(DOCS, 'walk.json'), `${JSON.stringify({ seconds }, null, '\t')}\n`);
	});

	/** How many manual runs n8n has finished successfully, from its REST API. */
	async function finishedManualRuns(): Promise<number> {
		const answer = (await n8n.getAsOwner('/rest/executions')) as {
			data: { results: Array<{ mode: string; status: string }> };
		};
		return answer.data.results.filter((run) => run.mode === 'manual' && run.status === 'success')
			.length;
	}
});
