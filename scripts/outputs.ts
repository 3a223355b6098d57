/**
 * What saved workflows read of the nodes' output items, recorded beside the parameters (scripts/surface.ts):
 * per node type and type version, for each case (an operation and Output choice of the action node, an
 * error in each On Error mode, a delivery to the trigger), every key path an item holds with its JSON
 * type. Nothing is written by hand: the nodes themselves run, through n8n-core, on answers made from
 * spec/openapi.yaml with every field set (the records the Simplified schemas are made from), and on a
 * delivery holding what the spec's event notification names. Run on a release's built nodes (its
 * tarball) and on the sources alike, the two are compared key by key.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeType,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { createEngine } from '../test/nodes/helpers/engine';
import { runNode } from '../test/nodes/helpers/harness';
import { operationCases } from '../test/cases/operations';
import { fill } from '../test/cases/savedParameters';
import type { ApiResource } from '../nodes/MaintenanceManagement/transport';
import { fullRecord, Spec } from './outputSchemas';
import {
	sortKeys,
	type NodeVersionSurface,
	type Parameter,
	type Shape,
	type Surface,
} from './surface';

const typeOf = (value: unknown): string =>
	value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** The key paths of a JSON value, and their types, merged into `into` (several types joined by |). */
export function shapeOf(value: unknown, into: Shape = {}, prefix = ''): Shape {
	const add = (path: string, type: string) => {
		const types = new Set((into[path] ?? '').split('|').filter(Boolean)).add(type);
		into[path] = [...types].sort().join('|');
	};
	if (Array.isArray(value)) {
		for (const item of value) {
			if (prefix) add(`${prefix}[]`, typeOf(item));
			if (item && typeof item === 'object') shapeOf(item, into, `${prefix}[]`);
		}
		return into;
	}
	if (value && typeof value === 'object')
		for (const [key, item] of Object.entries(value)) {
			const path = prefix ? `${prefix}.${key}` : key;
			add(path, typeOf(item));
			if (item && typeof item === 'object') shapeOf(item, into, path);
		}
	return into;
}

type Json = Record<string, unknown>;

/** The API's error envelope for a refused row, as the spec gives it. */
const REFUSAL = {
	status: 'error',
	error: {
		http_code: 400,
		message: 'Property validation error.',
		more_info: 'https://api.example.com/docs/errors',
		dev_message: 'See properties',
		properties: { code: ['This code is already used.'] },
	},
};

/**
 * A loopback API answering every request with the spec's answer to it, every field set: a page's
 * records (one per record type the answer may hold) and no next page. `variant` picks which record
 * type an answer of one record holds; `refuse` answers each request with the error envelope instead.
 */
class SpecAnswers {
	private server?: Server;
	variant = 0;
	refuse = false;
	/** How many record types the longest one-record answer holds. */
	variants = 1;

	constructor(private readonly spec: Spec) {}

	async start(): Promise<string> {
		this.server = createServer((request, response) => {
			void this.answer(request).then(([status, body]) => {
				response.writeHead(status, { 'Content-Type': 'application/json' });
				response.end(JSON.stringify(body));
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v3`;
	}

	close = () =>
		new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));

	private async answer(request: IncomingMessage): Promise<[number, unknown]> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		if (this.refuse) return [400, REFUSAL];
		try {
			return this.answerOf(request.method ?? 'GET', request.url ?? '/', chunks);
		} catch (error) {
			return [501, { status: 'error', error: { http_code: 501, message: String(error) } }];
		}
	}

	private answerOf(method: string, address: string, chunks: Buffer[]): [number, unknown] {
		const url = new URL(address, 'http://localhost');
		const path = url.pathname.replace(/^\/v3/, '');
		const answer = this.spec.properties(this.spec.answer(method, path));
		const records = this.spec.records(answer.data).map((record) => fullRecord(this.spec, record));
		const isList = this.spec.resolve(answer.data).type === 'array';
		const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Json) : {};
		// A bulk update is confirmed record by record: each location it names is in the answer.
		const named = Array.isArray(body.locations)
			? (body.locations as Json[]).map((location) => String(location.id))
			: [];
		const data = isList
			? named.length
				? named.map((id, index) => ({ ...records[index % records.length], id }))
				: records
			: records[this.variant % records.length];
		this.variants = Math.max(this.variants, isList ? 1 : records.length);
		// A batch's transactions are confirmed one by one: each sent one is among the included records.
		const sent = Array.isArray(body.transactions) ? (body.transactions as IDataObject[]) : [];
		const included = answer.included
			? this.spec
					.records(answer.included)
					.map((record) => fullRecord(this.spec, record))
					.flatMap((record): ApiResource[] =>
						sent.length && record.type === 'stock-transaction'
							? sent.map((fields, index) => ({
									...record,
									id: String(index + 1),
									attributes: { ...record.attributes, ...fields },
								}))
							: [record],
					)
			: undefined;
		if (!isList) return [200, { data, ...(included ? { included } : {}) }];
		const count = (data as unknown[]).length;
		return [
			200,
			{
				data,
				...(included ? { included } : {}),
				meta: {
					pagination: { total: count, count, per_page: 200, current_page: 1, total_pages: 1 },
				},
				links: { self: 'page=1', first: 'page=1', last: 'page=1' },
			},
		];
	}
}

/** Each operation's parameters that the spec's data makes valid (IDs, codes, bodies). */
const CASES = operationCases(
	async () => undefined,
	async () => ({}),
);

/** The On Error modes of n8n's node settings, by their saved names. */
export const ON_ERROR = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const;

/** What a stopped run's error holds that an Error Trigger workflow or a person reads. */
const STORED_ERROR = ['message', 'description', 'httpCode', 'context', 'failure'];

/** The Output choices a type version shows for an operation: `simplify` in version 1, `output` after. */
function outputChoices(parameters: Parameter[], resource: string, operation: string) {
	const shown = (parameter: Parameter) =>
		parameter.displayOptions?.show?.resource?.includes(resource) !== false &&
		parameter.displayOptions?.show?.operation?.includes(operation) !== false;
	const choices: Array<{ name: string; values: IDataObject }> = [];
	for (const parameter of parameters) {
		if (!shown(parameter)) continue;
		if (parameter.name === 'simplify')
			choices.push(
				...[true, false].map((value) => ({
					name: `simplify=${value}`,
					values: { simplify: value },
				})),
			);
		if (parameter.name === 'output')
			choices.push(
				...(parameter.values ?? []).map((value) => ({
					name: String(value),
					values: { output: String(value) },
				})),
			);
	}
	// Simplified first: Selected Fields names its fields.
	const first = (name: string) => (name === 'simplified' || name === 'simplify=true' ? 0 : 1);
	choices.sort((a, b) => first(a.name) - first(b.name));
	return choices.length ? choices : [{ name: 'output', values: {} }];
}

/** The operations a recorded type version offers, by resource. */
const operationsOf = (parameters: Parameter[]) =>
	parameters
		.filter((parameter) => parameter.name === 'operation')
		.flatMap((parameter) =>
			(parameter.displayOptions?.show?.resource ?? []).flatMap((resource) =>
				(parameter.values ?? []).map((operation) => ({
					resource: String(resource),
					operation: String(operation),
				})),
			),
		);

/**
 * The output cases of the action node, per type version of `surface` (what it shows): each operation
 * in each Output choice, and a row the API refuses in each On Error mode.
 */
export async function actionOutputs(
	node: INodeType,
	versions: Record<string, NodeVersionSurface>,
	spec = Spec.load(),
): Promise<Record<string, Record<string, Shape>>> {
	const api = new SpecAnswers(spec);
	const baseUrl = await api.start();
	const credentials = {
		accessToken: 'output-record-token',
		environment: 'sandbox' as const,
		sandboxBaseUrl: baseUrl,
	};
	const found: Record<string, Record<string, Shape>> = {};
	try {
		for (const [version, { parameters }] of Object.entries(versions)) {
			const cases: Record<string, Shape> = {};
			for (const { resource, operation } of operationsOf(parameters)) {
				const given = CASES.find((c) => c.resource === resource && c.operation === operation);
				const base = fill(
					parameters,
					{ resource, operation, ...given?.parameters },
					`${resource}.${operation}`,
				);
				const run = async (values: IDataObject, onError?: INode['onError']) =>
					await runNode({
						node,
						parameters: { ...base, ...values },
						items: [{}],
						credentials,
						typeVersion: Number(version),
						onError,
					});
				let simplified: Shape = {};
				for (const choice of outputChoices(parameters, resource, operation)) {
					const shape: Shape = {};
					for (api.variant = 0; api.variant < api.variants; api.variant++) {
						const values =
							choice.values.output === 'selected'
								? {
										...choice.values,
										fields: Object.keys(simplified)
											.filter((key) => !key.includes('.') && !key.includes('['))
											.join(','),
									}
								: choice.values;
						const result = await run(values);
						if (result.error)
							throw new Error(
								`${resource}.${operation} (${choice.name}), type version ${version}: ${result.error.message}`,
							);
						for (const item of result.output) shapeOf(item.json, shape);
					}
					api.variant = 0;
					api.variants = 1;
					if (choice.name === 'simplified' || choice.name === 'simplify=true') simplified = shape;
					cases[`${resource}.${operation} ${choice.name}`] = shape;
				}
				api.refuse = true;
				for (const mode of ON_ERROR) {
					const result = await run({}, mode);
					const shape: Shape = {};
					if (mode === 'stopWorkflow') {
						const error = result.error as unknown as Json;
						shapeOf(
							Object.fromEntries(
								STORED_ERROR.filter((key) => error?.[key] !== undefined).map((key) => [
									key,
									error[key],
								]),
							),
							shape,
						);
					} else
						for (const item of [...result.output, ...result.errorOutput]) shapeOf(item.json, shape);
					cases[`${resource}.${operation} error ${mode}`] = shape;
				}
				api.refuse = false;
			}
			found[version] = cases;
		}
	} finally {
		await api.close();
	}
	return found;
}

/** A delivery as the service sends one: the body names its event (the spec's `x-event-fields`). */
const DELIVERY = {
	body: {
		event: 'FAILURE_CREATED',
		data: { type: 'failure', id: '1', attributes: { code: 'WO-1' } },
	},
	query: { source: 'erp' },
};

/**
 * The trigger's item for a delivery, per type version: protection off (so no secret is left out),
 * every event, and the headers included, for each method the service sends with.
 */
export async function triggerOutputs(
	node: INodeType,
): Promise<Record<string, Record<string, Shape>>> {
	const versions = Array.isArray(node.description.version)
		? node.description.version
		: [node.description.version];
	const found: Record<string, Record<string, Shape>> = {};
	for (const version of versions) {
		const cases: Record<string, Shape> = {};
		for (const method of ['POST', 'PATCH']) {
			const engine = createEngine({
				nodeType: node,
				typeVersion: version,
				parameters: { authentication: 'none', events: ['*'], options: { includeHeaders: true } },
			});
			engine.additionalData.httpRequest = {
				method,
				headers: { 'content-type': 'application/json' },
				query: DELIVERY.query,
				body: DELIVERY.body,
				params: {},
			} as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
			const refused = () => {
				throw new Error(`the trigger refused the recording's ${method} delivery`);
			};
			engine.additionalData.httpResponse = {
				status: refused,
				json: refused,
				send: refused,
				end: refused,
				setHeader: refused,
			} as unknown as IWorkflowExecuteAdditionalData['httpResponse'];
			const webhook: IWebhookData = {
				httpMethod: method as IWebhookData['httpMethod'],
				node: engine.node.name,
				path: 'maintenance',
				webhookDescription: node.description.webhooks![0],
				workflowId: engine.workflow.id,
				workflowExecuteAdditionalData: engine.additionalData,
			};
			const context = new WebhookContext(
				engine.workflow,
				engine.node,
				engine.additionalData,
				'webhook',
				webhook,
				[],
				null,
			);
			const result = await node.webhook!.call(context);
			const item = result.workflowData?.[0]?.[0]?.json;
			if (!item)
				throw new Error(
					`the trigger, type version ${version}, started nothing for a ${method} delivery`,
				);
			cases[`delivery ${method}`] = shapeOf(item);
		}
		found[String(version)] = cases;
	}
	return found;
}

/** `surface` with each node type version's output cases, from running `nodes` (its nodes, loaded). */
export async function withOutputs(surface: Surface, nodes: INodeType[]): Promise<Surface> {
	for (const node of nodes) {
		const { versions } = surface.nodes[`${surface.package}.${node.description.name}`];
		const outputs = node.description.webhooks
			? await triggerOutputs(node)
			: await actionOutputs(node, versions);
		for (const [version, cases] of Object.entries(outputs)) versions[version].outputs = cases;
	}
	return sortKeys(surface) as Surface;
}
