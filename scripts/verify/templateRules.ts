/**
 * What a workflow template in workflows/ may not do, as rules: each a name, a test and the reason
 * given when a template breaks it. The templates are imported by URL from an npm file CDN: a template
 * that sends rows elsewhere, runs a command, reads the environment, opens its trigger, writes a row
 * twice, takes calls or errors of other workflows, fetches an image when opened, or carries data is
 * refused, naming the file, the node and the reason. `templateHarms` applies them;
 * test/tooling/templates.test.ts checks the repository's templates and `npm run verify` the tarball's.
 */
import { resources } from '../../nodes/MaintenanceManagement/actions/resources';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A node of a template, as far as the rules read it. */
export interface TemplateNode {
	name: string;
	type: string;
	parameters: JsonObject;
	retryOnFail?: Json;
	onError?: Json;
}

/** A template, as far as the rules read it. */
export interface TemplateWorkflow {
	nodes: TemplateNode[];
	/** Each node's targets, by the index of its main output. */
	connections: Record<string, string[][]>;
	settings: JsonObject;
	raw: JsonObject;
}

export interface Rule<Subject> {
	name: string;
	test: (subject: Subject, workflow: TemplateWorkflow) => boolean;
	reason: string;
}

const ACTION = 'n8n-nodes-maintenance-management.maintenanceManagement';
const TRIGGER = 'n8n-nodes-maintenance-management.maintenanceManagementTrigger';
const API_CREDENTIAL = 'maintenanceManagementApi';
const HTTP_REQUEST = ['n8n-nodes-base.httpRequest', 'n8n-nodes-base.httpRequestTool'];
const COMMANDS = ['n8n-nodes-base.executeCommand', 'n8n-nodes-base.ssh'];
const CODE = ['n8n-nodes-base.code', 'n8n-nodes-base.function', 'n8n-nodes-base.functionItem'];
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';
/** The trigger's Protection values that check a secret; any other (None, an expression) does not. */
const PROTECTED = ['query', 'header', 'basicAuth'];

const isObject = (value: unknown): value is JsonObject =>
	Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** Every string of a JSON value. */
const stringsOf = (value: Json | undefined): string[] =>
	typeof value === 'string'
		? [value]
		: Array.isArray(value)
			? value.flatMap(stringsOf)
			: isObject(value)
				? Object.values(value).flatMap(stringsOf)
				: [];
const textOf = (node: TemplateNode) => stringsOf(node.parameters).join('\n');

/** A URL written out: its scheme and what follows up to a space, a quote or a bracket. */
const URLS = /\b(?:https?|wss?|ftp):\/\/[^\s"'`<>(){}\\]*/gi;
/** Hosts that stand for the user's own: example domains (RFC 2606) and loopback. */
const PLACEHOLDER_HOST =
	/^(?:(?:[\w-]+\.)*example(?:\.(?:com|org|net))?|(?:[\w-]+\.)*(?:test|invalid|localhost)|localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const hostOf = (url: string): string => {
	try {
		return new URL(url).hostname;
	} catch {
		return '';
	}
};
/** Whether the text names a URL of a host other than a placeholder (or of a host it does not say). */
const namesOutsideUrl = (text: string) =>
	(text.match(URLS) ?? []).some((url) => !PLACEHOLDER_HOST.test(hostOf(url)));

/** The action node's reads (its GET operations), as "resource operation". */
const READS = new Set(
	Object.entries(resources).flatMap(([resource, { operations }]) =>
		Object.entries(operations)
			.filter(([, operation]) => operation.endpoint.method === 'GET')
			.map(([operation]) => `${resource} ${String(operation)}`),
	),
);
/** A node that writes: an action node's operation other than a known read, or an HTTP Request with a method other than GET, HEAD or OPTIONS. */
const writes = ({ type, parameters }: TemplateNode): boolean => {
	if (type === ACTION) return !READS.has(`${parameters.resource} ${parameters.operation}`);
	if (!HTTP_REQUEST.includes(type)) return false;
	const method = String(parameters.method ?? parameters.requestMethod ?? 'GET').toUpperCase();
	return !['GET', 'HEAD', 'OPTIONS'].includes(method);
};

/** The names of the nodes reached from a node's main outputs (these indexes, else all), by any path. */
function reachedFrom(workflow: TemplateWorkflow, name: string, outputs?: number[]): Set<string> {
	const reached = new Set<string>();
	const from = workflow.connections[name] ?? [];
	const next = (outputs ?? from.map((_, index) => index)).flatMap((output) => from[output] ?? []);
	while (next.length) {
		const node = next.pop()!;
		if (reached.has(node)) continue;
		reached.add(node);
		next.push(...(workflow.connections[node] ?? []).flat());
	}
	return reached;
}

/** The main output an error item leaves a node by, with its On Error setting; none when it stops. */
const errorOutputs = ({ onError }: TemplateNode): number[] =>
	onError === 'continueErrorOutput' ? [1] : onError === 'continueRegularOutput' ? [0] : [];

/** A key with a token-like name set to a text, or a long quoted run of letters and digits. */
const TOKEN_IN_CODE = [
	/\b(?:token|secret|password|passwd|api[-_]?key|authorization|bearer|credential)\w*["']?\s*[:=]\s*["'`][^"'`\s]{6,}/i,
	/["'`](?=[\w+/=.-]*\d)(?=[\w+/=.-]*[A-Za-z])[\w+/=.-]{20,}["'`]/,
	/\bBearer\s+[\w.~+/-]{8,}/,
];
/** An image from another host, in Markdown (inline or by reference) or HTML. */
const REMOTE_IMAGE = [
	/!\[[^\]]*\]\(\s*<?\s*(?:https?:)?\/\//i,
	/<img\b[^>]*\bsrc\s*=\s*["']?\s*(?:https?:)?\/\//i,
	/!\[[^\]]*\]\[[^\]]*\][^]*^\s*\[[^\]]+\]:\s*<?\s*(?:https?:)?\/\//im,
];

export const NODE_RULES: Array<Rule<TemplateNode>> = [
	{
		name: 'HTTP Request without the package credential',
		test: (node) =>
			HTTP_REQUEST.includes(node.type) &&
			!(
				node.parameters.authentication === 'predefinedCredentialType' &&
				node.parameters.nodeCredentialType === API_CREDENTIAL
			),
		reason:
			"is an HTTP Request without the package's API credential (Predefined Credential Type → Maintenance Management API): it could send the rows anywhere",
	},
	{
		name: 'outside URL',
		test: (node) => node.type !== STICKY_NOTE && namesOutsideUrl(textOf(node)),
		reason:
			'sends to a URL of another host: a template names only placeholder hosts (api.example.com) and loopback',
	},
	{
		name: 'command',
		test: (node) => COMMANDS.includes(node.type),
		reason: 'runs a command on a machine (Execute Command, SSH): a template runs none',
	},
	{
		name: 'environment',
		test: (node) => /\$env\b|process\.env\b/.test(textOf(node)),
		reason: "reads the environment ($env or process.env), which holds the instance's secrets",
	},
	{
		name: 'unprotected trigger',
		test: (node) =>
			node.type === TRIGGER &&
			node.parameters.authentication !== undefined &&
			!PROTECTED.includes(String(node.parameters.authentication)),
		reason:
			"turns the trigger's Protection off: anyone who knows its URL could start the workflow; keep a secret (Protection: query, header or basic auth)",
	},
	{
		name: 'retried write',
		test: (node) => node.retryOnFail === true && writes(node),
		reason:
			'writes with Retry On Fail on: a try whose outcome is unknown may have been written, and a retry writes it again; turn Retry On Fail off',
	},
	{
		name: 'error output back into the write',
		test: (node, workflow) =>
			writes(node) && reachedFrom(workflow, node.name, errorOutputs(node)).has(node.name),
		reason:
			'sends its failed rows back into itself: a row whose outcome is unknown may have been written, and is written again; send failed rows to a person to check',
	},
	{
		name: 'unknown outcome re-sent',
		test: (node, workflow) =>
			/\boutcome\b/.test(textOf(node)) &&
			/\bunknown\b/.test(textOf(node)) &&
			[...reachedFrom(workflow, node.name)].some((name) =>
				workflow.nodes.some((other) => other.name === name && writes(other)),
			),
		reason:
			'leads rows by the outcome "unknown" to a write: such a row may have been written, and sending it again writes it twice; send it to a person to check',
	},
	{
		name: 'remote image',
		test: (node) =>
			node.type === STICKY_NOTE && REMOTE_IMAGE.some((image) => image.test(textOf(node))),
		reason:
			'shows an image from another host: opening the workflow fetches it, telling that host who opened it; leave it out',
	},
	{
		name: 'token in code',
		test: (node) =>
			CODE.includes(node.type) && TOKEN_IN_CODE.some((token) => token.test(textOf(node))),
		reason: 'holds what looks like a token in its code: leave it out, a credential holds it',
	},
];

export const WORKFLOW_RULES: Array<Rule<TemplateWorkflow>> = [
	{
		name: 'any caller',
		test: (workflow) => workflow.settings.callerPolicy === 'any',
		reason:
			'lets any workflow call it (settings.callerPolicy "any"): leave callerPolicy out, n8n then allows only workflows of the same owner',
	},
	{
		name: 'error workflow',
		test: (workflow) =>
			workflow.settings.errorWorkflow !== undefined && workflow.settings.errorWorkflow !== '',
		reason:
			'sends its errors to another workflow (settings.errorWorkflow), one of the instance it came from: leave it out',
	},
	{
		name: 'pinned data',
		test: (workflow) => 'pinData' in workflow.raw,
		reason:
			'holds pinData: remove it; pinned data is rows of the instance it came from, and may hold tokens',
	},
];

/** A template's nodes and main connections, read leniently: what is not there is left out. */
function asWorkflow(template: JsonObject): TemplateWorkflow {
	const nodes = (Array.isArray(template.nodes) ? template.nodes : [])
		.filter(isObject)
		.map((node) => ({
			...node,
			name: String(node.name ?? ''),
			type: String(node.type ?? ''),
			parameters: isObject(node.parameters) ? node.parameters : {},
		}));
	const connections: Record<string, string[][]> = {};
	if (isObject(template.connections))
		for (const [from, byType] of Object.entries(template.connections)) {
			const main = isObject(byType) && Array.isArray(byType.main) ? byType.main : [];
			connections[from] = main.map((targets) =>
				(Array.isArray(targets) ? targets : []).flatMap((target) =>
					isObject(target) && typeof target.node === 'string' ? [target.node] : [],
				),
			);
		}
	const settings = isObject(template.settings) ? template.settings : {};
	return { nodes, connections, settings, raw: template };
}

/** What a template (`file`, parsed `template`) does that no template may: one line per rule it breaks. */
export function templateHarms(file: string, template: unknown): string[] {
	if (!isObject(template)) return [`${file} is no workflow: it holds no JSON object`];
	const workflow = asWorkflow(template);
	return [
		...WORKFLOW_RULES.filter((rule) => rule.test(workflow, workflow)).map(
			(rule) => `${file} ${rule.reason}`,
		),
		...workflow.nodes.flatMap((node) =>
			NODE_RULES.filter((rule) => rule.test(node, workflow)).map(
				(rule) => `${file}: node "${node.name}" ${rule.reason}`,
			),
		),
	];
}
