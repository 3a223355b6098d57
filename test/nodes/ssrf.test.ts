import { SsrfProtectionConfig } from '@n8n/config';
import { Container } from '@n8n/di';

import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { ssrfMessage } from '../../nodes/MaintenanceManagement/transport/ssrf';
import { runNode } from './helpers/harness';
import { SandboxFixture } from './helpers/sandbox';

/**
 * n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED), switched on in n8n-core as the setting does:
 * its default block list holds loopback, where the sandbox answers. The node's error names the
 * settings that let the address through. (The allow-list itself: test/e2e/ssrf.e2e.test.ts.)
 */
const fixture = new SandboxFixture();
const ssrf = Container.get(SsrfProtectionConfig);

beforeAll(async () => {
	await fixture.start();
	ssrf.enabled = true;
});
afterAll(async () => {
	ssrf.enabled = false;
	await fixture.stop();
});

describe("a request n8n's SSRF protection refuses", () => {
	const READ = {
		resource: 'location',
		operation: 'get',
		id: { __rl: true, mode: 'id', value: '3' },
	};

	it.each([
		[
			'a read',
			{ resource: 'location', operation: 'get', id: { __rl: true, mode: 'id', value: '3' } },
		],
		[
			'a write',
			{
				resource: 'materialType',
				operation: 'create',
				name: 'Bolts',
				code: 'BOLT',
				parent_id: '1',
			},
		],
	])(
		'fails %s at once, naming the setting that refused it and those that allow it, with nothing sent',
		async (_label, parameters) => {
			await fixture.clear();
			const { output, error } = await fixture.run(parameters, { typeVersion: 2 });
			expect(output).toEqual([]);
			expect(error?.message).toBe(
				"n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) refused the request to 127.0.0.1 (127.0.0.1)",
			);
			expect(error?.description).toBe(
				`Nothing was sent. To let this n8n reach ${fixture.credentials.sandboxBaseUrl}, an administrator adds 127.0.0.1/32 to N8N_SSRF_ALLOWED_IP_RANGES and restarts n8n.`,
			);
			// The row itself is fine: it can go again, unchanged, once an administrator allows the address.
			expect(error?.context?.outcome).toBe('notSent');
			expect(await fixture.requests()).toEqual([]);
		},
	);

	it('advises N8N_SSRF_ALLOWED_HOSTNAMES for a base URL written with a host name, which that setting lets through', async () => {
		await fixture.clear();
		const baseUrl = String(fixture.credentials.sandboxBaseUrl).replace('127.0.0.1', 'localhost');
		const { output, error } = await runNode({
			node: new MaintenanceManagement(),
			credentials: { ...fixture.credentials, sandboxBaseUrl: baseUrl },
			parameters: READ,
			typeVersion: 2,
		});
		expect(output).toEqual([]);
		expect(error?.description).toBe(
			`Nothing was sent. To let this n8n reach ${baseUrl}, an administrator adds localhost to N8N_SSRF_ALLOWED_HOSTNAMES and restarts n8n.`,
		);
		expect(await fixture.requests()).toEqual([]);
	});

	// n8n checks a host written as an address against N8N_SSRF_ALLOWED_IP_RANGES only: the advice for
	// N8N_SSRF_ALLOWED_HOSTNAMES would not let it through (test/e2e/ssrf.e2e.test.ts applies the advice).
	it.each([
		['an IPv4 address', 'http://10.1.2.3:8080/v3', { ip: '10.1.2.3' }, '10.1.2.3/32'],
		['an IPv6 address', 'http://[::1]:4010/v3', { ip: '::1' }, '::1/128'],
		['an IPv4 address n8n names no IP for', 'http://192.168.0.9/v3', {}, '192.168.0.9/32'],
	])(
		'advises only N8N_SSRF_ALLOWED_IP_RANGES for a base URL written as %s',
		(_label, baseUrl, block, range) => {
			const { description } = ssrfMessage(block, baseUrl);
			expect(description).toBe(
				`Nothing was sent. To let this n8n reach ${baseUrl}, an administrator adds ${range} to N8N_SSRF_ALLOWED_IP_RANGES and restarts n8n.`,
			);
			expect(description).not.toContain('N8N_SSRF_ALLOWED_HOSTNAMES');
		},
	);
});
