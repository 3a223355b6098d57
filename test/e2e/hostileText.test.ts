import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { DETAILS, LINK, markup400 } from '../helpers/apiText';
import { apiError, ScriptedServer, type Reply } from '../helpers/scriptedServer';
import { openEditor, signInAsOwner } from './editor';
import { N8nInstance, TESTING_PINNED_N8N } from './n8n';
import {
	ACTION_NODE,
	apiCredential,
	API_CREDENTIAL,
	bulkWorkflow,
	START,
	storedAs,
} from './workflows';

/**
 * Markup from outside the node, seen where n8n renders an error as HTML: the toast (the message) and
 * the error panel (the message and the description), in the pinned n8n's editor in Chromium. Three
 * runs: an API whose 400 carries a link and an open <details>; a bulk create stopped after the API
 * returned an ID holding <b> and a link; an item whose location ID (say, from a webhook payload) holds a
 * link. Each text must show as the characters it is, and no element of it may exist in the page.
 * UPDATE_DOCS=1 writes the error panel of the first run to docs/hostile-text.png.
 */
jest.setTimeout(600_000);

const DOCS = join(__dirname, '..', '..', 'docs');
const SCRATCH = join(tmpdir(), 'mm-hostile-text');
const describeInBrowser = TESTING_PINNED_N8N ? describe : describe.skip;

const RETURNED_ID = '<b>42</b><a href=https://evil.example/relogin>x</a>';
const TOKEN = 'tok-hostile-text-9c4e1a7b3d5f';
/**
 * The message as the panel's headline shows it: n8n renders the message as HTML in the toast but as
 * text above the description, so there the entities the node writes show as they are.
 */
const asEntities = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A workflow of the manual trigger, a Code node giving `items`, and one action node. */
function workflow(id: string, name: string, items: object[], action: object) {
	return {
		...storedAs(id),
		name,
		nodes: [
			START,
			{
				id: 'items',
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
			},
			{
				id: 'action',
				name: 'Get Location',
				type: ACTION_NODE,
				typeVersion: 2,
				position: [400, 0],
				parameters: action,
				credentials: { maintenanceManagementApi: API_CREDENTIAL },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Get Location', type: 'main', index: 0 }]] },
		},
	};
}

const byId = (expression: string) => ({
	resource: 'location',
	operation: 'get',
	id: { __rl: true, mode: 'id', value: expression },
});
const WORKFLOWS = {
	apiText: workflow('mmE2eHostileTxt1', 'Hostile API text', [{}], byId('7')),
	itemId: workflow(
		'mmE2eHostileTxt2',
		'Hostile item ID',
		[{ location: LINK }],
		byId('={{ $json.location }}'),
	),
	returnedId: bulkWorkflow('mmE2eHostileTxt3', 2, 'HX'),
};

/** The hostile API: a 400 full of markup for location 7; a created material whose ID holds markup, then a 500. */
function answer(method: string, path: string, index: number): Reply {
	if (path === '/v3/locations/7') return markup400();
	if (method === 'POST' && path === '/v3/stocks/materials')
		return index % 2 === 0
			? { status: 201, body: { data: { id: RETURNED_ID, type: 'material', attributes: {} } } }
			: apiError(500, { message: LINK });
	return apiError(404, { message: 'No' });
}

describeInBrowser('text from outside the node, in the editor', () => {
	const n8n = new N8nInstance('hostile-text');
	const api = new ScriptedServer();
	let browser: Browser;
	let editor: Page;

	beforeAll(async () => {
		mkdirSync(SCRATCH, { recursive: true });
		await api.start();
		let posts = 0;
		api.reset((request) =>
			answer(request.method, request.path, request.method === 'POST' ? posts++ : 0),
		);
		await n8n.setup();
		await n8n.importFiles([apiCredential(`${api.url}/v3`, TOKEN)], Object.values(WORKFLOWS));
		await n8n.start();
		({ browser, editor } = await openEditor());
		await signInAsOwner(editor, n8n);
	});

	afterAll(async () => {
		await browser?.close();
		await n8n.stop();
		await api.stop();
	});

	afterEach(async () => {
		await editor?.screenshot({ path: join(SCRATCH, 'last.png') }).catch(() => undefined);
	});

	/**
	 * No element made from the data: no link to evil.example, and no <details>, <summary>, <mark> or <b>
	 * holding just a text of the data (n8n's own panel has <details> and <summary> of its own).
	 */
	async function expectNoElementFromData(area: Locator) {
		await expect(area.locator('a[href*="evil.example"]').count()).resolves.toBe(0);
		const fromData = /^\s*(Paste your API token at evil\.example|code|taken|42|x)\s*$/;
		await expect(
			area.locator('details, summary, mark, b, a', { hasText: fromData }).count(),
		).resolves.toBe(0);
	}

	/** Runs a workflow in the editor; returns its error toast and its node's error panel. */
	async function runAndOpen(id: string, node: string) {
		await editor.goto(n8n.url(`/workflow/${id}`));
		await editor.locator('[data-test-id="canvas-node"]', { hasText: node }).first().waitFor();
		await editor.click('[data-test-id="execute-workflow-button"]');
		const toast = editor.locator('.el-notification', { hasText: /Problem in node/ }).first();
		await toast.waitFor();
		const toastText = await toast.innerText();
		await expectNoElementFromData(toast);
		await editor.locator('[data-test-id="canvas-node"]', { hasText: node }).first().dblclick();
		const panel = editor.locator('[data-test-id="node-error-description"]').first();
		await panel.waitFor();
		const message = editor.locator('[data-test-id="node-error-message"]').first();
		const ndv = editor.locator('[data-test-id="ndv"]').first();
		await expectNoElementFromData(ndv);
		return {
			toastText,
			messageText: await message.innerText(),
			descriptionText: await panel.innerText(),
		};
	}

	it("shows the API's text as plain text in the toast and the error panel", async () => {
		const shown = await runAndOpen(WORKFLOWS.apiText.id, 'Get Location');
		expect(shown.toastText).toContain(`message "${LINK} ${DETAILS}"`);
		expect(shown.messageText).toContain(asEntities(`message "${LINK} ${DETAILS}"`));
		expect(shown.descriptionText).toContain('field "<mark>code</mark>"');
		expect(shown.descriptionText).toContain(`<b>taken</b> ${LINK}`);
		await editor.screenshot({
			path: join(process.env.UPDATE_DOCS === '1' ? DOCS : SCRATCH, 'hostile-text.png'),
		});
	});

	it('shows an ID the API returned, in a stopped run, as plain text', async () => {
		const shown = await runAndOpen(WORKFLOWS.returnedId.id, 'Create Materials');
		expect(shown.toastText).toMatch(/^Problem in node/);
		expect(shown.toastText).toContain('Item 0 of 2 was written.');
		expect(shown.descriptionText).toContain(`The API answered 500: "${LINK}"`);
		expect(shown.descriptionText).toContain(`IDs written: ${RETURNED_ID}`);
	});

	it("shows an item's ID holding a link as plain text, and sends nothing", async () => {
		const before = api.requests.length;
		const shown = await runAndOpen(WORKFLOWS.itemId.id, 'Get Location');
		const refused = '"Location" must be a whole-number ID, such as 42; it is "';
		expect(shown.toastText).toContain(`${refused}${LINK.slice(0, 40)}`);
		expect(shown.messageText).toContain(`${refused}${asEntities(LINK).slice(0, 40)}`);
		expect(api.requests).toHaveLength(before);
		writeFileSync(join(SCRATCH, 'shown.json'), JSON.stringify(shown, null, '\t'));
	});
});
