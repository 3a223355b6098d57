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

/** The copy of a changed example that dev imports beside the user's: the original, one click away. */
const originalOf = (example) => ({
	...example,
	id: `${example.id}Original`,
	name: `${example.name} (original)`,
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
 * What to register with the sandbox for the published workflows' triggers at n8n's `origin`: each
 * trigger's Production URL, for every event by POST and buy order updates by PATCH, as the service
 * sends them, with the dev webhook `secret` where the trigger's Protection looks for it. A trigger
 * whose secret dev does not hold (another credential, basic auth) is `skipped`, with why.
 */
function registrationsFor(workflows, origin, secret) {
	const registrations = [];
	const skipped = [];
	for (const workflow of workflows.filter(({ published }) => published))
		for (const node of workflow.nodes.filter(
			({ type, disabled }) => type === TRIGGER && !disabled,
		)) {
			const { authentication = 'query', parameterName } = node.parameters ?? {};
			const credential = node.credentials?.maintenanceManagementWebhookApi?.id;
			const why =
				authentication === 'basicAuth'
					? 'its Protection is basic auth'
					: authentication !== 'none' && credential !== DEV_HOOK_CREDENTIAL
						? 'its trigger uses a secret of another credential'
						: undefined;
			if (why) {
				skipped.push({ workflow: workflow.name, why });
				continue;
			}
			const url = new URL(`${origin}/webhook/${node.webhookId}/webhook`);
			const headers = {};
			if (authentication === 'query') url.searchParams.set(parameterName || 'token', secret);
			if (authentication === 'header') headers[parameterName || 'X-Webhook-Secret'] = secret;
			registrations.push(
				{ workflow: workflow.name, url: url.href, method: 'POST', events: ['*'], headers },
				{
					workflow: workflow.name,
					url: url.href,
					method: 'PATCH',
					events: ['BUY_ORDER_UPDATED'],
					headers,
				},
			);
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
