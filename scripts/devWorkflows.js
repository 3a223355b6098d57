/**
 * What `npm run dev` reads of n8n's workflows on a start, before n8n runs: which examples the user
 * changed since dev imported them (kept, the original imported beside them), and which published
 * workflows' triggers to register with the new sandbox, whose registrations a restart forgets. Read
 * straight from n8n's SQLite database with the pinned Node's `node:sqlite`: an n8n command takes 15 s
 * or more to start. The published workflows' nodes are those of their published version.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');

const { DEV_CREDENTIALS, TRIGGER } = require('./examples');

/** The credential dev imports with the webhook secret. */
const DEV_HOOK_CREDENTIAL = DEV_CREDENTIALS.maintenanceManagementWebhookApi.id;
/** The example dev publishes itself: its being published is no change of the user's. */
const PUBLISHED_BY_DEV = 'devWebhookEvents';
/** The path of the trigger's webhooks (its description's `webhooks`), and its Events choice of all. */
const TRIGGER_PATH = 'webhook';
const ALL_EVENTS = '*';

/** Run by the pinned Node (node:sqlite), with the database file as its argument. */
const READ = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { readOnly: true });
process.stdout.write(JSON.stringify(db.prepare(
	'SELECT w.id, w.name, w.versionId, w.activeVersionId, w.nodes, h.nodes AS publishedNodes' +
	' FROM workflow_entity w LEFT JOIN workflow_history h ON h.versionId = w.activeVersionId' +
	' WHERE NOT w.isArchived ORDER BY w.name',
).all()));
`;

/**
 * The workflows of n8n's database `database` (none before n8n's first start), read with `node`:
 * `{ id, name, versionId, published, nodes }`.
 */
function readWorkflows(node, database) {
	if (!existsSync(database)) return [];
	const read = spawnSync(node, ['--disable-warning=ExperimentalWarning', '-e', READ, database], {
		encoding: 'utf8',
	});
	if (read.error)
		throw new Error(
			`Could not start ${node} to read the workflows of ${database} (${read.error.code}). Install Node 24 with \`node scripts/runtime.js\`.`,
		);
	if (read.status !== 0)
		throw new Error(`Could not read the workflows of ${database}: ${read.stderr.trim()}`);
	return JSON.parse(read.stdout).map((row) => ({
		id: row.id,
		name: row.name,
		versionId: row.versionId,
		published: row.activeVersionId !== null,
		nodes: JSON.parse(row.publishedNodes ?? row.nodes ?? '[]'),
	}));
}

/**
 * The examples the user changed: those whose version is no longer the one dev imported (`imported`,
 * by ID), or that the user published. An example dev never imported here is not the user's.
 */
function changedExamples(workflows, examples, imported) {
	const current = new Map(workflows.map((workflow) => [workflow.id, workflow]));
	return examples.filter(({ id }) => {
		const found = current.get(id);
		if (!found || imported[id] === undefined) return false;
		return found.versionId !== imported[id] || (found.published && id !== PUBLISHED_BY_DEV);
	});
}

/**
 * The copy of a changed example that dev imports beside the user's: the original, one click away. A
 * trigger of it has a webhook of its own (its webhook ID and "-original", the same on every start), so
 * that publishing it does not clash with the user's version ("Conflicting Trigger Path"); one without a
 * webhook ID has its own already, under the copy's workflow ID.
 */
const originalOf = (example) => ({
	...example,
	id: `${example.id}Original`,
	name: `${example.name} (original)`,
	nodes: example.nodes.map((node) =>
		node.webhookId === undefined ? node : { ...node, webhookId: `${node.webhookId}-original` },
	),
});

/** The versions of the examples dev imported, by ID, kept in the user folder between starts. */
const importedVersions = {
	read(file) {
		try {
			return JSON.parse(readFileSync(file, 'utf8'));
		} catch (error) {
			if (error.code === 'ENOENT' || error instanceof SyntaxError) return {};
			throw error;
		}
	},
	write(file, versions) {
		writeFileSync(file, `${JSON.stringify(versions)}\n`, { mode: 0o600 });
	},
};

/**
 * The path n8n serves a trigger node's webhook at, under /webhook/, as n8n 2.41 makes it: the node's
 * webhook ID and the trigger's path, or for a node without one (as `n8n import:workflow` leaves it) the
 * workflow's ID, the node's name in lower case and URL-encoded, and the trigger's path; stored without
 * white space or a slash at its start.
 */
function webhookPath(workflowId, node) {
	const path =
		node.webhookId === undefined
			? `${workflowId}/${encodeURIComponent(String(node.name).toLowerCase())}/${TRIGGER_PATH}`
			: `${node.webhookId}/${TRIGGER_PATH}`;
	return path.trim().replace(/^\//, '');
}

/**
 * The URL of the webhook at `path` on n8n's `origin`, and the path it leads to there. n8n's router
 * decodes each segment of a URL's path, so each is encoded; a `.` or `..` segment still moves the URL
 * elsewhere, then the path it leads to is another webhook's, or none.
 */
function webhookUrl(origin, path) {
	const url = new URL(`${origin}/webhook/${path.split('/').map(encodeURIComponent).join('/')}`);
	const [, root, ...segments] = url.pathname.split('/');
	return { url, leadsTo: root === 'webhook' ? segments.map(decodeURIComponent).join('/') : '' };
}

/** The events a trigger node takes: its Events, all when unset (n8n leaves a default out) or set by an expression. */
function eventsOf(node) {
	const { events } = node.parameters ?? {};
	return Array.isArray(events) && events.length > 0 && events.every((e) => typeof e === 'string')
		? events
		: [ALL_EVENTS];
}

/** What to do about a trigger whose secret dev does not hold. */
const BY_HAND = 'register its Production URL in the console';

/**
 * The registration of a published workflow's trigger node at n8n's `origin` (see registrationsFor),
 * or why dev cannot make it, and what to do.
 */
function registrationOf(workflow, node, origin, secret) {
	const { authentication = 'query', parameterName } = node.parameters ?? {};
	if (authentication === 'basicAuth') return { why: `its Protection is basic auth: ${BY_HAND}` };
	const credential = node.credentials?.maintenanceManagementWebhookApi?.id;
	if (authentication !== 'none' && credential !== DEV_HOOK_CREDENTIAL)
		return { why: `its trigger uses a secret of another credential: ${BY_HAND}` };
	const path = webhookPath(workflow.id, node);
	const { url, leadsTo } = webhookUrl(origin, path);
	if (leadsTo !== path)
		return {
			why: `the webhook path of its trigger "${node.name}", "${path}", leads out of its own webhook (to ${url.pathname}): replace the trigger with a new one in the editor`,
		};
	const headers = {};
	if (authentication === 'query') url.searchParams.set(parameterName || 'token', secret);
	if (authentication === 'header') headers[parameterName || 'X-Webhook-Secret'] = secret;
	return { registration: { url: url.href, method: 'POST', events: eventsOf(node), headers } };
}

/**
 * What to register with the sandbox for the published workflows' triggers at n8n's `origin`: each
 * trigger's Production URL for the events it takes, by POST (the trigger takes POST and PATCH alike;
 * one registration delivers each event once), with the dev webhook `secret` where its Protection looks
 * for it. A trigger dev cannot register is `skipped`, with why and what to do: one whose secret dev
 * does not hold (another credential, basic auth), or whose webhook path leads out of its own webhook
 * (a webhook ID holding `../`), where dev would send the secret to another webhook.
 */
function registrationsFor(workflows, origin, secret) {
	const registrations = [];
	const skipped = [];
	for (const workflow of workflows.filter(({ published }) => published))
		for (const node of workflow.nodes.filter(
			({ type, disabled }) => type === TRIGGER && !disabled,
		)) {
			const { registration, why } = registrationOf(workflow, node, origin, secret);
			if (registration) registrations.push({ workflow: workflow.name, ...registration });
			else skipped.push({ workflow: workflow.name, why });
		}
	return { registrations, skipped };
}

module.exports = {
	PUBLISHED_BY_DEV,
	changedExamples,
	importedVersions,
	originalOf,
	readWorkflows,
	registrationsFor,
};
