import { LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import type {
	NodeExecutionHint,
	IDataObject,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { createEngine, type RetrySettings, type SentRequest } from './engine';

/**
 * Runs the action node the way n8n runs it: a one-node workflow executed by n8n-core's WorkflowExecute,
 * with n8n-core's parameter and expression resolution, its request helpers (the credential's
 * `authenticate` block applied as n8n's server applies it), Continue On Fail and paired items. A
 * parameter given as `={{ … }}` is an n8n expression, resolved per item by n8n's expression engine.
 */

export type { RetrySettings, SentRequest };

export interface Credentials {
	accessToken: string;
	environment: 'production' | 'sandbox';
	productionBaseUrl?: string;
	sandboxBaseUrl?: string;
}

export interface RunOptions {
	node: INodeType;
	parameters: Record<string, unknown>;
	items?: IDataObject[];
	credentials: Credentials;
	continueOnFail?: boolean;
	/**
	 * The node's On Error setting: with "Continue (using error output)" the input items come from a node
	 * before it, as in a workflow, so that n8n can pair an item of the Error output with its input item.
	 */
	onError?: INode['onError'];
	/**
	 * The node's version. Version 1 when not given: the suites written for it hold its output unchanged
	 * for existing workflows; version 2's Output choice has its own tests.
	 */
	typeVersion?: number;
	/** What n8n's server would push to the editor during the run (the run is a manual one). */
	sendDataToUI?: IWorkflowExecuteAdditionalData['sendDataToUI'];
	/**
	 * Retry On Fail on, with these Max Tries and Wait Between Tries: n8n-core's WorkflowExecute runs the
	 * node again itself when it throws or its first output item holds an error. (n8n reads a Wait of 0
	 * as its default, 1000 ms: a test waits 1 ms.)
	 */
	retry?: RetrySettings;
	/** The execution's ID (`this.getExecutionId()`); a new one for each run when not given. */
	executionId?: string;
}

export interface RunResult {
	output: INodeExecutionData[];
	/** The Error output, with "Continue (using error output)". */
	errorOutput: INodeExecutionData[];
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	requests: SentRequest[];
	/** The hints the node gave for the output panel. */
	hints: NodeExecutionHint[];
}

const CREDENTIAL_TYPE = 'maintenanceManagementApi';

/** The node whose output is the input of a node with "Continue (using error output)". */
const UPSTREAM = 'Rows';

/** Runs a node over the given items in n8n-core and returns its output, its error, and what it sent. */
export async function runNode(options: RunOptions): Promise<RunResult> {
	const { workflow, node, additionalData, sent } = createEngine({
		nodeType: options.node,
		parameters: options.parameters as INodeParameters,
		credentials: { [CREDENTIAL_TYPE]: { ...options.credentials } },
		continueOnFail: options.continueOnFail,
		onError: options.onError,
		upstream: options.onError === 'continueErrorOutput' ? UPSTREAM : undefined,
		typeVersion: options.typeVersion ?? 1,
		sendDataToUI: options.sendDataToUI,
		retry: options.retry,
		executionId: options.executionId,
	});
	const items = (options.items ?? [{}]).map((json, index) => ({
		json,
		pairedItem: { item: index },
	}));
	// The node before it has run and output the items, as n8n's run data keeps them.
	const upstream = options.onError === 'continueErrorOutput';
	const runExecutionData = createRunExecutionData({
		resultData: {
			runData: upstream
				? {
						[UPSTREAM]: [
							{
								startTime: 0,
								executionTime: 0,
								executionIndex: 0,
								source: [],
								data: { main: [items] },
							},
						],
					}
				: {},
		},
		executionData: {
			nodeExecutionStack: [
				{
					node,
					data: { main: [items] },
					source: upstream ? { main: [{ previousNode: UPSTREAM }] } : null,
				},
			],
		},
	});
	const run = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	const task = run.data.resultData.runData[node.name]?.[0];
	const error = (task?.error ?? run.data.resultData.error) as RunResult['error'];
	return {
		output: task?.data?.main[0] ?? [],
		errorOutput: task?.data?.main[1] ?? [],
		error,
		requests: sent,
		hints: task?.hints ?? [],
	};
}

/** A load-options context from n8n-core, for list-search methods. */
export function loadOptionsContext(
	nodeType: INodeType,
	credentials: Credentials,
	requests: SentRequest[] = [],
): ILoadOptionsFunctions {
	const { workflow, node, additionalData } = createEngine({
		nodeType,
		parameters: {},
		credentials: { [CREDENTIAL_TYPE]: { ...credentials } },
		sent: requests,
	});
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters');
}

/**
 * Update or Additional Fields mapped from each input item's `fields` object by expressions, as a user
 * maps them in the editor: a field the item lacks resolves to undefined and is left out.
 */
export const fromInput = (...names: string[]): Record<string, string> =>
	Object.fromEntries(names.map((name) => [name, `={{ $json.fields.${name} }}`]));

/**
 * A value given by an expression rather than typed: n8n checks typed values of required fields and
 * ID locators before it runs a node, but an expression's result reaches the node's own checks.
 */
export const expr = (value: unknown): string => `={{ ${JSON.stringify(value)} }}`;
