/** A workflow as n8n's import:workflow reads it. */
export interface ExampleWorkflow {
	id: string;
	name: string;
	nodes: Array<{
		id: string;
		name: string;
		type: string;
		typeVersion: number;
		position: [number, number];
		parameters: Record<string, unknown>;
		webhookId?: string;
		onError?: string;
		credentials?: Record<string, { id: string; name: string }>;
	}>;
	connections: Record<string, unknown>;
	settings: Record<string, unknown>;
	pinData: Record<string, unknown>;
}

/** The manual trigger a workflow starts from. */
export const MANUAL_TRIGGER: ExampleWorkflow['nodes'][number];

/** The example workflows that npm run dev imports on every start. */
export function exampleWorkflows(webhookId?: string): ExampleWorkflow[];

/** The events example's default webhook ID (dev passes its own, random for each dev folder). */
export const WEBHOOK_ID: string;

/** The webhook ID of the approval example's trigger. */
export const APPROVAL_WEBHOOK_ID: string;

/** The rows of the ERP example's Code node; two of them are bad on purpose. */
export const ERP_ROWS: Array<{ code: string; name: string; units: string; type_id: number }>;
