import type { IDataObject } from 'n8n-workflow';

import type { OperationCase } from '../cases/operations';
import { actionsWorkflow, bulkWorkflow, markParameters, triggerWorkflow } from '../e2e/workflows';

export const ACTIONS_PATH = 'every-operation';
export const BULK_PATH = 'bulk-materials';

interface Workflow {
	id: string;
	name: string;
	nodes: IDataObject[];
	connections: IDataObject;
}

/**
 * A Set node that records which n8n process ran the execution: every process of the suite has its name
 * in MM_PROCESS, so the stored execution itself says whether a worker ran it.
 */
const ranOn = (position: number[], fields: IDataObject = {}) => ({
	id: 'ran-on',
	name: 'Ran On',
	type: 'n8n-nodes-base.set',
	typeVersion: 3.4,
	position,
	parameters: {
		assignments: {
			assignments: [
				{ id: 'process', name: 'process', value: '={{ $env.MM_PROCESS }}', type: 'string' },
				...Object.entries(fields).map(([name, value]) => ({
					id: name,
					name,
					value,
					type: 'string',
				})),
			],
		},
		options: {},
	},
});

const connect = (workflow: Workflow, from: string, to: string) => {
	const outputs = workflow.connections[from] as {
		main: Array<Array<{ node: string; type: string; index: number }>>;
	};
	outputs.main[0].push({ node: to, type: 'main', index: 0 });
};

/**
 * A workflow started by n8n's Webhook node at `path` instead of by hand (in queue mode the webhook process
 * takes the call and a worker runs the workflow), with a Ran On node beside the rest.
 */
function onWebhook(workflow: Workflow, path: string, webhookId: string): Workflow {
	const start = workflow.nodes.findIndex((node) => node.name === 'Start');
	workflow.nodes[start] = {
		id: 'start',
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
	workflow.nodes.push(ranOn([200, -120]));
	connect(workflow, 'Start', 'Ran On');
	return workflow;
}

/** Every operation, as in the end-to-end suite, called on the webhook process. */
export function actionsOnWebhook(cases: OperationCase[]) {
	const workflow = actionsWorkflow(cases) as Workflow;
	onWebhook(workflow, ACTIONS_PATH, '0b7c4f5e-2d1a-4e8b-9c3f-6a5d4e3b2c1d');
	return { ...workflow, id: 'mmQueueActions01', name: 'Every operation on a worker' };
}

/** The end-to-end bulk create of `count` materials, called on the webhook process with a code prefix. */
export function bulkOnWebhook(count: number) {
	const workflow = bulkWorkflow('mmQueueBulk01', count, 'QUEUE') as unknown as Workflow;
	onWebhook(workflow, BULK_PATH, '5d2e8f1a-3b4c-4d5e-8f6a-7b8c9d0e1f2a');
	return { ...workflow, name: 'Bulk create on a worker' };
}

/**
 * The end-to-end bulk create of `count` materials (codes MANUAL-0001…), started by hand as the
 * editor's Execute Workflow starts it, with a Ran On node beside the rest.
 */
export function bulkManual(count: number) {
	const workflow = bulkWorkflow('mmQueueManual01', count, 'MANUAL') as unknown as Workflow;
	workflow.nodes.push(ranOn([200, -120]));
	connect(workflow, 'Start', 'Ran On');
	return { ...workflow, name: 'Bulk create by hand' };
}

/**
 * The end-to-end trigger workflow, with the work order's ID and the process's name added to the marker
 * each run sends to the sandbox, and a Ran On node that stores them in the execution.
 */
export function triggerOnWorkers() {
	const workflow = triggerWorkflow() as Workflow;
	const mark = workflow.nodes.find((node) => node.name === 'Mark') as { parameters: IDataObject };
	mark.parameters = markParameters(
		'={{ $json.event }}:{{ $json.method }}:{{ $json.payload.data.id }}:{{ $env.MM_PROCESS }}',
	);
	workflow.nodes.push(
		ranOn([300, 160], { workOrder: '={{ $json.payload.data.id }}', method: '={{ $json.method }}' }),
	);
	connect(workflow, 'Events', 'Ran On');
	return { ...workflow, id: 'mmQueueTrigger01', name: 'Webhook events on workers' };
}
