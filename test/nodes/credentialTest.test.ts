import { ExecuteContext, RoutingNode } from 'n8n-core';
import type { ICredentialDataDecryptedObject, INodeType } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { MaintenanceManagementApi } from '../../credentials/MaintenanceManagementApi.credentials';
import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { ScriptedServer } from '../helpers/scriptedServer';
import { createEngine } from './helpers/engine';

/**
 * The credential's Test as n8n sends it: n8n-core's RoutingNode with the credential's `test.request`
 * as the one routed property of a copy of the node, authenticated by the credential's `authenticate`
 * block (n8n's credential tester does the same). An API whose base URL redirects must never get the
 * token to another origin. (In n8n itself, with n8n's message: test/e2e/credentialTest.e2e.test.ts.)
 */
const TOKEN = 'tok_credential_test_4b1e9c';
const credential = new MaintenanceManagementApi();
const api = new ScriptedServer();
const elsewhere = new ScriptedServer();

beforeAll(async () => {
	await api.start();
	await elsewhere.start();
});
afterAll(async () => {
	await api.stop();
	await elsewhere.stop();
});

const { description } = new MaintenanceManagement();
const testNode: INodeType = {
	description: {
		...description,
		credentials: [{ name: credential.name, required: true }],
		properties: [
			{
				displayName: 'Test',
				name: 'test',
				type: 'string',
				default: '',
				routing: { request: credential.test.request },
			},
		],
	},
};

type TestError = Error & { cause?: { response?: { status?: number } } };

/** Sends the credential's Test; gives the error n8n-core threw, or undefined when it passed. */
async function runTest(): Promise<TestError | undefined> {
	const data: ICredentialDataDecryptedObject = {
		accessToken: TOKEN,
		environment: 'production',
		productionBaseUrl: `${api.url}/v3`,
	};
	const { workflow, node, additionalData } = createEngine({
		nodeType: testNode,
		parameters: {},
		credentials: { [credential.name]: data },
	});
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routing = new RoutingNode(context, testNode, {
		id: 'credential',
		name: 'credential',
		type: credential.name,
		data,
	});
	try {
		await routing.runNode();
		return undefined;
	} catch (error) {
		return error as TestError;
	}
}

/** The message the credential gives for a status, as n8n's tester picks it from the rules. */
const ruleFor = (status: number) =>
	(credential.test.rules ?? []).find(
		(rule) => rule.type === 'responseCode' && rule.properties.value === status,
	)?.properties.message;

describe("the credential's Test meets a redirect", () => {
	beforeEach(() => {
		api.reset(() => ({ status: 200, body: { data: [] } }));
		elsewhere.reset(() => ({ status: 200, body: { data: [] } }));
		api.requests.length = 0;
		elsewhere.requests.length = 0;
	});

	it('passes against an API that answers, with the token sent to it', async () => {
		expect(await runTest()).toBeUndefined();
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
	});

	it.each([301, 302, 303, 307, 308])(
		'to another origin (%i): fails there, and the other origin receives nothing',
		async (status) => {
			api.reset(() => ({ status, headers: { Location: `${elsewhere.url}/signin` }, body: {} }));
			const error = await runTest();
			expect(error?.cause?.response?.status).toBe(status);
			expect(elsewhere.requests).toEqual([]);
			expect(api.requests).toHaveLength(1);
			expect(ruleFor(status)).toBe(
				`The base URL answered with a redirect (HTTP ${status}). Test follows no redirect, so the token was sent nowhere else. If this is the service's web address rather than its API address, enter the API's address, ending with /v3 (for example https://api.example.com/v3).`,
			);
		},
	);

	it('within its own origin: fails there too, without a second request', async () => {
		api.reset(() => ({ status: 302, headers: { Location: '/v3/signin' }, body: {} }));
		const error = await runTest();
		expect(error?.cause?.response?.status).toBe(302);
		expect(api.requests.map(({ path }) => path)).toEqual(['/v3/locations']);
	});
});
