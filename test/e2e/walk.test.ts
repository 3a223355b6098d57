import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { APPROVAL_WEBHOOK_ID, exampleWorkflows } from '../../scripts/examples';
import { consoleOutcome } from './consoleMessage';
import { openEditor, signInAsOwner } from './editor';
import { N8nInstance, TESTING_PINNED_N8N, type ExecutionResult } from './n8n';
import {
	ACTION_NODE,
	API_CREDENTIAL,
	credentials,
	START,
	storedAs,
	WEBHOOK_CREDENTIAL,
	WEBHOOK_SECRET,
} from './workflows';

/**
 * A new user's event path in a real browser (Debian's chromium through playwright-core), in the pinned
 * n8n with the package and its credentials, and the sandbox with its console: create a workflow with the
 * trigger for "Work Order Created", listen for a test event, register the Test URL in the console as n8n
 * shows it, report a work order there, see it in the trigger's output, then get its location with the
 * action node, twice. Then the approval example of npm run dev: Created, Approved and Declined from
 * the console, each routed by its If node, and the console's reason for a spent Test URL.
 * UPDATE_DOCS=1 writes the screenshots and the walk's time into docs/.
 */
jest.setTimeout(600_000);

const DOCS = join(__dirname, '..', '..', 'docs');
/** Where a failed walk leaves its pages, and the screenshots go unless UPDATE_DOCS=1. */
const SCRATCH = join(tmpdir(), 'mm-walk');
const SHOTS = process.env.UPDATE_DOCS === '1' ? DOCS : SCRATCH;
const describeWalk = TESTING_PINNED_N8N ? describe : describe.skip;
const APPROVAL_FLOW = exampleWorkflows().find((workflow) => workflow.id === 'devApprovalFlow')!;
const PREVIEW_WORKFLOW = 'mmWalkPreview001';

/** Start → Material → Create (never run) → Edit Fields, with nothing set yet. */
const previewWorkflow = () => ({
	...storedAs(PREVIEW_WORKFLOW),
	name: 'Preview of a material',
	nodes: [
		START,
		{
			id: 'create-material',
			name: 'Create Material',
			type: ACTION_NODE,
			typeVersion: 2,
			position: [220, 0],
			parameters: { resource: 'material', operation: 'create' },
			credentials: { maintenanceManagementApi: API_CREDENTIAL },
		},
		{
			id: 'edit-fields',
			name: 'Edit Fields',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [440, 0],
			parameters: {},
		},
	],
	connections: {
		Start: { main: [[{ node: 'Create Material', type: 'main', index: 0 }]] },
		'Create Material': { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] },
	},
});
const SPENT =
	"n8n's Test URL takes one event per Listen: click Listen for test event again, or register the Production URL";

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
		// The approval example as npm run dev imports it, with this suite's credentials.
		const approval = join(n8n.userFolder, 'approval.json');
		writeFileSync(
			approval,
			JSON.stringify(APPROVAL_FLOW)
				.replace(/"devHookCredential"/g, JSON.stringify(WEBHOOK_CREDENTIAL.id))
				.replace(/"devApiCredential1"/g, JSON.stringify(API_CREDENTIAL.id)),
		);
		await n8n.cli(['import:workflow', `--input=${approval}`]);
		const preview = join(n8n.userFolder, 'preview.json');
		writeFileSync(preview, JSON.stringify(previewWorkflow()));
		await n8n.cli(['import:workflow', `--input=${preview}`]);
		await n8n.start();
		({ browser, editor } = await openEditor());
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
		await signIn();

		// A new workflow, and the trigger for "Work Order Created" from the node creator.
		await editor.goto(n8n.url('/workflow/new'));
		await editor.click('[data-test-id="canvas-plus-button"]');
		await pickPackageNode();
		await editor
			.getByText('On work order created or waiting for approval', { exact: true })
			.click();
		await expect(
			editor.locator('[data-test-id="parameter-input-events"]').innerText(),
		).resolves.toContain('Work Order Created or Waiting for Approval');

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
		const [registered] = await consoleOutcome(consolePage, () =>
			consolePage.click('#hook-register'),
		);
		expect(registered).toMatch(/^Registered POST /);
		await consolePage.fill('#report-description', 'Leaking pipe in the boiler room');
		await consolePage.fill('#report-location', '3');
		const [reported] = await consoleOutcome(consolePage, () => consolePage.click('#report'));
		expect(reported).toMatch(
			/^Work order (\d+) reported \(FAILURE_CREATED\)\. 1 delivery \(200\)$/,
		);
		const workOrderId = /Work order (\d+)/.exec(reported)![1];
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

	it('the approval flow: Created, Approved and Declined from the console, each routed by its If node', async () => {
		const testUrl = `${n8n.url('/webhook-test/')}${APPROVAL_WEBHOOK_ID}/webhook`;
		// Only this flow's URL is registered: the first walk's Test URL is removed.
		const { webhooks } = (await (await fetch(`${sandbox.controlUrl}/webhooks`)).json()) as {
			webhooks: Array<{ id: string }>;
		};
		for (const hook of webhooks)
			await fetch(`${sandbox.controlUrl}/webhooks/${hook.id}`, {
				method: 'DELETE',
				headers: { 'Content-Type': 'application/json' },
			});
		await editor.bringToFront();
		await signIn();
		await editor.goto(n8n.url(`/workflow/${APPROVAL_FLOW.id}`));
		// The canvas names the action as the editor does.
		await editor.getByText('Get Many Open: Work Order').first().waitFor();
		await shoot(editor, '5-approval-canvas');

		const consolePage = await editor.context().newPage();
		await consolePage.goto(sandbox.consoleUrl);
		await consolePage.fill('#hook-url', testUrl);
		await consolePage.selectOption('#hook-events', [
			'FAILURE_CREATED',
			'FAILURE_APPROVED',
			'FAILURE_NOT_APPROVED',
		]);
		const [registered] = await consoleOutcome(consolePage, () =>
			consolePage.click('#hook-register'),
		);
		expect(registered).toMatch(/^Registered POST /);

		/**
		 * Listens for a test event ("Execute workflow"), acts in the console, and returns the run with
		 * the console's message about the act.
		 */
		const listenThen = async (act: () => Promise<void>) => {
			const before = (await n8n.newestExecution(APPROVAL_FLOW.id))?.id;
			await editor.bringToFront();
			await editor.click('[data-test-id="execute-workflow-button"]');
			await n8n.waitFor(() => testUrlListens(testUrl), 'the Test URL to listen', 60_000);
			await consolePage.bringToFront();
			const said = await consoleOutcome(consolePage, act);
			let run: (ExecutionResult & { id: number }) | null = null;
			await n8n.waitFor(
				async () => {
					run = await n8n.newestExecution(APPROVAL_FLOW.id);
					return run !== null && run.id !== before && run.status === 'success';
				},
				'the approval flow to run',
				60_000,
			);
			return { run: run!, said };
		};
		/** The event of a run and the If node's branch it took. */
		const routed = (run: ExecutionResult) => {
			const [approved, other] = run.data.resultData.runData['Approved?'][0].data!.main;
			return {
				event: run.data.resultData.runData['Approval Events'][0].data!.main[0]![0].json.event,
				branch: approved?.length ? 'true' : other?.length ? 'false' : 'none',
			};
		};

		// 1. Work order A reported while n8n listens: Work Order Created, not approved (yet).
		const created = await listenThen(async () => {
			await consolePage.fill('#report-description', 'Door closer broken');
			await consolePage.click('#report');
		});
		expect(created.said[0]).toMatch(
			/^Work order \d+ reported \(FAILURE_CREATED\)\. 1 delivery \(200\)$/,
		);
		const a = /Work order (\d+)/.exec(created.said[0])![1];
		expect(routed(created.run)).toEqual({ event: 'FAILURE_CREATED', branch: 'false' });

		// 2. Work order B reported while n8n no longer listens: the console says why it got 404. n8n
		// releases the Test URL a moment after the run; a browser's preflight (OPTIONS, which runs
		// nothing) says when it no longer takes POST there.
		await n8n.waitFor(
			async () =>
				!/\bPOST\b/.test(
					(
						await fetch(testUrl, { method: 'OPTIONS', headers: { Origin: n8n.url('') } })
					).headers.get('access-control-allow-methods') ?? '',
				),
			'n8n to release the Test URL after its one event',
		);
		await consolePage.fill('#report-description', 'Lift stuck on floor 2');
		const spent = await consoleOutcome(consolePage, () => consolePage.click('#report'));
		const b = /Work order (\d+)/.exec(spent[0])![1];
		expect(spent).toEqual([
			`Work order ${b} reported (FAILURE_CREATED). 1 delivery (404)`,
			`FAILURE_CREATED → 404 from POST ${testUrl}: ${SPENT}`,
		]);
		await consolePage.locator('#hooks tr[data-stale="true"]', { hasText: 'Stale:' }).waitFor();
		await consolePage.locator('#deliveries tr', { hasText: SPENT }).first().waitFor();
		await shoot(consolePage, '6-console-stale');

		// 3. Listening again: A approved takes the If node's true branch, to its location's open work orders.
		const approved = await listenThen(() => consolePage.click(`[data-test="approve-${a}"]`));
		expect(routed(approved.run)).toEqual({ event: 'FAILURE_APPROVED', branch: 'true' });
		expect(approved.run.data.resultData.runData['Open Work Orders Of Its Location']).toHaveLength(
			1,
		);
		expect(approved.said[0]).toBe(
			`Work order ${a}: approve: FAILURE_APPROVED, FAILURE_STATE_CHANGED. 1 delivery (200)`,
		);
		await consolePage.locator('#hooks tr[data-stale="true"]').waitFor({ state: 'detached' });

		// 4. And B declined: the false branch.
		const declined = await listenThen(() => consolePage.click(`[data-test="decline-${b}"]`));
		expect(routed(declined.run)).toEqual({ event: 'FAILURE_NOT_APPROVED', branch: 'false' });
		await consolePage.close();
	});

	it("the preview: a never-run action node's fields in the next node's input, dragged into a parameter", async () => {
		await editor.bringToFront();
		await signIn();
		await editor.goto(n8n.url(`/workflow/${PREVIEW_WORKFLOW}`));
		// The node after Material → Create, which has never run: its input is the schema n8n serves.
		await editor.locator('[data-test-id="canvas-node"]', { hasText: 'Edit Fields' }).dblclick();
		const input = editor.locator('[data-test-id="ndv-input-panel"]');
		const field = (name: string) =>
			input.locator('[data-test-id="run-data-schema-item"]', { hasText: name }).first();
		await input.getByText('Preview', { exact: true }).first().waitFor();
		for (const name of ['id', 'code', 'name', 'material_type_id']) await field(name).waitFor();
		expect(await executionsOf(PREVIEW_WORKFLOW)).toBe(0);
		// Drag code into the Edit Fields assignments: it becomes a field set from the preview's path.
		await field('code')
			.locator('[data-test-id="run-data-schema-node-name"], .pill, span')
			.first()
			.dragTo(editor.locator('[data-test-id="assignment-collection-drop-area"]'));
		const assignment = editor.locator('[data-test-id="assignment"]').first();
		await expect(assignment.locator('input').first().inputValue()).resolves.toBe('code');
		await assignment.getByText('{{ $json.code }}').first().waitFor();
		await editor.screenshot({ path: join(SHOTS, 'schema-preview.png') });
	});

	/** How many executions n8n has stored for a workflow, from its REST API. */
	async function executionsOf(workflowId: string): Promise<number> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const answer = (await n8n.getAsOwner(`/rest/executions?filter=${filter}`)) as {
			data: { results: unknown[] };
		};
		return answer.data.results.length;
	}

	/** Signs in as the owner, unless the editor already is (n8n's auth cookie is set). */
	async function signIn(): Promise<void> {
		if ((await editor.context().cookies()).some((cookie) => cookie.name === 'n8n-auth')) return;
		await signInAsOwner(editor, n8n);
	}

	/** Whether n8n listens on a Test URL: a CORS preflight lists its methods, running nothing. */
	async function testUrlListens(url: string): Promise<boolean> {
		const answer = await fetch(url, { method: 'OPTIONS', headers: { Origin: n8n.url('') } });
		return /\bPOST\b/.test(answer.headers.get('access-control-allow-methods') ?? '');
	}

	/** How many manual runs n8n has finished successfully, from its REST API. */
	async function finishedManualRuns(): Promise<number> {
		const answer = (await n8n.getAsOwner('/rest/executions')) as {
			data: { results: Array<{ mode: string; status: string }> };
		};
		return answer.data.results.filter((run) => run.mode === 'manual' && run.status === 'success')
			.length;
	}
});
