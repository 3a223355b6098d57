import { readFileSync } from 'node:fs';

import { parse } from 'yaml';

import { MaintenanceManagementApi } from '../../credentials/MaintenanceManagementApi.credentials';
import { MaintenanceManagementWebhookApi } from '../../credentials/MaintenanceManagementWebhookApi.credentials';
import { MaintenanceManagementTrigger } from '../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { SPEC_PATH } from '../../sandbox/contract';

describe('the credential form', () => {
	const credential = new MaintenanceManagementApi();
	const property = (name: string) => credential.properties.find((p) => p.name === name)!;

	it('opens with where the token comes from, which environment it works in, and what Test proves', () => {
		const notice = credential.properties[0];
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(
			/Create a personal access token in the Maintenance Management service/,
		);
		expect(notice.displayName).toMatch(/works only in the environment that issued it/);
		expect(notice.displayName).toMatch(/Test reads one location: not proof of write access/);
		// What Test does (one location, read) is checked where it runs: credentialTest.test.ts.
	});

	it("shows under each base URL the form of that environment's address, from the spec", () => {
		const servers = (
			parse(readFileSync(SPEC_PATH, 'utf8')) as {
				servers: Array<{ variables: Record<string, { default: string }> }>;
			}
		).servers.map((server) => Object.values(server.variables)[0].default);
		expect(servers).toEqual(['https://api.example.com/v3', 'https://sandbox.example.com/v3']);
		const fields = ['productionBaseUrl', 'sandboxBaseUrl'].map(property);
		fields.forEach((field, index) => {
			expect(field.placeholder).toBe(servers[index]);
			expect(field.hint).toContain(`ending with /v3, such as ${servers[index]}`);
		});
	});

	it('speaks of the service alone in each base URL hint: a user who installed the package by name has no clone, no npm run dev and no local port', () => {
		for (const environment of ['production', 'sandbox'] as const) {
			const { hint } = property(`${environment}BaseUrl`);
			expect(hint).toMatch(/ending with \/v3, such as https:\/\/\S+\/v3\.$/);
			expect(hint).not.toMatch(/clone|npm run|local sandbox|127\.0\.0\.1|localhost|:\d{2,5}\b/);
		}
	});

	it('never defaults a base URL to an address that is not the service', () => {
		expect(property('environment').default).toBe('production');
		for (const name of ['productionBaseUrl', 'sandboxBaseUrl'])
			expect(property(name)).toMatchObject({ default: '', required: true });
	});
});

describe('the webhook credential form', () => {
	const notice = new MaintenanceManagementWebhookApi().properties[0];
	const trigger = new MaintenanceManagementTrigger().description.properties;
	const defaultName = (protection: string) =>
		trigger.find(
			(p) =>
				p.name === 'parameterName' && p.displayOptions?.show?.authentication?.[0] === protection,
		)?.default;

	it('says which secret it holds and how each protection of the trigger carries it, by the names the trigger reads', () => {
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/^The secret the service sends with each webhook delivery/);
		expect(defaultName('query')).toBe('token');
		expect(defaultName('header')).toBe('X-Webhook-Secret');
		expect(notice.displayName).toContain(
			`?${defaultName('query')}=SECRET on the URL, the ${defaultName('header')} header, or the Basic Auth password`,
		);
	});
});
