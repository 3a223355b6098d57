import { CREDENTIAL_KEPT_MS } from '../../../nodes/MaintenanceManagementTrigger/credential';
import type { Delivery, Protection, TriggerRun, TriggerSettings } from './harness';
import { basicAuth, deliver, startedItem } from './harness';

const SECRET = 'whsec_5e4d3c2b1a0f9e8d7c6b';
const NEW_SECRET = 'whsec_new_0123456789abcdef';
const body = { event: 'FAILURE_CREATED', data: { id: '1' } };

/** The call that presents `secret` under each protection. */
const presenting: Record<Exclude<Protection, 'none'>, (secret: string) => Delivery> = {
	query: (secret) => ({ query: { token: secret } }),
	header: (secret) => ({ headers: { 'X-Webhook-Secret': secret } }),
	basicAuth: (secret) => ({ headers: { Authorization: basicAuth('svc', secret) } }),
};

let ids = 0;
/** Settings of one trigger node whose credential keeps its ID across deliveries, as in n8n. */
const oneNode = (authentication: Exclude<Protection, 'none'>) => {
	const credentialId = `kept-${++ids}`;
	return (secret: string, username = 'svc'): TriggerSettings => ({
		authentication,
		credentialId,
		credentials: { secret, username },
	});
};

/** The clock the kept reads are timed by, stopped for each test: only `advanceClock` moves it. */
let clock = 0;
beforeEach(() => {
	clock = 0;
	jest.spyOn(performance, 'now').mockImplementation(() => clock);
});
afterEach(() => jest.restoreAllMocks());

const advanceClock = (ms: number) => {
	clock += ms;
};

function expectStarted(run: TriggerRun): void {
	expect(run.sent).toBeUndefined();
	expect(startedItem(run)?.event).toBe('FAILURE_CREATED');
}

function expectRefused(run: TriggerRun): void {
	expect(run.sent?.status).toBe(401);
	expect(run.sent?.body).toEqual({
		message: 'Unauthorized: the webhook secret is missing or wrong',
	});
	expect(run.result).toEqual({ noWebhookResponse: true });
}

describe.each(['query', 'header', 'basicAuth'] as const)('credential reads, %s', (protection) => {
	const call = (secret: string) => ({ body, ...presenting[protection](secret) });

	it(`reads the credential once for the deliveries of the next ${CREDENTIAL_KEPT_MS / 1000} s that present its secret`, async () => {
		const node = oneNode(protection);
		const first = await deliver(node(SECRET), call(SECRET));
		expectStarted(first);
		expect(first.credentialReads).toBe(1);
		advanceClock(CREDENTIAL_KEPT_MS - 1);
		const later = await deliver(node(SECRET), call(SECRET));
		expectStarted(later);
		expect(later.credentialReads).toBe(0);
		expect(JSON.stringify(later.result)).not.toContain(SECRET);
	});

	it('reads it again once the kept read is older than that', async () => {
		const node = oneNode(protection);
		await deliver(node(SECRET), call(SECRET));
		advanceClock(CREDENTIAL_KEPT_MS);
		const run = await deliver(node(SECRET), call(SECRET));
		expectStarted(run);
		expect(run.credentialReads).toBe(1);
	});

	it('refuses a wrong secret only after a fresh read, with the same answer', async () => {
		const node = oneNode(protection);
		await deliver(node(SECRET), call(SECRET));
		const run = await deliver(node(SECRET), call('whsec_wrong_0000000000000'));
		expectRefused(run);
		expect(run.credentialReads).toBe(1);
	});

	it('accepts a changed secret with its first delivery', async () => {
		const node = oneNode(protection);
		await deliver(node(SECRET), call(SECRET));
		const run = await deliver(node(NEW_SECRET), call(NEW_SECRET));
		expectStarted(run);
		expect(run.credentialReads).toBe(1);
		// That read is kept from then on, and the former secret is refused.
		expect((await deliver(node(NEW_SECRET), call(NEW_SECRET))).credentialReads).toBe(0);
		expectRefused(await deliver(node(NEW_SECRET), call(SECRET)));
	});

	it(`refuses the former secret at most ${CREDENTIAL_KEPT_MS / 1000} s after the change`, async () => {
		const node = oneNode(protection);
		await deliver(node(SECRET), call(SECRET));
		// Within the kept read's time, the former secret still matches it.
		expectStarted(await deliver(node(NEW_SECRET), call(SECRET)));
		advanceClock(CREDENTIAL_KEPT_MS);
		const run = await deliver(node(NEW_SECRET), call(SECRET));
		expectRefused(run);
		expect(run.credentialReads).toBe(1);
	});

	it('keeps a read for its own node only: another credential ID reads its own', async () => {
		await deliver(oneNode(protection)(SECRET), call(SECRET));
		const other = await deliver(oneNode(protection)(SECRET), call(SECRET));
		expectStarted(other);
		expect(other.credentialReads).toBe(1);
	});
});

describe('credential reads that fail', () => {
	it('are not kept: each delivery reads again and gets the error', async () => {
		const settings: TriggerSettings = { authentication: 'header', credentialId: 'kept-missing' };
		const call = { body, ...presenting.header(SECRET) };
		await expect(deliver(settings, call)).rejects.toThrow(/credentials/);
		const run = await deliver({ ...settings, credentials: { secret: SECRET } }, call);
		expectStarted(run);
		expect(run.credentialReads).toBe(1);
	});

	it('share one read between deliveries that arrive together', async () => {
		const settings: TriggerSettings = {
			authentication: 'header',
			credentialId: 'kept-together',
			credentials: { secret: SECRET },
		};
		const call = { body, ...presenting.header(SECRET) };
		const runs = await Promise.all([deliver(settings, call), deliver(settings, call)]);
		for (const run of runs) expectStarted(run);
		expect(runs.map((run) => run.credentialReads).sort()).toEqual([0, 1]);
	});
});

describe('the user name of Basic auth', () => {
	it('is checked against the kept read too', async () => {
		const node = oneNode('basicAuth');
		await deliver(node(SECRET, 'svc'), { body, ...presenting.basicAuth(SECRET) });
		const intruder = await deliver(node(SECRET, 'svc'), {
			body,
			headers: { Authorization: basicAuth('intruder', SECRET) },
		});
		expectRefused(intruder);
		expect(intruder.credentialReads).toBe(1);
	});
});
