import type { IDataObject, INode } from 'n8n-workflow';

import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { startSandbox, type RunningSandbox } from '../../../sandbox';
import type { ContractViolation } from '../../../sandbox/contract';
import { keepsContract } from '../../helpers/contract';
import { runNode, type Credentials, type RunOptions, type RunResult } from './harness';

export interface SandboxLog {
	method: string;
	path: string;
	query: Record<string, string>;
	body: unknown;
	status: number;
	env: string;
}

/** How a test runs the action node against the sandbox: input items, Continue On Fail, the read-only token. */
export interface RunAgainst {
	items?: IDataObject[];
	continueOnFail?: boolean;
	/** The node's On Error setting, for "Continue (using error output)". */
	onError?: INode['onError'];
	readOnly?: boolean;
	/** The node's version; 1 when not given (see runNode). */
	typeVersion?: number;
	/** What n8n's server would push to the editor during the run. */
	sendDataToUI?: RunOptions['sendDataToUI'];
	/** The node's Retry On Fail settings (see runNode). */
	retry?: RunOptions['retry'];
	/** The execution's ID; a new one for each run when not given. */
	executionId?: string;
}

const actionNode = new MaintenanceManagement();

/**
 * A sandbox started for one test file, with helpers to run the action node and to read and clear its request
 * log. The sandbox checks every request and answer against spec/openapi.yaml: a test fails on a violation.
 */
export class SandboxFixture {
	sandbox!: RunningSandbox;

	constructor() {
		keepsContract(() => this.sandbox);
	}

	async start(seed?: Record<string, number>): Promise<void> {
		this.sandbox = await startSandbox({ port: 0, seed, quiet: true, contract: true });
	}

	async stop(): Promise<void> {
		await this.sandbox.close();
	}

	get credentials(): Credentials {
		const { sandbox } = this.sandbox.environments;
		return { accessToken: sandbox.token, environment: 'sandbox', sandboxBaseUrl: sandbox.baseUrl };
	}

	get readOnlyCredentials(): Credentials {
		return { ...this.credentials, accessToken: this.sandbox.environments.sandbox.readOnlyToken };
	}

	/** Runs the action node against this sandbox, with its full-access token or, with readOnly, its read-only one. */
	async run(parameters: Record<string, unknown>, options: RunAgainst = {}): Promise<RunResult> {
		return await runNode({
			node: actionNode,
			credentials: options.readOnly ? this.readOnlyCredentials : this.credentials,
			parameters,
			items: options.items,
			continueOnFail: options.continueOnFail,
			onError: options.onError,
			typeVersion: options.typeVersion,
			sendDataToUI: options.sendDataToUI,
			retry: options.retry,
			executionId: options.executionId,
		});
	}

	/** Returns and clears the contract violations seen so far: for a test that sends one on purpose. */
	takeViolations(): ContractViolation[] {
		const violations = this.sandbox.violations();
		this.sandbox.clearViolations();
		return violations;
	}

	async control(method: string, path: string, body?: unknown): Promise<unknown> {
		const response = await fetch(`${this.sandbox.controlUrl}${path}`, {
			method,
			headers: { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return await response.json();
	}

	async requests(): Promise<SandboxLog[]> {
		return ((await this.control('GET', '/requests')) as { requests: SandboxLog[] }).requests;
	}

	async clear(): Promise<void> {
		await this.control('DELETE', '/requests');
	}

	async reset(body: Record<string, unknown> = {}): Promise<void> {
		await this.control('POST', '/reset', body);
	}
}
