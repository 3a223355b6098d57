import { MaintenanceManagement } from '../../../nodes/MaintenanceManagement/MaintenanceManagement.node';
import { loadOptionsContext } from '../helpers/harness';
import { SandboxFixture } from '../helpers/sandbox';

const node = new MaintenanceManagement();
const fixture = new SandboxFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

describe('list search', () => {
	it('searches suppliers by name, page by page', async () => {
		await fixture.reset({ seed: { suppliers: 150 } });
		const search = node.methods.listSearch.searchSuppliers;
		const context = loadOptionsContext(node, fixture.credentials);
		const first = await search.call(context);
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('2');
		const second = await search.call(context, undefined, first.paginationToken as string);
		expect(second.results).toHaveLength(50);
		expect(second.paginationToken).toBeUndefined();
		const filtered = await search.call(context, 'Supplier 12');
		expect(filtered.results.map((r) => r.name)).toEqual(
			expect.arrayContaining(['Supplier 12 (SUP-12)', 'Supplier 120 (SUP-120)']),
		);
		await fixture.reset();
	});

	it('searches locations by name, each shown with its full name and full code', async () => {
		const search = node.methods.listSearch.searchLocations;
		const context = loadOptionsContext(node, fixture.credentials);
		const { results } = await search.call(context, 'Floor 2');
		expect(results).toContainEqual({ name: 'Building 1-Floor 2 (B1.F2)', value: '2' });
		expect(results.every((r) => /Floor 2\d* \(.+\)$/.test(r.name))).toBe(true);
		expect((await fixture.requests()).at(-1)?.query).toMatchObject({ s_name_like: 'Floor 2' });
	});
});
