/**
 * The webhook events of spec/openapi.yaml (events.generated.ts), in the document's order, as the
 * trigger offers them. `name` is the human label shown in the trigger; `description` is the spec's
 * trigger text, with what the package assumes beyond it.
 */
import { SPEC_EVENTS, type EventName } from './events.generated';

export type { EventName } from './events.generated';

interface EventFacts {
	description: string;
	assumption?: string;
}

export interface EventDefinition {
	value: EventName;
	/** The option's name in the Events list, with words in parentheses that its search finds. */
	name: string;
	/** The event in words, as the canvas subtitle and the trigger's output give it: the name without those words. */
	label: string;
	description: string;
	/** The kind of record the event is about, as the editor names it ("Work Order" for a failure). */
	recordType: string;
}

/** The kind of record, by the first prefix of the event's name that matches: longer prefixes first. */
const RECORD_TYPES: Array<[prefix: string, recordType: string]> = [
	['BUY_ORDER_', 'Buy Order'],
	['ELEMENT_', 'Asset'],
	['FAILURE_', 'Work Order'],
	['FILE_UPLOADED', 'File'],
	['FILE_', 'Document'],
	['QUOTE_REQUEST_', 'Quote Request'],
	['QUOTE_', 'Quote'],
	['SELL_ORDER_', 'Sell Order'],
	['SCHEDULED_WORK_', 'Planned Job Order'],
	['PLANNED_EVENT_', 'Planner Event'],
	['MANUAL_METERING_', 'Manual Metering'],
	['HOUSEKEEPER_ASSET_', 'Housekeeper Asset'],
	['WORK_', 'Planned Job'],
];

/**
 * The event's name in the editor where the record's type and the event's own words, title-cased,
 * would read poorly, or where its search should find more words (those in parentheses).
 */
const NAMES: Partial<Record<EventName, string>> = {
	FAILURE_APPROVED: 'Work Order Approved (Approval Given)',
	FAILURE_COMPLETED_CONFIRMED: 'Work Order Completion Confirmed',
	FAILURE_CREATED: 'Work Order Created or Waiting for Approval',
	FAILURE_NOT_APPROVED: 'Work Order Not Approved (Approval Declined)',
	FAILURE_UNDO_APPROVED: 'Work Order Approval Undone (Unapproved)',
	FILE_UPLOADED: 'File Uploaded',
	SCHEDULED_WORK_COMPLETED_CONFIRMED: 'Planned Job Order Completion Confirmed',
	SCHEDULED_WORK_CREATED_BY_FAILURE: 'Planned Job Order Created From Work Order',
	PLANNED_EVENT_FROM_SCHEDULED_WORK: 'Planner Event Assigned',
	PLANNED_EVENT_STATE_CHANGE: 'Planner Event State Changed',
};

const titleCase = (words: string) =>
	words
		.toLowerCase()
		.split('_')
		.filter(Boolean)
		.map((word) => word[0].toUpperCase() + word.slice(1))
		.join(' ');

/** Each event of spec/openapi.yaml as the trigger offers it. */
function definitionOf(value: EventName): EventDefinition {
	const { description, ...facts } = SPEC_EVENTS[value] as EventFacts;
	const [prefix, recordType] = RECORD_TYPES.find(([start]) => value.startsWith(start)) ?? ['', ''];
	const name = NAMES[value] ?? `${recordType} ${titleCase(value.slice(prefix.length))}`;
	return {
		value,
		name,
		label: name.replace(/ \(.+\)$/, ''),
		description: facts.assumption ? `${description}. ${facts.assumption}` : description,
		recordType,
	};
}

/** The Events choice that takes every delivery, including those whose event cannot be detected. */
export const ALL_EVENTS = '*';

export const EVENTS: EventDefinition[] = (Object.keys(SPEC_EVENTS) as EventName[]).map(
	definitionOf,
);

/** Each event by its value. */
export const EVENT_BY_VALUE: ReadonlyMap<string, EventDefinition> = new Map(
	EVENTS.map((event) => [event.value, event]),
);

export const EVENT_NAMES: ReadonlySet<string> = new Set(EVENTS.map((event) => event.value));

/** Whether a text is the name of an event of the spec. */
export const isEventName = (value: unknown): value is EventName =>
	typeof value === 'string' && EVENT_NAMES.has(value);
