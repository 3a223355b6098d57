/**
 * The 47 webhook events of the API specification (section "Events"), grouped as the spec groups them.
 * `name` is the human label shown in the trigger; `description` is the spec's trigger text.
 */
export interface EventDefinition {
	value: string;
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
	['WORK_LOCATIONS_', 'Planned Job'],
];

const TABLE: Array<[string, string, string]> = [
	// Buy Orders
	['BUY_ORDER_CONFIRMED', 'Buy Order Confirmed', 'A purchase order is confirmed'],
	['BUY_ORDER_CREATED', 'Buy Order Created', 'A purchase order is created'],
	['BUY_ORDER_RECEIVED', 'Buy Order Received', 'A purchase order is received'],
	['BUY_ORDER_STATE_CHANGED', 'Buy Order State Changed', 'A purchase order moves to any state'],
	['BUY_ORDER_STARTED', 'Buy Order Started', 'A purchase order is started'],
	['BUY_ORDER_UPDATED', 'Buy Order Updated', 'A purchase order is updated'],
	// Elements (Assets)
	[
		'ELEMENT_CHARACTERISTICS_UPDATED',
		'Asset Characteristics Updated',
		'Technical information of an asset is updated',
	],
	['ELEMENT_CREATED', 'Asset Created', 'An asset is created'],
	['ELEMENT_UPDATED', 'Asset Updated', 'An asset is updated'],
	// Failures (Work Orders)
	[
		'FAILURE_APPROVED',
		'Work Order Approved (Approval Given)',
		'Approval given: a work order that was waiting for approval is approved',
	],
	['FAILURE_CLOSED', 'Work Order Closed', 'A work order is closed'],
	[
		'FAILURE_COMPLETED_CONFIRMED',
		'Work Order Completion Confirmed',
		'A completed work order is confirmed',
	],
	[
		'FAILURE_CREATED',
		'Work Order Created or Waiting for Approval',
		'A work order is created or reported. A reported work order waiting for approval arrives as this event (status WAITING_APPROVAL)',
	],
	['FAILURE_MESSAGE_CREATED', 'Work Order Message Created', 'A message is created on a work order'],
	[
		'FAILURE_NOT_APPROVED',
		'Work Order Not Approved (Approval Declined)',
		'Approval refused: a work order that was waiting for approval is declined (not approved)',
	],
	[
		'FAILURE_PAUSE_REASON_UPDATED',
		'Work Order Pause Reason Updated',
		'The pause reason of a work order is changed',
	],
	['FAILURE_PAUSED', 'Work Order Paused', 'A work order is paused'],
	['FAILURE_RESUMED', 'Work Order Resumed', 'A work order is resumed'],
	['FAILURE_STARTED', 'Work Order Started', 'A work order is started'],
	['FAILURE_STATE_CHANGED', 'Work Order State Changed', 'A work order moves to any state'],
	[
		'FAILURE_UNDO_APPROVED',
		'Work Order Approval Undone (Unapproved)',
		'An approved work order is disapproved: it waits for approval again',
	],
	['FAILURE_UPDATED', 'Work Order Updated', 'A work order is updated'],
	// Files
	['FILE_CREATED', 'Document Created', 'A document is created'],
	['FILE_UPDATED', 'Document Updated', 'A document is updated'],
	['FILE_UPLOADED', 'File Uploaded', 'A file is uploaded to a new or existing document'],
	['FILE_DELETED', 'Document Deleted', 'A document is deleted'],
	// Quotes
	['QUOTE_ACCEPTED', 'Quote Accepted', 'A sale quote is approved'],
	['QUOTE_READY', 'Quote Ready', 'A sale quote is set as ready'],
	// Quote Requests
	['QUOTE_REQUEST_CREATED', 'Quote Request Created', 'A purchase quote request is created'],
	[
		'QUOTE_REQUEST_STATE_CHANGED',
		'Quote Request State Changed',
		'A purchase quote request moves to any state',
	],
	// Sell Orders
	['SELL_ORDER_COMPLETED', 'Sell Order Completed', 'A sale is completed'],
	['SELL_ORDER_CONFIRMED', 'Sell Order Confirmed', 'A sale is confirmed'],
	['SELL_ORDER_UNCONFIRMED', 'Sell Order Unconfirmed', 'A confirmed sale is unconfirmed'],
	['SELL_ORDER_UPDATED', 'Sell Order Updated', 'A sale is updated'],
	// Scheduled Works (Planned Job Orders)
	['SCHEDULED_WORK_COMPLETED', 'Planned Job Order Completed', 'A planned job order is closed'],
	[
		'SCHEDULED_WORK_COMPLETED_CONFIRMED',
		'Planned Job Order Completion Confirmed',
		'A completed planned job order is confirmed',
	],
	[
		'SCHEDULED_WORK_CREATED_BY_FAILURE',
		'Planned Job Order Created From Work Order',
		'A planned job order resulting from a work order is created',
	],
	[
		'SCHEDULED_WORK_STATE_CHANGED',
		'Planned Job Order State Changed',
		'A planned job order moves to any state',
	],
	['SCHEDULED_WORK_UPDATED', 'Planned Job Order Updated', 'A planned job order is updated'],
	['SCHEDULED_WORK_PAUSED', 'Planned Job Order Paused', 'A planned job order is paused'],
	// Planner
	[
		'PLANNED_EVENT_DELETED',
		'Planner Event Deleted',
		'A planned work event in the planner is deleted',
	],
	[
		'PLANNED_EVENT_FROM_SCHEDULED_WORK',
		'Planner Event Assigned',
		'A planned work event is assigned to an operator',
	],
	[
		'PLANNED_EVENT_STATE_CHANGE',
		'Planner Event State Changed',
		'A planned work event moves to any state',
	],
	['PLANNED_EVENT_UPDATED', 'Planner Event Updated', 'A planned work event is updated'],
	// Other
	[
		'MANUAL_METERING_CREATED',
		'Manual Metering Created',
		'A manual metering for an asset is created',
	],
	[
		'HOUSEKEEPER_ASSET_STATUS_CHANGED',
		'Housekeeper Asset Status Changed',
		'A housekeeper asset moves to any state',
	],
	[
		'WORK_LOCATIONS_UPDATED',
		'Planned Job Locations Updated',
		'A location related to a planned job is updated',
	],
];

/** The Events choice that takes every delivery, including those whose event cannot be detected. */
export const ALL_EVENTS = '*';

export const EVENTS: EventDefinition[] = TABLE.map(([value, name, description]) => ({
	value,
	name,
	label: name.replace(/ \(.+\)$/, ''),
	description,
	recordType: RECORD_TYPES.find(([prefix]) => value.startsWith(prefix))?.[1] ?? '',
}));

/** Each event by its value. */
export const EVENT_BY_VALUE: ReadonlyMap<string, EventDefinition> = new Map(
	EVENTS.map((event) => [event.value, event]),
);

export const EVENT_NAMES: ReadonlySet<string> = new Set(EVENTS.map((event) => event.value));
