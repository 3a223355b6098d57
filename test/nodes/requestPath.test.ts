import { Session } from 'node:inspector/promises';
import { relative, resolve } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { startSandbox, type RunningSandbox } from '../../sandbox';
import { runNode } from './helpers/harness';

/**
 * How many of the package's files one row's request runs through: the files in which one Material →
 * Create row, run in n8n-core, runs code that loading the node (requiring it and reading its description)
 * did not run. V8's precise coverage counts each function's calls; the counts are reset after loading,
 * so what is left is the row's own path. A maintainer who spreads one request over more files than one
 * can read in a sitting sees the list here.
 */

const MOST_FILES = 18;
const ROOT = resolve(__dirname, '../..');
const PACKAGE_FILE = /^(nodes|credentials)\//;

let sandbox: RunningSandbox;
const session = new Session();

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true, contract: true });
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
});

afterAll(async () => {
	await session.post('Profiler.stopPreciseCoverage');
	session.disconnect();
	await sandbox.close();
});

/** The package's files in which a function ran since the last call (taking coverage resets the counts). */
async function filesRun(): Promise<string[]> {
	const { result } = await session.post('Profiler.takePreciseCoverage');
	return result
		.filter((script) => script.functions.some((fn) => fn.ranges[0].count > 0))
		.map((script) => relative(ROOT, script.url.replace(/^file:\/\//, '')))
		.filter((file) => PACKAGE_FILE.test(file))
		.sort();
}

it(`Material → Create runs code in at most ${MOST_FILES} files beyond loading the node`, async () => {
	// Loading, as n8n's loader does it: the node's module, an instance and its description.
	const { MaintenanceManagement } =
		(await import('../../nodes/MaintenanceManagement/MaintenanceManagement.node')) as {
			MaintenanceManagement: new () => INodeType;
		};
	const node = new MaintenanceManagement();
	const loaded = await filesRun();
	expect(loaded).toContain('nodes/MaintenanceManagement/MaintenanceManagement.node.ts');

	const { sandbox: environment } = sandbox.environments;
	const { output, error } = await runNode({
		node,
		typeVersion: node.description.defaultVersion,
		credentials: {
			accessToken: environment.token,
			environment: 'sandbox',
			sandboxBaseUrl: environment.baseUrl,
		},
		parameters: {
			resource: 'material',
			operation: 'create',
			material_type_id: 2,
			name: 'Hex bolt M8',
			code: 'BOLT-M8',
			units: 'unit',
			additionalFields: {},
		},
	});
	const path = await filesRun();

	expect(error).toBeUndefined();
	expect(output).toHaveLength(1);
	expect(path).toContain('nodes/MaintenanceManagement/actions/material/create.operation.ts');
	if (path.length > MOST_FILES) {
		throw new Error(
			`One Material → Create row runs code in ${path.length} files (at most ${MOST_FILES}):\n${path.join('\n')}`,
		);
	}
});
