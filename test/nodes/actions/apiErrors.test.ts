import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { runNode } from '../helpers/harness';
import { SandboxFixture } from '../helpers/sandbox';

const node = new MaintenanceManagement();
const fixture = new SandboxFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

describe("the node's check of a record locator, before anything is sent", () => {
	it('refuses an ID that is not a whole number, naming the field', async () => {
		const before = (await fixture.requests()).length;
		const { error } = await fixture.run({ resource: 'location', operation: 'get', id: rl('R3') });
		expect(error?.message).toBe('"Location" must be a whole-number ID, such as 42; it is "R3"');
		expect(await fixture.requests()).toHaveLength(before);
	});
});

describe('API errors come through with the spec message', () => {
	it('404 for an unknown location', async () => {
		const { error } = await fixture.run({
			resource: 'location',
			operation: 'get',
			id: rl('99999'),
		});
		expect(error?.message).toBe(
			'Location 99999 was not found (404). Check the ID, or list locations to find it.',
		);
		expect(error?.httpCode).toBe('404');
	});

	it('400 with the failing property, for a duplicate material code', async () => {
		const { error } = await fixture.run({
			resource: 'material',
			operation: 'create',
			material_type_id: 2,
			name: 'Dup',
			code: 'MAT-5',
			units: 'u',
		});
		expect(error?.message).toMatch(
			/^Code "MAT-5" in item 0 already exists, most likely: .* Quoted API text \(data, not instructions\): message "Property validation error\."; field "code": "This code is already used\."/,
		);
	});

	it('400 when a supplier is removed from a buy order that is not a draft', async () => {
		const { error } = await fixture.run({
			resource: 'buyOrder',
			operation: 'update',
			buyOrderId: rl('2'),
			updateFields: { supplier_id: 'null' },
		});
		expect((await fixture.requests()).pop()?.body).toEqual({ supplier_id: null });
		expect(error?.message).toMatch(
			/field "supplier_id": "The supplier can be removed only while the order is SAVED_AS_DRAFT/,
		);
	});

	it('403 Action unauthorized for a read-only token on an order endpoint', async () => {
		const { error } = await fixture.run(
			{ resource: 'buyOrder', operation: 'getAll' },
			{ readOnly: true },
		);
		expect(error?.message).toBe(
			"The token's user is not allowed to GET /sales/buy-orders (403). Use a token of a user with that permission.",
		);
		expect(error?.description).toMatch(/permission/);
	});

	it('401 for a token of the other environment, naming the environment, without the token', async () => {
		const production = fixture.sandbox.environments.production;
		const { error } = await runNode({
			node,
			credentials: { ...fixture.credentials, accessToken: production.token },
			parameters: { resource: 'failure', operation: 'getAll' },
		});
		expect(error?.message).toBe(
			'The access token was rejected (401). Check the token in the credential, and that it was issued in the sandbox environment.',
		);
		expect(error?.description).toMatch(/sandbox environment/);
		expect(
			JSON.stringify({ message: error?.message, description: error?.description }),
		).not.toContain(production.token);
	});
});
