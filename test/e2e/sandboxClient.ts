import { startSandbox, type LoggedRequest, type RunningSandbox } from '../../sandbox';
import { operationCases } from '../cases/operations';

/**
 * The sandbox an n8n suite runs against (4,500 work orders, so Return All reads three pages), its control
 * API, and the operation cases, which prepare their records through that API. It checks every request
 * and answer against spec/openapi.yaml.
 */
export class SandboxClient {
	private running?: RunningSandbox;

	get sandbox(): RunningSandbox {
		if (!this.running) throw new Error('The sandbox is not started');
		return this.running;
	}

	async start(): Promise<void> {
		this.running = await startSandbox({
			port: 0,
			seed: { failures: 4500 },
			quiet: true,
			contract: true,
			// n8n on a loaded machine can take longer than the sandbox's default 10 s to answer a delivery.
			deliveryTimeoutMs: 120_000,
		});
	}

	async close(): Promise<void> {
		await this.running?.close();
	}

	readonly control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
		const response = await fetch(`${this.sandbox.controlUrl}${path}`, {
			method,
			headers: { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return await response.json();
	};

	readonly requests = async (): Promise<LoggedRequest[]> =>
		((await this.control('GET', '/requests')) as { requests: LoggedRequest[] }).requests;

	/**
	 * Subscribes the trigger's URLs to events: by POST for Work Order Created and File Deleted and by
	 * PATCH for Buy Order Updated at `url`, and by POST for Work Order Created at `wrongSecretUrl`.
	 */
	async subscribeTrigger(url: string, wrongSecretUrl: string): Promise<void> {
		await this.control('POST', '/webhooks', {
			url,
			method: 'POST',
			events: ['FAILURE_CREATED', 'FILE_DELETED'],
		});
		await this.control('POST', '/webhooks', {
			url,
			method: 'PATCH',
			events: ['BUY_ORDER_UPDATED'],
		});
		await this.control('POST', '/webhooks', {
			url: wrongSecretUrl,
			method: 'POST',
			events: ['FAILURE_CREATED'],
		});
	}

	/** Sends an event from the sandbox; returns the status each subscribed URL answered. */
	async deliver(event: string, data?: unknown): Promise<number[]> {
		const sent = (await this.control('POST', '/events', { event, data })) as {
			deliveries: Array<{ status: number }>;
		};
		return sent.deliveries.map((delivery) => delivery.status);
	}

	readonly cases = operationCases(
		(method, path) => this.control(method, path),
		async (_collection, id) => {
			const { baseUrl, token } = this.sandbox.environments.sandbox;
			const response = await fetch(`${baseUrl}/locations/${id}`, {
				headers: { Authorization: `Bearer ${token}` },
			});
			const { data } = (await response.json()) as { data: { attributes: Record<string, unknown> } };
			return data.attributes as never;
		},
	);
}
