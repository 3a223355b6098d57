/**
 * `npm run screenshots`: starts `npm run dev` (the pinned n8n, the sandbox and the example workflows)
 * in a temporary folder, drives its editor in headless Chromium (Debian's `chromium` package, through
 * playwright-core) and writes the images of the README and docs/walkthroughs.md to docs/. Installs
 * chromium with apt-get when it is missing and the script runs as root.
 */
const { spawn } = require('node:child_process');
const { mkdirSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const readline = require('node:readline');

const { launchChromium } = require('./chromium');
const { freePort } = require('./ports');

const ROOT = join(__dirname, '..');
const DOCS = join(ROOT, 'docs');
const LOGIN = { email: 'dev@example.com', password: 'Dev-password-1' };

const log = (message) => process.stdout.write(`[screenshots] ${message}\n`);

/** Starts `npm run dev` in its own folder and ports; resolves with the editor URL once it is ready. */
async function startDev(folder) {
	const child = spawn(process.execPath, [join(ROOT, 'scripts', 'dev.js')], {
		cwd: ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'inherit'],
		env: {
			...process.env,
			DEV_USER_FOLDER: folder,
			N8N_PORT: String(await freePort()),
			SANDBOX_PORT: String(await freePort()),
		},
	});
	const editor = await new Promise((resolve, reject) => {
		const lines = readline.createInterface({ input: child.stdout });
		lines.on('line', (line) => {
			const match = /^\[dev\] editor:\s+(\S+)/.exec(line);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`npm run dev stopped (exit code ${code})`)));
	});
	return { child, editor };
}

/** Stops dev and everything it started (its process group). */
async function stopDev(child) {
	if (child.exitCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	process.kill(-child.pid, 'SIGTERM');
	await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
	if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
}

/** Signs in and waits for n8n's home page. */
async function signIn(page, editor) {
	// n8n answers webhooks a little before its editor is served: ask again until the form shows.
	for (let attempt = 1; ; attempt++) {
		await page.goto(`${editor}/signin`);
		const form = await page
			.waitForSelector('input[type=password]', { timeout: 10_000 })
			.catch(() => null);
		if (form) break;
		if (attempt === 30) throw new Error("n8n's sign-in page did not show within 5 minutes");
	}
	await page.fill(
		'input[type=email], input[name=emailOrLdapLoginId], input[name=email]',
		LOGIN.email,
	);
	await page.fill('input[type=password]', LOGIN.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });
}

async function openWorkflow(page, editor, id) {
	await page.goto(`${editor}/workflow/${id}`);
	await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 60_000 });
	await page.waitForTimeout(1500);
}

async function openNode(page, name) {
	await page.locator('[data-test-id="canvas-node"]', { hasText: name }).first().dblclick();
	await page.waitForSelector('[data-test-id="ndv"]', { timeout: 30_000 }).catch(() => undefined);
	await page.waitForTimeout(1500);
}

async function shoot(page, name) {
	await page.screenshot({ path: join(DOCS, `${name}.png`) });
	log(`docs/${name}.png`);
}

/** The images of docs/walkthroughs.md, each showing one thing a new user meets first. */
async function takeScreenshots(page, editor) {
	await signIn(page, editor);

	// 1. The node creator finds the nodes by the words users search for: an approval flow's.
	await openWorkflow(page, editor, 'devOpenWorkOrders');
	await page.click('[data-test-id="node-creator-plus-button"]');
	await page.waitForTimeout(1000);
	await page.keyboard.type('approval');
	const found = page
		.locator('[data-test-id="node-creator-item-name"]', { hasText: 'Maintenance Management' })
		.first();
	await found.waitFor({ timeout: 30_000 });
	await found.scrollIntoViewIfNeeded();
	await page.waitForTimeout(1000);
	await shoot(page, 'node-creator-approval');

	// 1b. The approval example: the canvas subtitle names the action as the editor does.
	await openWorkflow(page, editor, 'devApprovalFlow');
	await page.getByText('Get Many Open: Work Order').first().waitFor({ timeout: 30_000 });
	await shoot(page, 'approval-canvas');

	// 1c. Its trigger's Events, searched for "approval".
	await openNode(page, 'Approval Events');
	await page.locator('[data-test-id="parameter-input-events"]').click();
	await page.keyboard.type('approval');
	await page.waitForTimeout(1000);
	await shoot(page, 'events-approval');
	await page.keyboard.press('Escape');
	await page.keyboard.press('Escape');

	// 2. An action's panel: required fields marked and empty, in users' words.
	await openWorkflow(page, editor, 'devCreatePlannedJob');
	await openNode(page, 'Create Planned Job');
	await shoot(page, 'action-panel');

	// 3. Invalid input: one problem a line in the error panel, nothing sent. (A required field left
	// empty is caught by n8n itself, before the run.)
	await page.locator('[data-test-id="parameter-input-work_type_id"] input').fill('abc');
	await page.locator('[data-test-id="parameter-input-client_id"] input').fill('0');
	// The panel's own button (the canvas has an icon-only one of the same name behind it).
	await page
		.getByRole('button', { name: 'Execute step' })
		.filter({ hasText: 'Execute step' })
		.first()
		.click();
	await page.waitForSelector('text=/Invalid input in item 0/', { timeout: 60_000 });
	await page.waitForTimeout(1000);
	await shoot(page, 'validation-error');

	// 4. The trigger's panel, with its webhook URL open.
	await openWorkflow(page, editor, 'devWebhookEvents');
	await openNode(page, 'Work Order Events');
	await page.getByText('Webhook URLs').first().click();
	await page.getByText('Production URL', { exact: true }).click();
	await page.waitForTimeout(1000);
	await shoot(page, 'trigger-panel');

	// 5. An output table: id and type first.
	await openWorkflow(page, editor, 'devOpenWorkOrders');
	await page.click('[data-test-id="execute-workflow-button"]');
	await page.waitForTimeout(4000);
	await openNode(page, 'Open Work Orders');
	await shoot(page, 'output-table');

	// 6. The ERP example after a run: its two bad rows on the Error branch, then in Failed Rows with
	// their reason and outcome.
	await openWorkflow(page, editor, 'devErpMaterials');
	await page.click('[data-test-id="execute-workflow-button"]');
	await page.getByText('2 items').first().waitFor({ timeout: 120_000 });
	await page.waitForTimeout(1500);
	await shoot(page, 'erp-canvas');
	await openNode(page, 'Failed Rows');
	await page.getByText('refusedByApi').first().waitFor({ timeout: 30_000 });
	await shoot(page, 'erp-failed-rows');
}

async function main() {
	mkdirSync(DOCS, { recursive: true });
	const folder = mkdtempSync(join(tmpdir(), 'mm-screenshots-'));
	log('starting n8n, the sandbox and the example workflows (npm run dev)…');
	const { child, editor } = await startDev(folder);
	let keep = false;
	const browser = await launchChromium();
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		await takeScreenshots(page, editor).catch(async (error) => {
			// The page as it was, and n8n's folder, stay for a look.
			keep = true;
			const where = join(folder, 'failure.png');
			await page.screenshot({ path: where }).catch(() => undefined);
			throw Object.assign(error, { message: `${error.message} (the page: ${where})` });
		});
	} finally {
		await browser.close();
		await stopDev(child);
		if (!keep) rmSync(folder, { recursive: true, force: true });
	}
	log(`done: images in ${DOCS}`);
}

main().catch((error) => {
	process.stderr.write(`[screenshots] ${error.stack ?? error}\n`);
	process.exit(1);
});
