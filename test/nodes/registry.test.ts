import { resources } from '../../nodes/MaintenanceManagement/actions/resources';
import type { OperationPair } from '../cases/operations';

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
});
