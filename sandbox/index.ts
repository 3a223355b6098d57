import type { ContractViolation } from './contract';
import { Control } from './control';
import { Deliveries } from './deliveries';
import { TOKENS, type Environment, type SandboxOptions } from './options';
import { ApiHandler } from './apiHandler';
import { SandboxServer } from './server';
import { ApiState } from './state';

export type { Delivery } from './deliveries';
export {
	parsePageCaps,
	TOKENS,
	type Environment,
	type PageCaps,
	type SandboxOptions,
} from './options';
export type { LoggedRequest } from './state';

export interface EnvironmentInfo {
	baseUrl: string;
	token: string;
	readOnlyToken: string;
}

export interface RunningSandbox {
	url: string;
	controlUrl: string;
	/** The console: a web page to register webhooks, act as the service's users and fire events. */
	consoleUrl: string;
	environments: Record<Environment, EnvironmentInfo>;
	/** The contract violations seen since the start or the last clearViolations (contract mode only). */
	violations(): ContractViolation[];
	clearViolations(): void;
	close(): Promise<void>;
}

/**
 * Starts the sandbox: every endpoint of spec/openapi.yaml under /production/v3 and /sandbox/v3, and
 * the control API under /__sandbox. The API's state (state.ts), the API (apiHandler.ts), the control API
 * (control.ts), the webhook deliveries (deliveries.ts) and the HTTP server (server.ts) each do one job;
 * this only puts them together.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const deliveries = new Deliveries(options.deliveryTimeoutMs);
	const state = new ApiState(options);
	const control = new Control(options, state, deliveries);
	const server = new SandboxServer(options, new ApiHandler(options, state, deliveries), control);
	const url = await server.listen();
	return {
		url,
		controlUrl: `${url}/__sandbox`,
		consoleUrl: `${url}/__sandbox/console`,
		environments: {
			production: { baseUrl: `${url}/production/v3`, ...TOKENS.production },
			sandbox: { baseUrl: `${url}/sandbox/v3`, ...TOKENS.sandbox },
		},
		violations: () => [...state.violations],
		clearViolations: () => state.clearViolations(),
		close: async () => {
			await deliveries.close();
			await server.close();
		},
	};
}
