import { SsrfProtectionConfig } from '@n8n/config';
import { Container } from '@n8n/di';

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
				`Nothing was sent. To let this n8n reach ${fixture.credentials.sandboxBaseUrl}, an administrator adds 127.0.0.1 to N8N_SSRF_ALLOWED_HOSTNAMES or 127.0.0.1/32 to N8N_SSRF_ALLOWED_IP_RANGES and restarts n8n.`,
			);
			// The row itself is fine: it can go again, unchanged, once an administrator allows the address.
			expect(error?.context?.outcome).toBe('notSent');
			expect(await fixture.requests()).toEqual([]);
		},
	);
});
