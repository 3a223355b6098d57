import { MaintenanceManagementTrigger } from '../../../nodes/MaintenanceManagementTrigger/MaintenanceManagementTrigger.node';
import { answeredBody, basicAuth, deliver, hookContext, startedItem } from './harness';

const SECRET = 'whsec_0a1b2c3d4e5f60718293';
const none = { authentication: 'none' } as const;

describe('the started item', () => {
	it.each(['POST', 'PATCH'] as const)(
		'carries the %s payload exactly as received, with the event, the method and the time',
		async (method) => {
			const body = {
				event: 'FAILURE_UPDATED',
				event_id: 'e-1',
				data: { id: '9', attributes: { nested: [1, { a: null }], empty: {} } },
				extra: 'kept',
			};
			const snapshot = JSON.parse(JSON.stringify(body));
			const before = Date.now();
			const run = await deliver(none, { method, body });
			const after = Date.now();
			expect(run.result.workflowData).toHaveLength(1);
			expect(run.result.workflowData?.[0]).toHaveLength(1);
			const item = startedItem(run)!;
			expect(Object.keys(item)).toEqual([
				'event',
				'eventName',
				'recordType',
				'method',
				'receivedAt',
				'payload',
			]);
			expect(item.event).toBe('FAILURE_UPDATED');
			// The editor's words beside the API's: the payload keeps its own names.
			expect(item.eventName).toBe('Work Order Updated');
			expect(item.recordType).toBe('Work Order');
			expect(item.method).toBe(method);
			expect(item.payload).toBe(body);
			expect(body).toEqual(snapshot);
			const receivedAt = Date.parse(String(item.receivedAt));
			expect(receivedAt).toBeGreaterThanOrEqual(before);
			expect(receivedAt).toBeLessThanOrEqual(after);
			expect(item.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		},
	);

	it('answers with a useful JSON body, never the text firstEntryJson', async () => {
		const run = await deliver(none, { body: { event: 'FILE_UPLOADED' } });
		expect(answeredBody(run)).toEqual({ received: true, event: 'FILE_UPLOADED' });
		expect(run.sent).toBeUndefined();
		expect(run.response.status).not.toHaveBeenCalled();
	});

	it('keeps an empty JSON object as the payload', async () => {
		const run = await deliver(none, { body: {}, query: { event: 'FILE_DELETED' } });
		expect(startedItem(run)).toMatchObject({ event: 'FILE_DELETED', payload: {} });
	});

	it('adds the query parameters when there are some', async () => {
		const run = await deliver(none, {
			body: { id: 1 },
			query: { event: 'FAILURE_CREATED', source: 'svc' },
		});
		expect(startedItem(run)?.query).toEqual({ event: 'FAILURE_CREATED', source: 'svc' });
		expect(startedItem(await deliver(none, { body: { id: 1 } }))).not.toHaveProperty('query');
	});

	it('adds no headers unless asked', async () => {
		const run = await deliver(none, {
			body: { event: 'FILE_CREATED' },
			headers: { 'x-request-id': 'r-1' },
		});
		expect(startedItem(run)).not.toHaveProperty('headers');
	});

	it('adds the headers on request, leaving Authorization out', async () => {
		const run = await deliver(
			{
				authentication: 'basicAuth',
				credentials: { secret: SECRET, username: 'svc' },
				options: { includeHeaders: true },
			},
			{
				body: { event: 'FILE_CREATED' },
				headers: {
					Authorization: basicAuth('svc', SECRET),
					'X-Request-Id': 'r-1',
					'Content-Type': 'application/json',
				},
			},
		);
		expect(startedItem(run)?.headers).toEqual({
			'x-request-id': 'r-1',
			'content-type': 'application/json',
		});
		expect(JSON.stringify(run.result)).not.toContain(SECRET);
		expect(JSON.stringify(run.result)).not.toContain(basicAuth('svc', SECRET).slice(6));
	});

	it('leaves the secret query parameter out but keeps the others', async () => {
		const run = await deliver(
			{ authentication: 'query', credentials: { secret: SECRET } },
			{ body: { id: 1 }, query: { token: SECRET, event: 'FAILURE_CREATED' } },
		);
		expect(startedItem(run)?.query).toEqual({ event: 'FAILURE_CREATED' });
		expect(JSON.stringify(run.result)).not.toContain(SECRET);
		const only = await deliver(
			{ authentication: 'query', credentials: { secret: SECRET } },
			{ body: { event: 'FILE_CREATED' }, query: { token: SECRET } },
		);
		expect(startedItem(only)).not.toHaveProperty('query');
	});

	it('leaves the secret header out when headers are included', async () => {
		const run = await deliver(
			{
				authentication: 'header',
				credentials: { secret: SECRET },
				options: { includeHeaders: true },
			},
			{
				body: { event: 'FAILURE_CREATED' },
				headers: { 'X-Webhook-Secret': SECRET, 'x-trace': 't' },
			},
		);
		expect(startedItem(run)?.headers).toEqual({
			'content-type': 'application/json',
			'x-trace': 't',
		});
		expect(JSON.stringify(run.result)).not.toContain(SECRET);
	});

	it('reads only the parameters it needs', async () => {
		const run = await deliver(none, { body: { event: 'FILE_CREATED' } });
		expect(run.parametersRead.sort()).toEqual(['authentication', 'events', 'options']);
	});
});

describe('bodies that are not JSON', () => {
	const query = { token: SECRET, event: 'FAILURE_CREATED' };
	const protectedTrigger = { authentication: 'query', credentials: { secret: SECRET } } as const;

	it.each([
		[
			'a form, as a web page posts it',
			'application/x-www-form-urlencoded',
			{ event: 'FAILURE_CREATED' },
		],
		[
			'plain text, as a no-cors fetch sends it',
			'text/plain;charset=UTF-8',
			'{"event":"FAILURE_CREATED"}',
		],
		['multipart form data', 'multipart/form-data; boundary=x', { event: 'FAILURE_CREATED' }],
		['XML', 'application/xml', { event: 'FAILURE_CREATED' }],
		['JSON under another type', 'application/vnd.api+json', { event: 'FAILURE_CREATED' }],
		['no Content-Type', '', { event: 'FAILURE_CREATED' }],
	])('answers 415 to %s, with the right secret, and starts nothing', async (_label, type, body) => {
		const run = await deliver(protectedTrigger, {
			body,
			query,
			headers: { 'Content-Type': type },
		});
		expect(run.sent).toEqual({
			status: 415,
			body: {
				message:
					'Unsupported Media Type: send the event as JSON, with Content-Type: application/json',
			},
			headers: {},
		});
		expect(run.result).toEqual({ noWebhookResponse: true });
	});

	it('checks the secret first: a form without it is answered 401', async () => {
		const run = await deliver(protectedTrigger, {
			body: { event: 'FAILURE_CREATED' },
			query: { event: 'FAILURE_CREATED' },
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		expect(run.sent?.status).toBe(401);
	});

	it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
		'accepts %s',
		async (type) => {
			const run = await deliver(protectedTrigger, {
				body: { event: 'FAILURE_CREATED' },
				query,
				headers: { 'Content-Type': type },
			});
			expect(startedItem(run)).toMatchObject({ event: 'FAILURE_CREATED' });
		},
	);
});

describe('bodies that are not a JSON object', () => {
	it.each([
		['a string', 'not json'],
		['a JSON text that was not parsed', '{"event":"FAILURE_CREATED"}'],
		['an array', [{ event: 'FAILURE_CREATED' }]],
		['an empty array', []],
		['a number', 42],
		['true', true],
		['null', null],
		['nothing', undefined],
		['an empty string', ''],
	])('answers 400 to %s and starts nothing', async (_label, body) => {
		const run = await deliver(
			{ ...none, events: ['*'] },
			{ body, query: { event: 'FAILURE_CREATED' } },
		);
		expect(run.sent).toEqual({
			status: 400,
			body: { message: 'The body must be a JSON object' },
			headers: {},
		});
		expect(run.result).toEqual({ noWebhookResponse: true });
		expect(run.response.status).toHaveBeenCalledWith(400);
		expect(run.response.json).toHaveBeenCalledTimes(1);
	});

	it.each(['POST', 'PATCH'] as const)('refuses them by %s too', async (method) => {
		const run = await deliver(none, { method, body: 'text' });
		expect(run.sent?.status).toBe(400);
	});
});

describe('webhookMethods for the manual registration', () => {
	const url = 'https://n8n.example.com/webhook/abc/webhook';

	it('exist, as the lint rules ask', () => {
		const methods = new MaintenanceManagementTrigger().webhookMethods.default;
		expect(Object.keys(methods).sort()).toEqual(['checkExists', 'create', 'delete']);
	});

	it('register nothing: the webhook is set up by hand in the service, so no state is kept', async () => {
		const {
			checkExists,
			create,
			delete: remove,
		} = new MaintenanceManagementTrigger().webhookMethods.default;
		const getWorkflowStaticData = jest.fn(() => ({}));
		const context = { ...hookContext(url).context, getWorkflowStaticData } as never;
		await expect(checkExists.call(context)).resolves.toBe(false);
		await expect(create.call(context)).resolves.toBe(true);
		await expect(checkExists.call(context)).resolves.toBe(false);
		await expect(remove.call(context)).resolves.toBe(true);
		await expect(remove.call(context)).resolves.toBe(true);
		expect(getWorkflowStaticData).not.toHaveBeenCalled();
	});
});
