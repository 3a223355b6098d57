import { pagesRead } from '../../helpers/sent';
import { SandboxFixture } from '../helpers/sandbox';

const fixture = new SandboxFixture();
beforeAll(async () => await fixture.start());
afterAll(async () => await fixture.stop());

describe('pagination against the sandbox', () => {
	beforeAll(async () => await fixture.reset({ seed: { failures: 4500 } }));
	afterAll(async () => await fixture.reset());

	it('Return All reads every page at limit 2000', async () => {
		await fixture.clear();
		const { output } = await fixture.run({
			resource: 'failure',
			operation: 'getAll',
			returnAll: true,
		});
		expect(output).toHaveLength(4500);
		expect(new Set(output.map((item) => item.json.id)).size).toBe(4500);
		expect(await pagesRead(fixture)).toEqual(['1/2000', '2/2000', '3/2000']);
	});

	it('a Limit above 2000 uses equal pages and stops when it has enough', async () => {
		await fixture.clear();
		const { output } = await fixture.run({ resource: 'failure', operation: 'getAll', limit: 3000 });
		expect(output).toHaveLength(3000);
		expect(await pagesRead(fixture)).toEqual(['1/1500', '2/1500']);
	});
});
