import {
	detectEvent,
	toEventName,
	valueAtPath,
} from '../../../nodes/MaintenanceManagementTrigger/detection';
import type { Delivery } from './harness';
import { answeredBody, deliver, startedItem } from './harness';

const none = { authentication: 'none' } as const;

describe('toEventName', () => {
	it.each([
		['FAILURE_CREATED', 'FAILURE_CREATED'],
		['failure_created', 'FAILURE_CREATED'],
		['failure.created', 'FAILURE_CREATED'],
		['  Failure-Created ', 'FAILURE_CREATED'],
		['Failure created', 'FAILURE_CREATED'],
	])('reads %j as %s', (value, name) => {
		expect(toEventName(value)).toBe(name);
	});

	it.each([
		['CYCLIC'],
		['work'],
		[''],
		['FAILURE_CREATED_X'],
		[42],
		[null],
		[undefined],
		[{ event: 'FAILURE_CREATED' }],
		['x'.repeat(200)],
	])('refuses %j', (value) => {
		expect(toEventName(value)).toBeUndefined();
	});
});

describe('valueAtPath', () => {
	it('follows dotted paths and stops at anything that is not an object', () => {
		const payload = { meta: { deep: { kind: 'X' } }, list: [{ kind: 'Y' }], text: 'abc' };
		expect(valueAtPath(payload, 'meta.deep.kind')).toBe('X');
		expect(valueAtPath(payload, 'meta..deep.kind')).toBe('X');
		expect(valueAtPath(payload, 'list.0.kind')).toBeUndefined();
		expect(valueAtPath(payload, 'text.length')).toBeUndefined();
		expect(valueAtPath(payload, 'missing.kind')).toBeUndefined();
	});
});

describe('event detection, in the order of the issue', () => {
	const cases: Array<[string, Delivery]> = [
		['event at the top level', { body: { event: 'FAILURE_CREATED' } }],
		['event_type at the top level', { body: { event_type: 'failure_created' } }],
		['type at the top level', { body: { type: 'FAILURE_CREATED' } }],
		['name at the top level', { body: { name: 'FAILURE_CREATED' } }],
		['action at the top level', { body: { action: 'FAILURE_CREATED' } }],
		['topic at the top level', { body: { topic: 'failure.created' } }],
		['event one level down', { body: { meta: { event: 'FAILURE_CREATED' } } }],
		['topic one level down', { body: { id: 3, meta: { topic: 'FAILURE_CREATED' } } }],
		['the event query parameter', { body: { id: 4 }, query: { event: 'FAILURE_CREATED' } }],
		[
			'a repeated event query parameter',
			{ body: { id: 4 }, query: { event: ['FAILURE_CREATED', 'FILE_CREATED'] } },
		],
		[
			'the X-Event-Name header',
			{ body: { id: 4 }, headers: { 'X-Event-Name': 'FAILURE_CREATED' } },
		],
		['the X-Event header', { body: { id: 4 }, headers: { 'X-Event': 'FAILURE_CREATED' } }],
		[
			'the X-Event-Type header',
			{ body: { id: 4 }, headers: { 'X-Event-Type': 'FAILURE_CREATED' } },
		],
		[
			'the X-Webhook-Event header',
			{ body: { id: 4 }, headers: { 'X-Webhook-Event': 'failure_created' } },
		],
	];

	it.each(cases)('finds it in %s', async (_label, delivery) => {
		const run = await deliver({ ...none, events: ['FAILURE_CREATED'] }, delivery);
		expect(startedItem(run)?.event).toBe('FAILURE_CREATED');
		const headers: Record<string, unknown> = {};
		for (const [name, value] of Object.entries(delivery.headers ?? {}))
			headers[name.toLowerCase()] = value;
		expect(
			detectEvent(delivery.body as Record<string, unknown>, delivery.query ?? {}, headers),
		).toBe('FAILURE_CREATED');
	});

	it('prefers the payload over the query, and the query over the header', async () => {
		const all = { ...none, events: ['*'] };
		const query = { event: 'FAILURE_CREATED' };
		const headers = { 'x-event-name': 'FILE_DELETED' };
		expect(
			startedItem(await deliver(all, { body: { event: 'BUY_ORDER_UPDATED' }, query, headers }))
				?.event,
		).toBe('BUY_ORDER_UPDATED');
		expect(startedItem(await deliver(all, { body: { id: 1 }, query, headers }))?.event).toBe(
			'FAILURE_CREATED',
		);
		expect(startedItem(await deliver(all, { body: { id: 1 }, headers }))?.event).toBe(
			'FILE_DELETED',
		);
	});

	it('prefers the top level over one level down, and the field order event, event_type, type, name, action, topic', async () => {
		const all = { ...none, events: ['*'] };
		const nestedFirst = { data: { event: 'FILE_CREATED' }, topic: 'QUOTE_READY' };
		expect(startedItem(await deliver(all, { body: nestedFirst }))?.event).toBe('QUOTE_READY');
		const ordered = { topic: 'QUOTE_READY', action: 'FILE_CREATED', event_type: 'FAILURE_CLOSED' };
		expect(startedItem(await deliver(all, { body: ordered }))?.event).toBe('FAILURE_CLOSED');
	});

	it('does not look two levels down', async () => {
		const run = await deliver(
			{ ...none, events: ['FAILURE_CREATED'] },
			{ body: { a: { b: { event: 'FAILURE_CREATED' } } } },
		);
		expect(run.result.workflowData).toBeUndefined();
	});

	it('does not take resource attributes such as type CYCLIC, type work or a name for an event', async () => {
		const body = {
			type: 'CYCLIC',
			name: 'Boiler check',
			data: { type: 'work', id: '7', attributes: { type: 'PLAN' } },
		};
		const all = await deliver({ ...none, events: ['*'] }, { body });
		expect(startedItem(all)?.event).toBeNull();
		const withQuery = await deliver(
			{ ...none, events: ['*'] },
			{ body, query: { event: 'WORK_LOCATIONS_UPDATED' } },
		);
		expect(startedItem(withQuery)?.event).toBe('WORK_LOCATIONS_UPDATED');
	});

	it('ignores an unknown value in the query parameter or a header', async () => {
		const run = await deliver(
			{ ...none, events: ['*'] },
			{ body: {}, query: { event: 'SOMETHING' }, headers: { 'X-Event-Name': 'ELSE' } },
		);
		expect(startedItem(run)?.event).toBeNull();
	});
});

describe('the explicit property path', () => {
	const settings = (events: string[]) => ({ ...none, events, options: { eventPath: 'meta.kind' } });

	it('reads the event at that path', async () => {
		const run = await deliver(settings(['QUOTE_READY']), {
			body: { meta: { kind: 'quote.ready' } },
		});
		expect(startedItem(run)?.event).toBe('QUOTE_READY');
	});

	it('reads that path instead of the likely fields', async () => {
		const run = await deliver(settings(['QUOTE_READY']), {
			body: { event: 'QUOTE_READY', meta: { kind: 'FILE_CREATED' } },
		});
		expect(run.result.workflowData).toBeUndefined();
		expect(answeredBody(run)).toMatchObject({ ignored: true, event: 'FILE_CREATED' });
		const elsewhere = await deliver(settings(['QUOTE_READY']), { body: { event: 'QUOTE_READY' } });
		expect(elsewhere.result.workflowData).toBeUndefined();
		expect(answeredBody(elsewhere)).toMatchObject({ ignored: true, event: null });
	});

	it('keeps any other text found there as the event, which passes only with All Events', async () => {
		const body = { meta: { kind: ' custom.thing ' } };
		expect(startedItem(await deliver(settings(['*']), { body }))?.event).toBe('custom.thing');
		const selected = await deliver(settings(['FAILURE_CREATED']), { body });
		expect(selected.result.workflowData).toBeUndefined();
	});

	it('repeats at most 100 characters of a long event text in its answer', async () => {
		const long = `custom.${'x'.repeat(5 * 1024 * 1024)}`;
		const body = { meta: { kind: long } };
		const ignored = await deliver(settings(['FAILURE_CREATED']), { body });
		expect(answeredBody(ignored)).toEqual({
			received: true,
			ignored: true,
			event: `${long.slice(0, 100)}…`,
			reason: 'The event is not selected in the trigger',
		});
		const started = await deliver(settings(['*']), { body });
		expect(answeredBody(started)).toEqual({ received: true, event: `${long.slice(0, 100)}…` });
		expect(startedItem(started)?.event).toBe(long);
		const short = await deliver(settings(['FAILURE_CREATED']), {
			body: { meta: { kind: 'x'.repeat(100) } },
		});
		expect(answeredBody(short)).toMatchObject({ event: 'x'.repeat(100) });
	});

	it('falls back to the query parameter and the headers when the path holds no text', async () => {
		const byQuery = await deliver(settings(['QUOTE_READY']), {
			body: { meta: { kind: 7 } },
			query: { event: 'QUOTE_READY' },
		});
		expect(startedItem(byQuery)?.event).toBe('QUOTE_READY');
		const byHeader = await deliver(settings(['QUOTE_READY']), {
			body: {},
			headers: { 'X-Event-Name': 'QUOTE_READY' },
		});
		expect(startedItem(byHeader)?.event).toBe('QUOTE_READY');
	});

	it('is trimmed, and a blank path means the usual scan', async () => {
		const blank = await deliver(
			{ ...none, events: ['QUOTE_READY'], options: { eventPath: '   ' } },
			{ body: { event: 'QUOTE_READY' } },
		);
		expect(startedItem(blank)?.event).toBe('QUOTE_READY');
		const padded = await deliver(
			{ ...none, events: ['QUOTE_READY'], options: { eventPath: ' meta.kind ' } },
			{ body: { meta: { kind: 'QUOTE_READY' } } },
		);
		expect(startedItem(padded)?.event).toBe('QUOTE_READY');
	});
});

describe('a delivery with no detectable event', () => {
	it('starts the workflow with All Events, with event null', async () => {
		const run = await deliver({ ...none, events: ['*'] }, { body: { hello: 'world' } });
		expect(startedItem(run)).toMatchObject({ event: null, payload: { hello: 'world' } });
		expect(answeredBody(run)).toEqual({ received: true, event: null });
	});

	it('is answered 200 as ignored with a selection, starting nothing', async () => {
		const run = await deliver(
			{ ...none, events: ['FAILURE_CREATED', 'FILE_CREATED'] },
			{ body: { hello: 'world' } },
		);
		expect(run.result.workflowData).toBeUndefined();
		expect(run.sent).toBeUndefined();
		expect(answeredBody(run)).toEqual({
			received: true,
			ignored: true,
			event: null,
			reason: 'The event could not be detected',
		});
	});

	it('is ignored when no event is selected at all', async () => {
		const run = await deliver({ ...none, events: [] }, { body: { event: 'FAILURE_CREATED' } });
		expect(run.result.workflowData).toBeUndefined();
	});
});
