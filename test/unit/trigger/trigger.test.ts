import { MaintenanceManagementTrigger } from '../../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { EVENTS } from '../../../nodes/MaintenanceManagementTrigger/events';
import { deliver, startedItem } from './harness';

const SECRET = 'whsec_9f8e7d6c5b4a3210fedc';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('event list', () => {
	it('offers all 47 events of the spec plus All Events, each described by its trigger text', () => {
		const events = new MaintenanceManagementTrigger().description.properties.find((p) => p.name === 'events')!;
		const options = events.options as Array<{ name: string; value: string; description: string }>;
		expect(EVENTS).toHaveLength(47);
		expect(new Set(EVENTS.map((e) => e.value)).size).toBe(47);
		expect(options).toHaveLength(48);
		expect(options.map((o) => o.value)).toContain('*');
		for (const event of EVENTS) {
			const option = options.find((o) => o.value === event.value)!;
			expect(option.name).toBe(event.name);
			expect(option.description).toContain(event.description);
		}
	});

	it('listens on one path for both POST and PATCH and answers with its own body', () => {
		const { webhooks } = new MaintenanceManagementTrigger().description;
		expect(webhooks?.map((w) => [w.httpMethod, w.path, w.responseMode, w.responseData])).toEqual([
			['POST', 'webhook', 'onReceived', ''],
			['PATCH', 'webhook', 'onReceived', ''],
		]);
	});
});

describe.each(EVENTS.map((e) => e.value))('event %s', (event) => {
	it('starts the workflow when selected and is ignored with 200 when another event is selected', async () => {
		const selected = await deliver({ events: [event] }, { body: { event, data: { id: '1' } } });
		expect(startedItem(selected)).toMatchObject({ event, payload: { event, data: { id: '1' } } });
		const other = EVENTS.find((e) => e.value !== event)!.value;
		const ignored = await deliver({ events: [other] }, { body: { event } });
		expect(ignored.result.workflowData).toBeUndefined();
		expect(ignored.result.webhookResponse).toMatchObject({ ignored: true, event });
		expect(ignored.sent).toBeUndefined();
	});
});

describe('event detection', () => {
	it.each([
		['event at the top level', { body: { event: 'FAILURE_CREATED' } }, 'payload'],
		['event_type at the top level', { body: { event_type: 'failure_created' } }, 'payload'],
		['topic one level down', { body: { meta: { topic: 'FAILURE_CREATED' } } }, 'payload'],
		['the event query parameter', { body: { id: 4 }, query: { event: 'FAILURE_CREATED' } }, 'query'],
		['the X-Event-Name header', { body: { id: 4 }, headers: { 'X-Event-Name': 'FAILURE_CREATED' } }, 'header'],
	])('finds it in %s', async (_label, delivery, _source) => {
		const outcome = await deliver({ events: ['FAILURE_CREATED'] }, delivery);
		expect(startedItem(outcome)?.event).toBe('FAILURE_CREATED');
	});

	it('prefers the payload over the query and the header', async () => {
		const outcome = await deliver(
			{ events: ['*'] },
			{ body: { event: 'BUY_ORDER_UPDATED' }, query: { event: 'FAILURE_CREATED' }, headers: { 'x-event-name': 'FILE_DELETED' } },
		);
		expect(startedItem(outcome)?.event).toBe('BUY_ORDER_UPDATED');
	});

	it('does not take a resource attribute such as type CYCLIC for an event', async () => {
		const outcome = await deliver({ events: ['*'] }, { body: { type: 'CYCLIC', data: { type: 'work' } }, query: { event: 'WORK_LOCATIONS_UPDATED' } });
		expect(startedItem(outcome)?.event).toBe('WORK_LOCATIONS_UPDATED');
	});

	it('reads only the explicit property path when one is set', async () => {
		const settings = { events: ['QUOTE_READY'], options: { eventPath: 'meta.kind' } };
		expect(startedItem(await deliver(settings, { body: { meta: { kind: 'QUOTE_READY' } } }))?.event).toBe('QUOTE_READY');
		const elsewhere = await deliver(settings, { body: { event: 'QUOTE_READY' } });
		expect(elsewhere.result.workflowData).toBeUndefined();
	});

	it('passes an undetectable delivery on with All Events, and ignores it with a selection', async () => {
		const all = await deliver({ events: ['*'] }, { body: { hello: 'world' } });
		expect(startedItem(all)).toMatchObject({ event: null, payload: { hello: 'world' } });
		const some = await deliver({ events: ['FAILURE_CREATED'] }, { body: { hello: 'world' } });
		expect(some.result.workflowData).toBeUndefined();
		expect(some.result.webhookResponse).toMatchObject({ ignored: true, event: null, reason: 'The event could not be detected' });
	});
});

describe('output', () => {
	it.each(['POST', 'PATCH'] as const)('keeps the %s payload exactly and adds the event, method and time', async (method) => {
		const body = { event: 'FAILURE_UPDATED', data: { id: '9', attributes: { nested: [1, { a: null }] } }, extra: 'kept' };
		const outcome = await deliver({}, { method, body });
		const item = startedItem(outcome)!;
		expect(item.payload).toEqual(body);
		expect(item.method).toBe(method);
		expect(Number.isNaN(Date.parse(String(item.receivedAt)))).toBe(false);
		expect(item.headers).toBeUndefined();
		expect(outcome.result.webhookResponse).toEqual({ received: true, event: 'FAILURE_UPDATED' });
	});

	it('adds the headers on request, leaving Authorization out', async () => {
		const outcome = await deliver(
			{ authentication: 'basicAuth', credentials: { secret: SECRET, username: 'svc' }, options: { includeHeaders: true } },
			{ body: { event: 'FILE_CREATED' }, headers: { authorization: basic('svc', SECRET), 'x-request-id': 'r-1' } },
		);
		expect(startedItem(outcome)?.headers).toEqual({ 'x-request-id': 'r-1' });
		expect(JSON.stringify(outcome)).not.toContain(SECRET);
	});
});

describe('protection', () => {
	const cases = [
		['query', { query: { token: SECRET } }, { query: { token: 'wrong' } }, {}],
		['header', { headers: { 'X-Webhook-Secret': SECRET } }, { headers: { 'X-Webhook-Secret': `${SECRET}x` } }, {}],
		['basicAuth', { headers: { authorization: basic('svc', SECRET) } }, { headers: { authorization: basic('svc', 'nope') } }, {}],
	] as const;

	it.each(cases)('%s: the right secret starts the workflow', async (authentication, right) => {
		const outcome = await deliver(
			{ authentication, credentials: { secret: SECRET, username: 'svc' } },
			{ body: { event: 'FAILURE_CREATED' }, ...right },
		);
		expect(startedItem(outcome)?.event).toBe('FAILURE_CREATED');
		expect(JSON.stringify(startedItem(outcome))).not.toContain(SECRET);
	});

	it.each(cases)('%s: a wrong or missing secret gets 401 and starts nothing', async (authentication, _right, wrong, missing) => {
		for (const call of [wrong, missing]) {
			const outcome = await deliver(
				{ authentication, credentials: { secret: SECRET, username: 'svc' } },
				{ body: { event: 'FAILURE_CREATED' }, ...call },
			);
			expect(outcome.sent?.status).toBe(401);
			expect(outcome.result).toEqual({ noWebhookResponse: true });
			expect(JSON.stringify(outcome.sent)).not.toContain(SECRET);
		}
	});

	it('basic auth also checks the user name', async () => {
		const outcome = await deliver(
			{ authentication: 'basicAuth', credentials: { secret: SECRET, username: 'svc' } },
			{ body: { event: 'FAILURE_CREATED' }, headers: { authorization: basic('intruder', SECRET) } },
		);
		expect(outcome.sent?.status).toBe(401);
		expect(outcome.sent?.headers['WWW-Authenticate']).toMatch(/Basic/);
	});

	it('an empty secret in the credential never matches', async () => {
		const outcome = await deliver({ authentication: 'query', credentials: { secret: '' } }, { body: { event: 'FAILURE_CREATED' }, query: { token: '' } });
		expect(outcome.sent?.status).toBe(401);
	});

	it('the credential test asks for a long secret', async () => {
		const test = new MaintenanceManagementTrigger().methods.credentialTest.checkWebhookSecret;
		const run = (secret: string) => test.call({} as never, { id: '1', name: 'x', type: 'maintenanceManagementWebhookApi', data: { secret } });
		expect((await run('short')).status).toBe('Error');
		expect((await run(SECRET)).status).toBe('OK');
	});
});

describe('robustness', () => {
	it.each([
		['a string', 'not json'],
		['an array', [{ event: 'FAILURE_CREATED' }]],
		['null', null],
		['nothing', undefined],
	])('answers 400 to %s and starts nothing', async (_label, body) => {
		const outcome = await deliver({}, { body });
		expect(outcome.sent).toMatchObject({ status: 400, body: { message: 'The body must be a JSON object' } });
		expect(outcome.result.workflowData).toBeUndefined();
	});

	it('checks the secret before reading the body, so strangers learn nothing', async () => {
		const outcome = await deliver({ authentication: 'query', credentials: { secret: SECRET } }, { body: 'garbage' });
		expect(outcome.sent?.status).toBe(401);
	});

	it('has harmless lifecycle methods for the manual registration', async () => {
		const methods = new MaintenanceManagementTrigger().webhookMethods.default;
		await expect(methods.checkExists.call({} as never)).resolves.toBe(true);
		await expect(methods.create.call({} as never)).resolves.toBe(true);
		await expect(methods.delete.call({} as never)).resolves.toBe(true);
	});
});

describe('secrets stay out of the output', () => {
	it('drops the secret query parameter but keeps the others', async () => {
		const outcome = await deliver(
			{ authentication: 'query', credentials: { secret: SECRET } },
			{ body: { id: 1 }, query: { token: SECRET, event: 'FAILURE_CREATED' } },
		);
		expect(startedItem(outcome)?.query).toEqual({ event: 'FAILURE_CREATED' });
		expect(JSON.stringify(outcome.result)).not.toContain(SECRET);
	});

	it('drops the secret header when headers are included', async () => {
		const outcome = await deliver(
			{ authentication: 'header', credentials: { secret: SECRET }, options: { includeHeaders: true } },
			{ body: { event: 'FAILURE_CREATED' }, headers: { 'X-Webhook-Secret': SECRET, 'x-trace': 't' } },
		);
		expect(startedItem(outcome)?.headers).toEqual({ 'x-trace': 't' });
		expect(JSON.stringify(outcome.result)).not.toContain(SECRET);
	});
});
