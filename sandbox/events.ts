/**
 * What the sandbox's webhook events are about, and what its users do that fires them: each event names
 * the collection of the store its record comes from, and each action on a work order or buy order moves
 * the record to a consistent state and names the events that follow.
 */
import { EVENTS, type EventName } from '../nodes/MaintenanceManagementTrigger/events';
import type { Attributes, Resource, Store } from './data';

/** The store collection an event's record is taken from, by the event name's first words. */
const SOURCES: Array<[prefix: string, collection: keyof Store]> = [
	['BUY_ORDER_', 'buyOrders'],
	['FAILURE_', 'failures'],
	['SCHEDULED_WORK_', 'scheduledWorks'],
	['PLANNED_EVENT_', 'scheduledWorks'],
	['WORK_LOCATIONS_', 'works'],
];

/**
 * The sandbox stores no documents, assets, meterings, housekeeper assets, quotes or sell orders as
 * records of their own: their events carry a location, where such things belong in the service.
 */
export function sourceOf(event: string): keyof Store {
	return SOURCES.find(([prefix]) => event.startsWith(prefix))?.[1] ?? 'locations';
}

/** Each event with its label and the collection its records come from, for the console. */
export const EVENT_SOURCES = EVENTS.map((event) => ({
	...event,
	collection: sourceOf(event.value),
}));

export const sqlNow = (): string => new Date().toISOString().replace('T', ' ').slice(0, 19);

/**
 * The work order's status and every field that follows from it, as the seed data has them: approval
 * fields only once approved, start, pause and completion fields only in those states.
 */
export function setFailureStatus(attributes: Attributes, status: string, now = sqlNow()): void {
	const approved = status !== 'WAITING_APPROVAL';
	const declined = status === 'ARCHIVED' && attributes.approved === false;
	const completed = status === 'COMPLETED' || (status === 'ARCHIVED' && !declined);
	const keep = (field: string, when: boolean) =>
		when ? ((attributes[field] as string | null) ?? now) : null;
	Object.assign(attributes, {
		status,
		last_status_description: status,
		last_status_change_date: now,
		updated_at: now,
		approved: approved && !declined,
		approved_date: keep('approved_date', approved && !declined),
		started: status === 'IN_RESOLUTION' || status === 'PAUSED' || completed,
		paused: status === 'PAUSED',
		paused_date: status === 'PAUSED' ? now : null,
		pause_reason_id: status === 'PAUSED' ? ((attributes.pause_reason_id as number) ?? 1) : null,
		completed,
		solved: completed,
		completed_date: keep('completed_date', completed),
		archived: status === 'ARCHIVED',
		confirmed: status === 'ARCHIVED' && !declined,
	});
}

interface Action {
	from: string[];
	to: string;
	event: EventName;
}

/** What a user does to a work order: the states it is allowed from, where it goes, what it fires. */
export const FAILURE_ACTIONS: Record<string, Action> = {
	approve: { from: ['WAITING_APPROVAL'], to: 'WAITING_RESOLUTION', event: 'FAILURE_APPROVED' },
	decline: { from: ['WAITING_APPROVAL'], to: 'ARCHIVED', event: 'FAILURE_NOT_APPROVED' },
	'undo-approval': {
		from: ['WAITING_RESOLUTION'],
		to: 'WAITING_APPROVAL',
		event: 'FAILURE_UNDO_APPROVED',
	},
	start: { from: ['WAITING_RESOLUTION'], to: 'IN_RESOLUTION', event: 'FAILURE_STARTED' },
	pause: { from: ['IN_RESOLUTION'], to: 'PAUSED', event: 'FAILURE_PAUSED' },
	resume: { from: ['PAUSED'], to: 'IN_RESOLUTION', event: 'FAILURE_RESUMED' },
	complete: { from: ['IN_RESOLUTION', 'PAUSED'], to: 'COMPLETED', event: 'FAILURE_CLOSED' },
	'confirm-completion': {
		from: ['COMPLETED'],
		to: 'ARCHIVED',
		event: 'FAILURE_COMPLETED_CONFIRMED',
	},
};

export class ActionRefused extends Error {}

/** Applies a user's action to a work order and returns the events it fires, the specific one first. */
export function actOnFailure(failure: Resource, name: string): EventName[] {
	const action = FAILURE_ACTIONS[name];
	if (!action)
		throw new ActionRefused(
			`No work order action "${name}": use one of ${Object.keys(FAILURE_ACTIONS).join(', ')}`,
		);
	const status = String(failure.attributes.status);
	if (!action.from.includes(status))
		throw new ActionRefused(
			`Work order ${failure.id} is ${status}; "${name}" needs ${action.from.join(' or ')}`,
		);
	if (name === 'decline') failure.attributes.approved = false;
	if (name === 'undo-approval') failure.attributes.approved_date = null;
	setFailureStatus(failure.attributes, action.to);
	return [action.event, 'FAILURE_STATE_CHANGED'];
}

/** A new work order as a user reports it: waiting for approval, nothing started. */
export function reportedFailure(
	store: Store,
	given: { description?: unknown; local_id?: unknown },
): Resource {
	const id = store.failures.peekId();
	const template = store.failures.items[0]?.attributes ?? {};
	const now = sqlNow();
	const attributes: Attributes = {
		...template,
		failure_id: id,
		uuid: `000000f0-0000-4000-8000-${id.toString(16).padStart(12, '0')}`,
		code: `WO-${id}`,
		description:
			typeof given.description === 'string' ? given.description : `Reported problem ${id}`,
		fts_vector: `wo-${id}`,
		local_id: Number(given.local_id ?? template.local_id ?? 1),
		start_date: now,
		message_count: 0,
		approved: false,
		approved_date: null,
		completed_date: null,
		// A record made now: its times are now, and it has no history yet.
		created_at: now,
		time_statistics: Object.fromEntries(
			Object.keys((template.time_statistics as Attributes | undefined) ?? {}).map((key) => [
				key,
				null,
			]),
		),
	};
	setFailureStatus(attributes, 'WAITING_APPROVAL', now);
	return store.failures.add(attributes);
}
