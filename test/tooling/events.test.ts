import {
	EVENT_CARRIERS,
	SPEC_EVENTS,
} from '../../nodes/MaintenanceManagementTrigger/events.generated';
import {
	EVENTS_HEADER,
	EVENTS_PATH,
	eventCarriers,
	eventFacts,
	eventsSource,
	type WebhookDocument,
} from '../../scripts/events';
import { itIsGenerated, staleEntries } from '../helpers/generated';

describe('the event table (MaintenanceManagementTrigger/events.generated.ts)', () => {
	const { document, facts } = itIsGenerated({
		entry: 'webhook event',
		written: SPEC_EVENTS,
		facts: eventFacts,
		source: eventsSource,
		path: EVENTS_PATH,
		header: EVENTS_HEADER,
	});

	/** The document with its webhooks changed as given. */
	const withWebhooks = (
		change: (webhooks: WebhookDocument['webhooks']) => void,
	): WebhookDocument => {
		const copy = structuredClone(document);
		change(copy.webhooks);
		return copy;
	};

	it('holds where the document says a notification names its event', () => {
		expect(EVENT_CARRIERS).toEqual(eventCarriers(document));
	});

	it('names the event that is missing, extra or misspelt', () => {
		const written: Record<string, unknown> = { ...facts, FAILURE_CRATED: facts.FAILURE_CREATED };
		delete written.FAILURE_CREATED;
		delete written.QUOTE_READY;
		expect(staleEntries(written, facts)).toEqual([
			'FAILURE_CREATED: in the document, not in the table',
			'QUOTE_READY: in the document, not in the table',
			'FAILURE_CRATED: in the table, not in the document',
		]);
	});

	it("reads each event's group, description and assumption, on one line", () => {
		expect(facts.BUY_ORDER_STARTED).toEqual({
			group: 'Buy orders',
			description: 'A purchase order is started',
		});
		expect(facts.FAILURE_CREATED.assumption).toMatch(/^A work order reported by a user .+\)$/);
		expect(Object.values(facts).filter((event) => /\n/.test(JSON.stringify(event)))).toEqual([]);
	});

	it('reads the body fields, query parameters and headers of the shared notification', () => {
		expect(eventCarriers(document)).toEqual({
			fields: ['event', 'event_type', 'type', 'name', 'action', 'topic'],
			queryParameters: ['event'],
			headers: ['x-event-name', 'x-event', 'x-event-type', 'x-webhook-event'],
		});
	});

	it('names the webhook that lacks its description or group, and refuses a second notification', () => {
		const bare = withWebhooks((webhooks) => {
			delete webhooks.QUOTE_READY.description;
		});
		expect(() => eventFacts(bare)).toThrow(
			'spec/openapi.yaml: the webhook QUOTE_READY needs a description and an x-group',
		);
		const other = withWebhooks((webhooks) => {
			webhooks.QUOTE_READY.$ref = '#/components/pathItems/Other';
		});
		expect(() => eventCarriers(other)).toThrow(
			'every webhook must name one shared path item of components/pathItems',
		);
	});
});
