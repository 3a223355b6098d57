import type { IDataObject } from 'n8n-workflow';

import { apiError, collectionPage, ScriptedServer, type Reply } from '../helpers/scriptedServer';
import { apiCredential, packageNode, START, storedAs } from './workflows';

/**
 * A misbehaving API on loopback for the end-to-end suite: one location that redirects to another
 * origin, a collection whose page size the server caps below what is asked, a location whose first
 * read drops the connection, and one whose answer trickles in, a byte every 0.1 s, for seconds. The
 * real n8n runs the action node against it.
 */

export const HOSTILE_CREDENTIAL = { id: 'mmApiHostile0001', name: 'Misbehaving API' };
export const HOSTILE_TOKEN = 'tok-hostile-e2e-51b7c2d9a4e8';
export const CAPPED_TOTAL = 250;
export const PAGE_CAP = 100;

const location = (id: string) => ({ id, type: 'location', attributes: { name: `Location ${id}` } });

export class HostileApi {
	readonly api = new ScriptedServer();
	/** Where the redirect points: it must never be asked anything. */
	readonly elsewhere = new ScriptedServer();
	private dropped = false;

	async start(): Promise<void> {
		await this.api.start();
		await this.elsewhere.start();
		this.api.reset((request) => this.answer(request.path, request.query));
	}

	async stop(): Promise<void> {
		await this.api.stop();
		await this.elsewhere.stop();
	}

	private answer(path: string, query: Record<string, string>): Reply {
		if (path === '/v3/locations/1')
			return { status: 302, headers: { Location: `${this.elsewhere.url}/v3/locations/1` } };
		if (path === '/v3/locations/2') {
			if (!this.dropped) {
				this.dropped = true;
				return 'drop';
			}
			return { status: 200, body: { data: location('2') } };
		}
		if (path === '/v3/locations/3')
			return { status: 200, body: { data: location('3') }, trickleMs: 100 };
		if (path === '/v3/locations') {
			const page = collectionPage(CAPPED_TOTAL, Number(query.page), PAGE_CAP, {
				path: 'locations',
			});
			return { status: 200, body: page };
		}
		return apiError(404, { message: 'Resource not found' });
	}

	credential() {
		return apiCredential(`${this.api.url}/v3`, HOSTILE_TOKEN, HOSTILE_CREDENTIAL, 'production');
	}
}

/** The Timeout of the read whose answer trickles in: far above a wait for one byte, far below the whole answer. */
export const TRICKLE_TIMEOUT_SECONDS = 1;

/** Four branches from a manual trigger, each continuing on fail so every outcome is stored. */
export function hostileWorkflow() {
	const node = (name: string, y: number, parameters: IDataObject) =>
		packageNode('hostile', name, parameters, {
			position: [400, y],
			credential: HOSTILE_CREDENTIAL,
			onError: 'continueRegularOutput',
		});
	const get = (id: string) => ({
		resource: 'location',
		operation: 'get',
		id: { __rl: true, mode: 'id', value: id },
	});
	const branches = [
		node('Redirect Elsewhere', 0, get('1')),
		node('Capped Return All', 120, { resource: 'location', operation: 'getAll', returnAll: true }),
		node('Dropped Read', 240, get('2')),
		node('Trickled Read', 360, {
			...get('3'),
			requestOptions: { timeoutSeconds: TRICKLE_TIMEOUT_SECONDS, maxAttempts: 1 },
		}),
	];
	return {
		...storedAs('mmE2eHostile0001'),
		name: 'Misbehaving API',
		nodes: [START, ...branches],
		connections: {
			Start: { main: [branches.map(({ name }) => ({ node: name, type: 'main', index: 0 }))] },
		},
	};
}
