import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	changedExamples,
	importedVersions,
	originalOf,
	readWorkflows,
	registrationsFor,
	type StoredWorkflow,
} from '../../scripts/devWorkflows';
import { exampleWorkflows, type ExampleWorkflow } from '../../scripts/examples';

/** What `npm run dev` reads of n8n's workflows on a start: changed examples, triggers to register. */
const TRIGGER = 'n8n-nodes-maintenance-management.maintenanceManagementTrigger';
const ORIGIN = 'http://127.0.0.1:5700';
const SECRET = 'dev-secret-0123456789-0123456789';
const devCredential = { maintenanceManagementWebhookApi: { id: 'devHookCredential' } };

/** The pinned Node, whose node:sqlite dev reads n8n's database with. */
const { NODE_BIN } = createRequire(__filename)('../../scripts/runtime.js') as { NODE_BIN: string };

const folder = mkdtempSync(join(tmpdir(), 'mm-dev-workflows-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A published workflow with one trigger node. */
const published = (name: string, node: Partial<StoredWorkflow['nodes'][number]>) => ({
	id: name,
	name,
	versionId: 'v1',
	published: true,
	nodes: [{ name: 'Events', type: TRIGGER, webhookId: `hook-${name}`, ...node }],
});

describe('the triggers npm run dev registers with the sandbox on a start', () => {
	it("are every published workflow's, at its Production URL with the secret where Protection looks, once each, by POST", () => {
		const { registrations, skipped } = registrationsFor(
			[
				published('query', { credentials: devCredential }),
				published('named', {
					credentials: devCredential,
					parameters: { authentication: 'query', parameterName: 'key' },
				}),
				published('header', {
					credentials: devCredential,
					parameters: { authentication: 'header' },
				}),
				published('open', { parameters: { authentication: 'none' } }),
				{ ...published('draft', { credentials: devCredential }), published: false },
				published('off', { credentials: devCredential, disabled: true }),
			],
			ORIGIN,
			SECRET,
		);
		expect(skipped).toEqual([]);
		expect(registrations).toEqual([
			{
				workflow: 'query',
				url: `${ORIGIN}/webhook/hook-query/webhook?token=${SECRET}`,
				method: 'POST',
				events: ['*'],
				headers: {},
			},
			{
				workflow: 'named',
				url: `${ORIGIN}/webhook/hook-named/webhook?key=${SECRET}`,
				method: 'POST',
				events: ['*'],
				headers: {},
			},
			{
				workflow: 'header',
				url: `${ORIGIN}/webhook/hook-header/webhook`,
				method: 'POST',
				events: ['*'],
				headers: { 'X-Webhook-Secret': SECRET },
			},
			{
				workflow: 'open',
				url: `${ORIGIN}/webhook/hook-open/webhook`,
				method: 'POST',
				events: ['*'],
				headers: {},
			},
		]);
	});

	it('are for the events each trigger takes: those it selects, all when it keeps the default or sets them by an expression', () => {
		const withEvents = (name: string, events: unknown) =>
			published(name, { credentials: devCredential, parameters: { events } });
		const { registrations } = registrationsFor(
			[
				withEvents('two', ['FAILURE_CREATED', 'BUY_ORDER_CREATED']),
				withEvents('all', ['*']),
				withEvents('expression', '={{ ["FAILURE_CREATED"] }}'),
				withEvents('none', []),
				published('default', { credentials: devCredential }),
			],
			ORIGIN,
			SECRET,
		);
		expect(
			registrations.map(({ workflow, method, events }) => ({ workflow, method, events })),
		).toEqual([
			{ workflow: 'two', method: 'POST', events: ['FAILURE_CREATED', 'BUY_ORDER_CREATED'] },
			{ workflow: 'all', method: 'POST', events: ['*'] },
			{ workflow: 'expression', method: 'POST', events: ['*'] },
			{ workflow: 'none', method: 'POST', events: ['*'] },
			{ workflow: 'default', method: 'POST', events: ['*'] },
		]);
	});

	it('are at the path n8n serves: without a webhook ID, the workflow ID and the node name; each segment encoded as n8n decodes it', () => {
		const { registrations, skipped } = registrationsFor(
			[
				// As n8n import:workflow leaves a trigger without one.
				published('wf1', {
					name: 'Work Order Events',
					webhookId: undefined,
					credentials: devCredential,
				}),
				published('wf2', { name: '100% Done?', webhookId: undefined, credentials: devCredential }),
				// n8n trims white space and a leading slash off the path.
				published('wf3', { webhookId: ' /hook-trimmed', credentials: devCredential }),
				published('wf4', { webhookId: 'a b?c#d', credentials: devCredential }),
			],
			ORIGIN,
			SECRET,
		);
		expect(skipped).toEqual([]);
		expect(registrations.map(({ url }) => url.split('?token=')[0])).toEqual([
			// n8n stores "wf1/work%20order%20events/webhook"; its router decodes each segment once.
			`${ORIGIN}/webhook/wf1/work%2520order%2520events/webhook`,
			`${ORIGIN}/webhook/wf2/100%2525%2520done%253F/webhook`,
			`${ORIGIN}/webhook/hook-trimmed/webhook`,
			`${ORIGIN}/webhook/a%20b%3Fc%23d/webhook`,
		]);
		for (const { url } of registrations)
			expect(new URL(url).searchParams.get('token')).toBe(SECRET);
	});

	it('leaves out, naming the workflow, its trigger and why, a webhook path that leads out of its own webhook: no secret goes elsewhere', () => {
		const { registrations, skipped } = registrationsFor(
			[
				published('up', { webhookId: '../elsewhere', credentials: devCredential }),
				published('other', {
					name: 'Steal',
					webhookId: 'x/../../webhook/hook-victim',
					credentials: devCredential,
				}),
				published('dot', { webhookId: '%2e%2e/.', credentials: devCredential }),
				// Encoded dots are a segment of its own name, not a way out: n8n serves it there.
				published('literal', { webhookId: '%2e%2e', credentials: devCredential }),
			],
			ORIGIN,
			SECRET,
		);
		expect(skipped).toEqual([
			{
				workflow: 'up',
				why: 'the webhook path of its trigger "Events", "../elsewhere/webhook", leads out of its own webhook (to /elsewhere/webhook): replace the trigger with a new one in the editor',
			},
			{
				workflow: 'other',
				why: 'the webhook path of its trigger "Steal", "x/../../webhook/hook-victim/webhook", leads out of its own webhook (to /webhook/hook-victim/webhook): replace the trigger with a new one in the editor',
			},
			{
				workflow: 'dot',
				why: 'the webhook path of its trigger "Events", "%2e%2e/./webhook", leads out of its own webhook (to /webhook/%252e%252e/webhook): replace the trigger with a new one in the editor',
			},
		]);
		expect(registrations.map(({ workflow, url }) => [workflow, url])).toEqual([
			['literal', `${ORIGIN}/webhook/%252e%252e/webhook?token=${SECRET}`],
		]);
		expect(JSON.stringify(skipped)).not.toContain(SECRET);
	});

	it('leaves out, naming the workflow, why and what to do, a trigger whose secret dev does not hold', () => {
		const { registrations, skipped } = registrationsFor(
			[
				published('mine', { credentials: { maintenanceManagementWebhookApi: { id: 'other' } } }),
				published('basic', {
					credentials: devCredential,
					parameters: { authentication: 'basicAuth' },
				}),
			],
			ORIGIN,
			SECRET,
		);
		expect(registrations).toEqual([]);
		expect(skipped).toEqual([
			{
				workflow: 'mine',
				why: 'its trigger uses a secret of another credential: register its Production URL in the console',
			},
			{
				workflow: 'basic',
				why: 'its Protection is basic auth: register its Production URL in the console',
			},
		]);
	});
});

describe('the examples npm run dev keeps', () => {
	const examples = exampleWorkflows('hook');
	const stored = (id: string, versionId: string, isPublished = false): StoredWorkflow => ({
		id,
		name: id,
		versionId,
		published: isPublished,
		nodes: [],
	});

	it('are those changed or published by the user since dev imported them', () => {
		const [list, create, events, approval] = examples;
		const imported = { [list.id]: 'a', [create.id]: 'b', [events.id]: 'c', [approval.id]: 'd' };
		expect(
			changedExamples(
				[
					stored(list.id, 'a'),
					stored(create.id, 'edited'),
					// dev publishes the events example itself.
					stored(events.id, 'c', true),
					stored(approval.id, 'd', true),
				],
				examples,
				imported,
			),
		).toEqual([create, approval]);
	});

	it('are none that dev never imported in this folder, or that the user deleted', () => {
		const [list, create] = examples;
		expect(changedExamples([stored(list.id, 'x')], examples, { [create.id]: 'b' })).toEqual([]);
	});

	it('have their original imported beside them under a name that says so', () => {
		const original = originalOf(examples[0]);
		expect(original).toEqual({
			...examples[0],
			id: `${examples[0].id}Original`,
			name: `${examples[0].name} (original)`,
		});
	});

	it('have an original whose triggers have webhooks of their own, the same on every start, so that both can be published', () => {
		const trigger = (name: string, webhookId?: string) => ({
			id: name,
			name,
			type: TRIGGER,
			typeVersion: 2,
			position: [0, 0] as [number, number],
			parameters: { events: ['FAILURE_CREATED'] },
			credentials: { maintenanceManagementWebhookApi: { id: 'devHookCredential', name: 'hook' } },
			...(webhookId === undefined ? {} : { webhookId }),
		});
		// A trigger with a webhook ID, as the events example has, and one without, as an imported file.
		const example: ExampleWorkflow = {
			...examples[0],
			nodes: [trigger('With ID', 'hook-example'), trigger('Without ID')],
		};
		const original = originalOf(example);
		expect(originalOf(example)).toEqual(original);
		const urls = (workflow: ExampleWorkflow) =>
			registrationsFor(
				[{ ...workflow, versionId: 'v1', published: true }],
				ORIGIN,
				SECRET,
			).registrations.map(({ url }) => url.split('?')[0]);
		expect(urls(example)).toEqual([
			`${ORIGIN}/webhook/hook-example/webhook`,
			`${ORIGIN}/webhook/${example.id}/without%2520id/webhook`,
		]);
		expect(urls(original)).toEqual([
			`${ORIGIN}/webhook/hook-example-original/webhook`,
			`${ORIGIN}/webhook/${original.id}/without%2520id/webhook`,
		]);
		// Nothing else of the copy's nodes differs from the example's.
		const withoutHooks = (workflow: ExampleWorkflow) =>
			workflow.nodes.map(({ webhookId: _hook, ...node }) => node);
		expect(withoutHooks(original)).toEqual(withoutHooks(example));
	});

	it('are known by the versions dev imported, kept in a file only its owner reads', () => {
		const file = join(folder, 'dev-examples.json');
		expect(importedVersions.read(file)).toEqual({});
		importedVersions.write(file, { devOpenWorkOrders: 'v1' });
		expect(importedVersions.read(file)).toEqual({ devOpenWorkOrders: 'v1' });
		expect(statSync(file).mode & 0o077).toBe(0);
	});
});

describe("n8n's workflows, as dev reads them from its database", () => {
	it("are none before n8n's first start", () => {
		expect(readWorkflows(NODE_BIN, join(folder, 'none.sqlite'))).toEqual([]);
	});

	it('give a published workflow the nodes of its published version, not of its draft', () => {
		const database = join(folder, 'database.sqlite');
		const node = (webhookId: string) => JSON.stringify([{ type: TRIGGER, webhookId }]);
		// The tables and columns dev reads, as n8n 2.41 makes them.
		const script = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1]);
db.exec('CREATE TABLE workflow_entity (id TEXT, name TEXT, versionId TEXT, activeVersionId TEXT, nodes TEXT, isArchived BOOLEAN)');
db.exec('CREATE TABLE workflow_history (versionId TEXT, workflowId TEXT, nodes TEXT)');
const add = db.prepare('INSERT INTO workflow_entity VALUES (?, ?, ?, ?, ?, ?)');
add.run('live', 'Live', 'v2', 'v1', ${JSON.stringify(node('draft'))}, 0);
add.run('draft', 'Draft', 'v3', null, ${JSON.stringify(node('unpublished'))}, 0);
add.run('gone', 'Archived', 'v4', null, '[]', 1);
db.prepare('INSERT INTO workflow_history VALUES (?, ?, ?)').run('v1', 'live', ${JSON.stringify(node('published'))});
`;
		execFileSync(NODE_BIN, ['--disable-warning=ExperimentalWarning', '-e', script, database]);
		// By name, as the terminal lists them.
		expect(readWorkflows(NODE_BIN, database)).toEqual([
			{
				id: 'draft',
				name: 'Draft',
				versionId: 'v3',
				published: false,
				nodes: [{ type: TRIGGER, webhookId: 'unpublished' }],
			},
			{
				id: 'live',
				name: 'Live',
				versionId: 'v2',
				published: true,
				nodes: [{ type: TRIGGER, webhookId: 'published' }],
			},
		]);
	});

	it('fail naming the database when it cannot be read', () => {
		const database = join(folder, 'not-a-database.sqlite');
		execFileSync('sh', ['-c', `echo not sqlite > ${database}`]);
		expect(() => readWorkflows(NODE_BIN, database)).toThrow(
			`Could not read the workflows of ${database}:`,
		);
	});

	it('fail naming the Node that could not start, and how to install it', () => {
		const database = join(folder, 'database.sqlite');
		const missing = join(folder, 'no-node');
		expect(() => readWorkflows(missing, database)).toThrow(
			`Could not start ${missing} to read the workflows of ${database} (ENOENT). Install Node 24 with \`node scripts/runtime.js\`.`,
		);
	});
});
