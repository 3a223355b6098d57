import type { ExampleWorkflow } from './examples';

/** A workflow of n8n's database, a published one with the nodes of its published version. */
export interface StoredWorkflow {
	id: string;
	name: string;
	versionId: string;
	published: boolean;
	nodes: Array<{
		name: string;
		type: string;
		webhookId?: string;
		disabled?: boolean;
		parameters?: Record<string, unknown>;
		credentials?: Record<string, { id: string; name?: string }>;
	}>;
}

/** A registration for the sandbox's control API, and the workflow it is for. */
export interface Registration {
	workflow: string;
	url: string;
	method: 'POST';
	events: string[];
	headers: Record<string, string>;
}

/** The example dev publishes itself. */
export const PUBLISHED_BY_DEV: string;
/** The workflows of n8n's database (none when it does not exist yet), read with the pinned Node. */
export function readWorkflows(node: string, database: string): StoredWorkflow[];
/** The examples the user changed since dev imported them (`imported`: version by ID). */
export function changedExamples(
	workflows: StoredWorkflow[],
	examples: ExampleWorkflow[],
	imported: Record<string, string>,
): ExampleWorkflow[];
/** The original of a changed example, imported beside it. */
export function originalOf(example: ExampleWorkflow): ExampleWorkflow;
/** The versions of the examples dev imported, kept in the user folder. */
export const importedVersions: {
	read(file: string): Record<string, string>;
	write(file: string, versions: Record<string, string>): void;
};
/**
 * The registrations of the published workflows' triggers, at the paths n8n serves them, for the events
 * each takes; and those dev cannot make, with why and what to do.
 */
export function registrationsFor(
	workflows: StoredWorkflow[],
	origin: string,
	secret: string,
): { registrations: Registration[]; skipped: Array<{ workflow: string; why: string }> };
