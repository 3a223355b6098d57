import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

import type { INodeProperties } from 'n8n-workflow';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import type { LoggedRequest } from '../../sandbox';
import { expectCaseRan } from './assertions';
import { inTurn, N8nInstance, outputOf, type ExecutionResult } from './n8n';
import { SandboxClient } from './sandboxClient';
import { caseNodeName, credentials, packageNode, START, storedAs } from './workflows';

/*
 * n8n 2.41 runs a regular expression of a node's description (a locator mode's `validation`) in a vm
 * with a 250 ms wall-clock limit, which a loaded machine exceeds: the execution fails with "Regular
 * expression execution timed out". The package's By ID modes have no such check: the node checks the
 * ID itself. Here every operation with a record locator runs, its locator By ID, beside one CPU-bound
 * process per core, in the n8n under test.
 */

jest.setTimeout(600_000);

const WORKFLOW_ID = 'mmE2eLocators001';
/** A node whose By ID is not a whole number: n8n lets it through to the node, which refuses it. */
const NOT_AN_ID = 'Not A Whole Number';

/** Every record locator of the action node: its resource, operation and parameter name. */
const LOCATORS = new MaintenanceManagement().description.properties
	.filter((property): property is INodeProperties => property.type === 'resourceLocator')
	.map(({ name, displayOptions }) => ({
		name,
		resource: (displayOptions?.show?.resource as string[])[0],
		operation: (displayOptions?.show?.operation as string[])[0],
	}));

const n8n = new N8nInstance('locators');
const api = new SandboxClient();
/** The locator operations' cases, each locator By ID, with the value its case gives. */
const cases = LOCATORS.map(({ name, resource, operation }) => {
	const testCase = api.cases.find((c) => c.resource === resource && c.operation === operation)!;
	const { value } = testCase.parameters[name] as { value: string };
	return {
		...testCase,
		parameters: { ...testCase.parameters, [name]: { __rl: true, mode: 'id', value } },
	};
});

function locatorsWorkflow() {
	const nodes = [
		START,
		...cases.map((testCase, index) =>
			packageNode(
				'locator',
				caseNodeName(testCase),
				{ resource: testCase.resource, operation: testCase.operation, ...testCase.parameters },
				{ position: [300, index * 120] },
			),
		),
		packageNode(
			'locator',
			NOT_AN_ID,
			{ resource: 'location', operation: 'get', id: { __rl: true, mode: 'id', value: 'R3' } },
			{ position: [300, cases.length * 120], onError: 'continueRegularOutput' },
		),
	];
	const targets = nodes.slice(1).map((node) => ({ node: node.name, type: 'main', index: 0 }));
	return {
		...storedAs(WORKFLOW_ID),
		name: 'Every operation with a record locator',
		nodes,
		connections: { Start: { main: [targets] } },
	};
}

/**
 * One process per core that keeps it busy until it is killed, or until this process, whose pid it is
 * given, is no longer its parent (it checks between runs of its loop): however the test ends, they end.
 */
const BUSY_LOOP =
	'const parent = Number(process.argv[1]); for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent) process.exit(0); }';
const burners: ChildProcess[] = [];
const stopBurners = async () =>
	await Promise.all(
		burners.map(async (burner) => {
			if (burner.exitCode !== null || burner.signalCode !== null) return;
			const exited = new Promise((resolve) => burner.once('exit', resolve));
			burner.kill('SIGKILL');
			await exited;
		}),
	);

let run: ExecutionResult;
let logged: LoggedRequest[];
/** Whether every busy process was still running when the execution ended. */
let busyThroughout: boolean[];

beforeAll(async () => {
	await api.start();
	await n8n.setup();
	const { baseUrl, token } = api.sandbox.environments.sandbox;
	await n8n.importFiles(credentials(baseUrl, token), [locatorsWorkflow()]);
	for (let core = 0; core < availableParallelism(); core++)
		burners.push(
			spawn(process.execPath, ['-e', BUSY_LOOP, String(process.pid)], { stdio: 'ignore' }),
		);
	run = await n8n.execute(WORKFLOW_ID);
	busyThroughout = burners.map((burner) => burner.exitCode === null && burner.signalCode === null);
	await stopBurners();
	logged = await api.requests();
});

afterAll(async () => {
	await inTurn(
		stopBurners,
		() => n8n.stop(),
		() => api.close(),
	);
});

describe("every operation with a record locator, in a real n8n on a loaded machine (no check in n8n's regex engine)", () => {
	it('covers each locator of the node', () => {
		expect(cases.map(caseNodeName)).toEqual([
			'location get',
			'location updateMany',
			'supplier update',
			'buyOrder update',
		]);
	});

	it('ran beside one busy process per core, each busy until the execution ended', () => {
		expect(busyThroughout).toEqual(Array.from({ length: availableParallelism() }, () => true));
	});

	it('runs the workflow to success', () => {
		expect(run.data.resultData.error).toBeUndefined();
		expect(run.status).toBe('success');
	});

	it.each(cases.map((c) => [caseNodeName(c), c] as const))(
		'%s: its ID typed in By ID, the request logged by the sandbox and the output asserted',
		async (_name, testCase) => {
			await expectCaseRan(run, logged, testCase);
		},
	);

	it('an ID that is not a whole number reaches the node, which refuses it naming the field, and sends nothing', () => {
		expect(outputOf(run, NOT_AN_ID)).toEqual([
			expect.objectContaining({
				error: '"Location" must be a whole-number ID, such as 42; it is "R3"',
			}),
		]);
		expect(logged.filter((request) => request.path.includes('R3'))).toEqual([]);
	});
});
