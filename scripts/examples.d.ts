/** A workflow as a template in workflows/ holds it, and as n8n's import:workflow reads it. */
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
	/** A template holds none (scripts/verify/templateRules.ts). */
	pinData?: Record<string, unknown>;
}

/** A template of workflows/ as the file holds it: no IDs, credentials by name only. */
export type Template = Omit<ExampleWorkflow, 'id' | 'nodes'> & {
	nodes: Array<
		Omit<ExampleWorkflow['nodes'][number], 'id' | 'webhookId' | 'credentials'> & {
			credentials?: Record<string, { name: string }>;
		}
	>;
};

/** The template in workflows/ of that file name. */
export function template(file: string): Template;

/** Each template's file in workflows/, by the ID npm run dev imports it under. */
export const TEMPLATES: Record<string, string>;

/** The trigger node's type. */
export const TRIGGER: string;

/** The credentials npm run dev imports, by credential type. */
export const DEV_CREDENTIALS: Record<string, { id: string; name: string }>;

/** The templates as npm run dev imports them, the events example's trigger under `webhookId`. */
export function exampleWorkflows(webhookId?: string): ExampleWorkflow[];

/** The events example's default webhook ID (dev passes its own, random for each dev folder). */
export const WEBHOOK_ID: string;

/** The webhook ID of the approval example's trigger. */
export const APPROVAL_WEBHOOK_ID: string;
