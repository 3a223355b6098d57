import { createRequire } from 'node:module';
import { join } from 'node:path';

import { N8N_NODE_MODULES, type ExecutionResult } from '../e2e/n8n';

interface Client {
	connect(): Promise<void>;
	query<T>(text: string, values?: unknown[]): Promise<{ rows: T[] }>;
	end(): Promise<void>;
}

// The PostgreSQL driver and the run-data format are n8n's own, read from its install.
const load = createRequire(__filename);
const { Client: PgClient } = load(join(N8N_NODE_MODULES, 'pg')) as {
	Client: new (options: object) => Client;
};
const flatted = load(join(N8N_NODE_MODULES, 'flatted')) as { parse: (text: string) => unknown };

export interface StoredExecution extends ExecutionResult {
	id: number;
	mode: string;
	status: string;
}

/** n8n's executions as its PostgreSQL database stores them. */
export class ExecutionStore {
	private readonly client: Client;

	constructor(
		port: number,
		readonly database = 'n8n',
	) {
		this.client = new PgClient({ host: '127.0.0.1', port, user: 'postgres', database });
	}

	async connect(): Promise<void> {
		await this.client.connect();
	}

	async close(): Promise<void> {
		await this.client.end();
	}

	/** Every execution of a workflow, oldest first, with its run data. */
	async executions(workflowId: string): Promise<StoredExecution[]> {
		const { rows } = await this.client.query<{
			id: string;
			mode: string;
			status: string;
			data: string | null;
		}>(
			`SELECT e.id, e.mode, e.status, d.data FROM execution_entity e
			 LEFT JOIN execution_data d ON d."executionId" = e.id
			 WHERE e."workflowId" = $1 ORDER BY e.id`,
			[workflowId],
		);
		return rows.map((row) => ({
			id: Number(row.id),
			mode: row.mode,
			status: row.status,
			data: (row.data
				? flatted.parse(row.data)
				: { resultData: { runData: {} } }) as StoredExecution['data'],
		}));
	}
}
