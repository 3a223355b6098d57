import { ENDPOINTS } from '../../nodes/shared/endpoints.generated';
import {
	ENDPOINTS_PATH,
	HEADER,
	endpointFacts,
	endpointsSource,
	type OpenApiDocument,
} from '../../scripts/endpoints';
import { itIsGenerated, staleEntries } from '../helpers/generated';

describe('the endpoint table (nodes/shared/endpoints.generated.ts)', () => {
	const { facts } = itIsGenerated({
		entry: 'operation',
		written: ENDPOINTS,
		facts: endpointFacts,
		source: endpointsSource,
		path: ENDPOINTS_PATH,
		header: HEADER,
	});

	it('names the operation whose method, path, deprecation or query differs', () => {
		const changed = {
			...facts,
			updateSupplier: { ...facts.updateSupplier, method: 'POST' },
		} as Record<string, unknown>;
		delete changed.getLocations;
		expect(staleEntries(changed, facts)).toEqual([
			'getLocations: in the document, not in the table',
			`updateSupplier: the table has ${JSON.stringify({ ...facts.updateSupplier, method: 'POST' })}, the document ${JSON.stringify(facts.updateSupplier)}`,
		]);
	});

	it('reads the deprecation and the query parameters of the document', () => {
		expect(
			Object.entries(facts)
				.filter(([, { deprecated }]) => deprecated)
				.map(([id]) => id),
		).toEqual(['createLegacyMaterial', 'getStockMovements', 'checkContact']);
		expect(facts.getLocations.query).toEqual(['page', 'limit', 'with_assets_count', 's_name_like']);
	});

	it('says which answers hold records: every operation of the document, and not one without data', () => {
		expect(Object.keys(facts).filter((id) => !facts[id].records)).toEqual([]);
		const answer = (schema: unknown) => ({
			responses: { '2XX': { content: { 'application/json': { schema } } } },
		});
		const document = {
			paths: {
				'/a': {
					get: { operationId: 'listA', ...answer({ $ref: '#/components/schemas/Page' }) },
					delete: { operationId: 'deleteA', responses: { '204': { description: 'Gone' } } },
					post: { operationId: 'sendA', ...answer({ type: 'object', properties: { ok: {} } }) },
				},
			},
			components: { schemas: { Page: { allOf: [{ properties: { data: { type: 'array' } } }] } } },
		} as OpenApiDocument;
		const records = Object.entries(endpointFacts(document)).map(([id, fact]) => [id, fact.records]);
		expect(records).toEqual([
			['listA', true],
			['sendA', false],
			['deleteA', false],
		]);
	});
});
