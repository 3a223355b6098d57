import { startSandbox, type LoggedRequest, type RunningSandbox } from '../../sandbox';

/** A sandbox whose request log keeps at most 5 requests and 64 KiB. */
let sandbox: RunningSandbox;
let base: string;
let token: string;

beforeAll(async () => {
	sandbox = await startSandbox({
		port: 0,
		quiet: true,
		requestLog: { maxRequests: 5, maxBytes: 64 * 1024 },
	});
	base = sandbox.environments.sandbox.baseUrl;
	token = sandbox.environments.sandbox.token;
});
afterAll(async () => await sandbox.close());
beforeEach(async () => {
	await fetch(`${sandbox.controlUrl}/requests`, {
		method: 'DELETE',
		headers: { 'Content-Type': 'application/json' },
	});
});

const logged = async (): Promise<LoggedRequest[]> =>
	((await (await fetch(`${sandbox.controlUrl}/requests`)).json()) as { requests: LoggedRequest[] })
		.requests;

const send = async (authorization: string | undefined, body: unknown, path = '/locations') => {
	const response = await fetch(`${base}${path}`, {
		method: 'PATCH',
		headers: {
			'Content-Type': 'application/json',
			...(authorization ? { Authorization: authorization } : {}),
		},
		body: JSON.stringify(body),
	});
	await response.arrayBuffer();
	return response.status;
};

/** A body of about `kib` KiB. */
const bodyOf = (kib: number, mark: string) => ({
	locations: [{ id: 1, observation: `${mark}${'x'.repeat(kib * 1024)}` }],
});

describe('the request log', () => {
	it('keeps no body of a request without a valid token', async () => {
		expect(await send(undefined, bodyOf(8, 'anonymous'))).toBe(401);
		expect(await send('Bearer wrong-token', bodyOf(8, 'wrong'))).toBe(401);
		const requests = await logged();
		expect(requests.map((r) => [r.status, r.body])).toEqual([
			[401, null],
			[401, null],
		]);
		expect(JSON.stringify(requests)).not.toMatch(/anonymous|wrong-token|xxxx/);
	});

	it('keeps the body of an authenticated request', async () => {
		await send(`Bearer ${token}`, bodyOf(1, 'mine'));
		const [request] = await logged();
		expect(JSON.stringify(request.body)).toContain('mine');
	});

	it('keeps the latest requests up to its count', async () => {
		for (let i = 0; i < 8; i++)
			await fetch(`${base}/suppliers?limit=1&n=${i}`, {
				headers: { Authorization: `Bearer ${token}` },
			});
		const requests = await logged();
		expect(requests.map((r) => r.query.n)).toEqual(['3', '4', '5', '6', '7']);
	});

	it('keeps the latest bodies up to its bytes, dropping the oldest requests', async () => {
		for (const mark of ['first', 'second', 'third', 'fourth'])
			await send(`Bearer ${token}`, bodyOf(20, mark));
		const requests = await logged();
		const kept = requests.map((r) => JSON.stringify(r.body));
		expect(kept.join('').length).toBeLessThanOrEqual(64 * 1024);
		expect(kept.at(-1)).toContain('fourth');
		expect(kept.join('')).not.toContain('first');
	});

	it('does not keep a body larger than half of its bytes', async () => {
		await send(`Bearer ${token}`, bodyOf(40, 'huge'));
		const [request] = await logged();
		expect(request.body).toEqual({ notKept: expect.stringMatching(/^a body of \d+ bytes/) });
	});
});
