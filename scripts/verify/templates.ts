/**
 * What a workflow template in workflows/ may not hold, as pure functions: the package ships the
 * templates for anyone to import ("Import from File" or "Import from URL"), so a template holds nothing
 * of one instance or one person. Each problem names the file and where in it. `npm run verify` checks
 * the packed tarball's templates; test/tooling/templates.test.ts checks the repository's, their node
 * types too.
 */

/** A template as its file holds it, before anything is known of its shape. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The IDs an instance gives a workflow, by where they are in the file, and what each is. */
const WORKFLOW_IDS: Record<string, string> = {
	id: 'a workflow ID',
	versionId: 'a version ID',
	activeVersionId: 'a published version ID',
	'meta.instanceId': 'the ID of the instance it was exported from',
};

/** A key whose value is a secret when it holds one. */
const SECRET_KEY = /token|secret|password|passwd|api[-_]?key|authorization|private[-_]?key/i;
/**
 * A secret in any text: a bearer token, a private key, a long run of mixed-case letters and digits, or
 * of hexadecimal digits.
 */
const SECRET_TEXT =
	/\bBearer\s+[\w.~+/-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----|(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[a-z])(?=[\w-]*[A-Z])[\w-]{32,}|\b(?=[\da-f]*\d)(?=[\da-f]*[a-f])[\da-f]{32,}\b/g;
/** A loopback or private address, or a host name only a local network resolves. */
const LOCAL_ADDRESS =
	/\blocalhost\b|\b127(?:\.\d{1,3}){3}\b|\[::1\]|(?<![\w:])::1(?![\w:])|\b0\.0\.0\.0\b|\b10(?:\.\d{1,3}){3}\b|\b192\.168(?:\.\d{1,3}){2}\b|\b172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}\b|\b169\.254(?:\.\d{1,3}){2}\b|\b[a-z\d-]+(?:\.[a-z\d-]+)*\.(?:local|internal)\b(?![\w-])/gi;

/** Every string of a JSON value with its path, keys included as the last step. */
function* strings(value: Json, path: string): Generator<[string, string, string]> {
	if (typeof value === 'string') yield [path, path.split('.').pop() ?? '', value];
	else if (Array.isArray(value))
		for (const [index, item] of value.entries()) yield* strings(item, `${path}[${index}]`);
	else if (value && typeof value === 'object')
		for (const [key, item] of Object.entries(value))
			yield* strings(item, path ? `${path}.${key}` : key);
}

/** A node's place in a template: its name when it has one. */
const nodePath = (node: Json, index: number): string =>
	node && typeof node === 'object' && !Array.isArray(node) && typeof node.name === 'string'
		? `node "${node.name}"`
		: `nodes[${index}]`;

/**
 * The secrets, local addresses and instance IDs a template (`file`, parsed `template`) holds: a workflow,
 * version or instance ID, a node's webhook ID (n8n gives each trigger its own on import), a credential
 * ID (the user picks a credential; a name may stay), a non-empty value under a secret's key, a bearer
 * token, a private key or a long random string, and a loopback, private or local-network address.
 */
export function templateProblems(file: string, template: Json): string[] {
	if (!template || typeof template !== 'object' || Array.isArray(template))
		return [`${file} is no workflow: it holds ${JSON.stringify(template)?.slice(0, 40)}`];
	const problems: string[] = [];
	const meta = template.meta;
	const found: Record<string, Json | undefined> = {
		...template,
		'meta.instanceId':
			meta && typeof meta === 'object' && !Array.isArray(meta) ? meta.instanceId : undefined,
	};
	for (const [field, what] of Object.entries(WORKFLOW_IDS))
		if (found[field] !== undefined && found[field] !== null)
			problems.push(`${file} holds ${field}, ${what}: remove it, n8n gives its own on import`);
	const nodes = Array.isArray(template.nodes) ? template.nodes : [];
	for (const [index, node] of nodes.entries()) {
		if (!node || typeof node !== 'object' || Array.isArray(node)) continue;
		const at = nodePath(node, index);
		if (node.webhookId !== undefined)
			problems.push(
				`${file}: ${at} holds webhookId, bound to one instance: remove it, n8n gives the trigger one on import`,
			);
		const credentials = node.credentials;
		if (credentials && typeof credentials === 'object' && !Array.isArray(credentials))
			for (const [type, credential] of Object.entries(credentials))
				if (credential && typeof credential === 'object' && !Array.isArray(credential))
					if (credential.id !== undefined)
						problems.push(
							`${file}: ${at} names the ID of its ${type} credential: keep its name only, the user picks one`,
						);
	}
	for (const [path, key, text] of strings(template, '')) {
		const where = path.replace(/^nodes\[(\d+)\]/, (_, index: string) =>
			nodePath(nodes[Number(index)], Number(index)),
		);
		if (SECRET_KEY.test(key) && text.trim() !== '')
			problems.push(`${file}: ${where} holds a secret: leave it out, the credential holds it`);
		for (const secret of new Set(text.match(SECRET_TEXT)))
			problems.push(
				`${file}: ${where} holds what looks like a secret (${secret.slice(0, 6)}…): leave it out`,
			);
		for (const address of new Set(text.match(LOCAL_ADDRESS)))
			problems.push(
				`${file}: ${where} holds ${address}, a local address that means nothing elsewhere: leave it out`,
			);
	}
	return problems;
}

/** A node type an instance knows, at a version. */
export type KnownType = (type: string, version: number) => boolean;

/**
 * What keeps a template (`file`, parsed `template`) from being imported as a workflow: a name, nodes
 * each with a unique name, a type `known` knows at its version, a position and parameters, and
 * connections from and to its nodes.
 */
export function workflowShapeProblems(file: string, template: Json, known: KnownType): string[] {
	if (!template || typeof template !== 'object' || Array.isArray(template))
		return [`${file} is no workflow: it holds no JSON object`];
	const problems: string[] = [];
	if (typeof template.name !== 'string' || !template.name.trim())
		problems.push(`${file} has no name`);
	if (!Array.isArray(template.nodes) || !template.nodes.length)
		return [...problems, `${file} has no nodes`];
	const names = new Set<string>();
	for (const [index, node] of template.nodes.entries()) {
		const at = nodePath(node, index);
		if (!node || typeof node !== 'object' || Array.isArray(node)) {
			problems.push(`${file}: ${at} is no node`);
			continue;
		}
		const { name, type, typeVersion, position, parameters } = node;
		if (typeof name !== 'string' || !name) problems.push(`${file}: ${at} has no name`);
		else if (names.has(name)) problems.push(`${file}: ${at} has a name another node has`);
		else names.add(name);
		if (typeof type !== 'string' || typeof typeVersion !== 'number')
			problems.push(`${file}: ${at} has no type and typeVersion`);
		else if (!known(type, typeVersion))
			problems.push(`${file}: ${at} is of type ${type} v${typeVersion}, which n8n does not know`);
		if (
			!Array.isArray(position) ||
			position.length !== 2 ||
			position.some((x) => typeof x !== 'number')
		)
			problems.push(`${file}: ${at} has no position [x, y]`);
		if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters))
			problems.push(`${file}: ${at} has no parameters object`);
	}
	const connections = template.connections;
	if (!connections || typeof connections !== 'object' || Array.isArray(connections))
		return [...problems, `${file} has no connections object`];
	for (const [from, outputs] of Object.entries(connections)) {
		if (!names.has(from)) problems.push(`${file} connects from "${from}", which is no node of it`);
		const byType = outputs && typeof outputs === 'object' && !Array.isArray(outputs) ? outputs : {};
		const targets = Object.values(byType).flat(2) as Json[];
		for (const target of targets) {
			const to =
				target && typeof target === 'object' && !Array.isArray(target) ? target.node : target;
			if (typeof to !== 'string' || !names.has(to))
				problems.push(
					`${file} connects "${from}" to ${JSON.stringify(to)}, which is no node of it`,
				);
		}
	}
	return problems;
}
