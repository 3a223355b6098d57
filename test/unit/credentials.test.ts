import { MaintenanceManagementApi } from '../../credentials/MaintenanceManagementApi.credentials';

describe('the credential test', () => {
	it('explains a 401 by the environment and a 404 by the base URL, instead of a bare status', () => {
		const rules = new MaintenanceManagementApi().test.rules as Array<{
			type: string;
			properties: { value: number; message: string };
		}>;
		const message = (code: number) =>
			rules.find((rule) => rule.type === 'responseCode' && rule.properties.value === code)
				?.properties.message;
		expect(message(401)).toMatch(/environment that issued it/);
		expect(message(404)).toMatch(/ends with the API version, \/v3/);
	});
});
