/**
 * One measured run, in a process of its own so its peak memory is its own. Prints one JSON line: its
 * time, the CPU time it took (user and system), the records and the peak RSS.
 *   tsx bench/child.ts node|raw <baseUrl> <token> [simplified|raw]   Return All of the work orders:
 *     the node (version 1, Simplify on; version 2 with the Output given, warm), or the plain fetch
 *     loop (warm)
 *   tsx bench/child.ts locations|locationsRaw <baseUrl> <token> <count>   PATCH /locations
 */
import type { MaintenanceManagement as ActionNode } from '../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { runNode } from '../test/nodes/helpers/harness';

// The built bundle, as n8n loads it. (By its bare name, tsx would resolve the node's source to its
// codex file, MaintenanceManagement.node.json, which sits beside it.)
const { MaintenanceManagement } = module.require(
	'../dist/nodes/MaintenanceManagement/MaintenanceManagement.node.js',
) as { MaintenanceManagement: typeof ActionNode };

const [mode, baseUrl, token, countText] = process.argv.slice(2);
const credentials = {
	accessToken: token,
	environment: 'sandbox' as const,
	sandboxBaseUrl: baseUrl,
};
const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };

/** The anchor: the same page requests, limit 2000, with a plain fetch loop that keeps the records. */
async function rawReturnAll(): Promise<number> {
	const records: unknown[] = [];
	for (let page = 1; ; page++) {
		const response = await fetch(`${baseUrl}/failures?page=${page}&limit=2000`, { headers });
		const body = (await response.json()) as { data: unknown[] };
		for (const record of body.data) records.push(record);
		if (body.data.length < 2000) return records.length;
	}
}

/** The IDs of the first `count` locations PATCH /locations updates (locations and folders, no building). */
async function updatableLocationIds(count: number): Promise<number[]> {
	const response = await fetch(`${baseUrl}/locations?limit=2000`, { headers });
	const body = (await response.json()) as { data: Array<{ id: string; type: string }> };
	const ids = body.data.filter((l) => l.type !== 'building').map((l) => Number(l.id));
	if (ids.length < count) throw new Error(`Only ${ids.length} locations can be updated`);
	return ids.slice(0, count);
}

/** A Return All of version 2 with this Output, or the first `limit` work orders. */
const readWorkOrders = async (output: string, limit?: number) =>
	await runNode({
		node: new MaintenanceManagement(),
		credentials,
		parameters: {
			resource: 'failure',
			operation: 'getAll',
			output,
			...(limit ? { returnAll: false, limit } : { returnAll: true }),
		},
		typeVersion: 2,
	});

/**
 * The Return All rows time each side warm, as n8n runs a node: one read of a single work order first
 * loads what a first run in a process loads (n8n-core's execution and request helper for the node,
 * fetch for the loop).
 */
async function warmUp(): Promise<void> {
	if (mode === 'raw') await (await fetch(`${baseUrl}/failures?page=1&limit=1`, { headers })).json();
	else if (mode === 'node' && countText) await readWorkOrders(countText, 1);
}

async function main(): Promise<void> {
	const ids = mode.startsWith('locations') ? await updatableLocationIds(Number(countText)) : [];
	await warmUp();
	const started = performance.now();
	const cpu = process.cpuUsage();
	let records = 0;
	if (mode === 'node') {
		// Version 2 with the Output the fourth argument gives; version 1 (Simplify on) without it.
		const { output, error } = countText
			? await readWorkOrders(countText)
			: await runNode({
					node: new MaintenanceManagement(),
					credentials,
					parameters: { resource: 'failure', operation: 'getAll', returnAll: true },
				});
		if (error) throw error;
		records = output.length;
	} else if (mode === 'raw') {
		records = await rawReturnAll();
	} else if (mode === 'locations') {
		const { output, error } = await runNode({
			node: new MaintenanceManagement(),
			credentials,
			items: ids.map((id) => ({ id })),
			parameters: {
				resource: 'location',
				operation: 'updateMany',
				id: { __rl: true, mode: 'id', value: '={{ String($json.id) }}' },
				updateFields: { observation: '={{ "Checked " + $itemIndex }}' },
			},
		});
		if (error) throw error;
		records = output.length;
	} else if (mode === 'locationsRaw') {
		for (const id of ids) {
			const response = await fetch(`${baseUrl}/locations`, {
				method: 'PATCH',
				headers: { ...headers, 'Content-Type': 'application/json' },
				body: JSON.stringify({ locations: [{ id, observation: `Checked ${id}` }] }),
			});
			await response.json();
			records++;
		}
	}
	const ms = performance.now() - started;
	const { user, system } = process.cpuUsage(cpu);
	process.stdout.write(
		`${JSON.stringify({ ms, cpuMs: (user + system) / 1000, records, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
	);
}

void main();
