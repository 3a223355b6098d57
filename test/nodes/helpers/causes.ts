import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { ScriptedServer } from '../../helpers/scriptedServer';
import { runNode, type Credentials, type RunResult } from './harness';

const node = new MaintenanceManagement();

/**
 * The node run in n8n-core against a scripted API, for reading the causes its errors declare: a list,
 * a read and a write, and an API whose rate limit is spent for an hour.
 */
export class CausesFixture {
	readonly server = new ScriptedServer();

	credentials!: Credentials;

	async start(): Promise<void> {
		await this.server.start();
		this.credentials = {
			accessToken: 'tok_causes_7d1e4f0a9b',
			environment: 'production',
			productionBaseUrl: `${this.server.url}/v3`,
		};
	}

	async stop(): Promise<void> {
		await this.server.stop();
	}

	/** Location → Get Many, with the given Request Options. */
	listLocations = (creds = this.credentials, requestOptions = {}): Promise<RunResult> =>
		runNode({
			node,
			credentials: creds,
			parameters: { resource: 'location', operation: 'getAll', requestOptions },
		});

	/** Location → Get of location 3, once for each item (one when none are given). */
	getLocation = (
		creds = this.credentials,
		items?: Array<Record<string, never>>,
	): Promise<RunResult> =>
		runNode({
			node,
			credentials: creds,
			parameters: {
				resource: 'location',
				operation: 'get',
				id: { __rl: true, mode: 'id', value: '3' },
			},
			items,
		});

	/** Material Type → Create: a write. */
	createMaterialType = (creds = this.credentials): Promise<RunResult> =>
		runNode({
			node,
			credentials: creds,
			parameters: {
				resource: 'materialType',
				operation: 'create',
				name: 'Bolts',
				code: 'BOLT',
				parent_id: '1',
			},
			typeVersion: 2,
		});

	/**
	 * Two reads of location 3 where the API's first answer says its limit is spent for an hour: the
	 * second is not sent. Gives the run and the reset the API gave, in epoch milliseconds.
	 */
	async readPastSpentLimit(): Promise<{ result: RunResult; resetMs: number }> {
		const reset = Math.ceil(Date.now() / 1000) + 3600;
		this.server.reset(() => ({
			status: 200,
			headers: { 'X-Ratelimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) },
			body: { data: { id: '3', type: 'location', attributes: {} } },
		}));
		const result = await this.getLocation(this.credentials, [{}, {}]);
		return { result, resetMs: reset * 1000 };
	}
}
