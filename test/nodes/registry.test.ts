import { MaintenanceManagement } from '../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import { sendOperation } from '../../nodes/shared/registry';
import type { OperationPair } from '../cases/operations';
import { SandboxFixture } from './helpers/sandbox';
import { unsupportedOperation } from '../../nodes/shared/errors/messages';

const fixture = new SandboxFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

describe('the registry of resources and operations', () => {
	it('types each pair: a resource with another resource’s operation does not compile', () => {
		const right: OperationPair = { resource: 'supplier', operation: 'update' };
		// @ts-expect-error Supplier has no Create operation (npm run typecheck fails if this compiles).
		const wrong: OperationPair = { resource: 'supplier', operation: 'create' };
		expect(resources[right.resource].operations[right.operation]).toBeDefined();
		expect(
			(resources[wrong.resource].operations as Record<string, unknown>)[wrong.operation],
		).toBeUndefined();
	});

	it("names each endpoint by the document's operationId: another name does not compile", () => {
		expect(sendOperation('updateSupplier', [], {}).endpoint).toMatchObject({
			method: 'PATCH',
			path: '/suppliers/{supplier}',
		});
		// @ts-expect-error updateSuppliers is no operationId of spec/openapi.yaml (npm run typecheck fails if this compiles).
		expect(() => sendOperation('updateSuppliers', [], {})).toThrow();
	});

	it.each([
		['supplier', 'create'],
		['location', 'delete'],
	])(
		'a workflow naming a pair the registry lacks (%s → %s) fails, naming it, and sends nothing',
		async (resource, operation) => {
			await fixture.clear();
			const { error } = await fixture.run({ resource, operation });
			expect(error?.message).toBe(unsupportedOperation(resource, operation).message);
			expect(await fixture.requests()).toEqual([]);
		},
	);

	it('gives every "From List" of a record locator a list search method of the node', () => {
		const methods = new MaintenanceManagement().methods.listSearch;
		const searches = Object.values(resources).flatMap(({ description }) =>
			description.flatMap((property) =>
				(property.modes ?? []).flatMap((mode) => {
					const method = mode.typeOptions?.searchListMethod;
					return method ? [[property.name, method]] : [];
				}),
			),
		);
		expect(searches.length).toBeGreaterThan(0);
		expect(searches.filter(([, method]) => !(method in methods))).toEqual([]);
	});
});
