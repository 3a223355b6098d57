import { EVENTS } from '../../../nodes/MaintenanceManagementTrigger/events';
import { specEventNames } from '../../helpers/contract';
import { answeredBody, deliver, startedItem } from './harness';

/** Another event than the given one, to select when the given one must be ignored. */
const otherThan = (event: string) => EVENTS.find((e) => e.value !== event)!.value;

describe.each(specEventNames())('event %s of spec/openapi.yaml', (event) => {
	it('starts the workflow when it is selected', async () => {
		const run = await deliver(
			{ events: [event], authentication: 'none' },
			{ body: { event, data: { id: '1' } } },
		);
		const definition = EVENTS.find((e) => e.value === event);
		if (!definition)
			throw new Error(`${event} is not among the trigger's events: run npm run endpoints`);
		expect(startedItem(run)).toMatchObject({
			event,
			eventName: definition.label,
			recordType: definition.recordType,
			payload: { event, data: { id: '1' } },
		});
		// The kind of record is how the event's own label begins ("Work Order" in "Work Order Created").
		// A new event whose name starts unlike any known record type needs one (events.ts, RECORD_TYPES).
		expect(definition.recordType).toMatch(/^[A-Z]/);
		expect(definition.name.startsWith(`${definition.recordType} `)).toBe(true);
		expect(answeredBody(run)).toEqual({ received: true, event });
		expect(run.sent).toBeUndefined();
	});

	it('starts the workflow with All Events and among several selected events', async () => {
		const all = await deliver({ events: ['*'], authentication: 'none' }, { body: { event } });
		expect(startedItem(all)?.event).toBe(event);
		const several = await deliver(
			{ events: [otherThan(event), event], authentication: 'none' },
			{ body: { event } },
		);
		expect(startedItem(several)?.event).toBe(event);
	});

	it('is answered 200 as ignored, starting nothing, when another event is selected', async () => {
		const run = await deliver(
			{ events: [otherThan(event)], authentication: 'none' },
			{ body: { event } },
		);
		expect(run.result.workflowData).toBeUndefined();
		expect(answeredBody(run)).toEqual({
			received: true,
			ignored: true,
			event,
			reason: 'The event is not selected in the trigger',
		});
		expect(run.sent).toBeUndefined();
	});

	it('is found in the event query parameter and in the X-Event-Name header', async () => {
		const byQuery = await deliver(
			{ events: [event], authentication: 'none' },
			{ body: { id: 1 }, query: { event } },
		);
		expect(startedItem(byQuery)?.event).toBe(event);
		const byHeader = await deliver(
			{ events: [event], authentication: 'none' },
			{ body: { id: 1 }, headers: { 'X-Event-Name': event } },
		);
		expect(startedItem(byHeader)?.event).toBe(event);
	});
});
