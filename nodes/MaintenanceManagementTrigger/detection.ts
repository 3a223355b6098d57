import { EVENT_NAMES } from './events';

/** The payload fields that likely carry the event name, in the order they are looked at. */
export const EVENT_FIELDS = ['event', 'event_type', 'type', 'name', 'action', 'topic'] as const;

/** The headers that likely carry the event name. */
export const EVENT_HEADERS = ['x-event-name', 'x-event', 'x-event-type', 'x-webhook-event'] as const;

export type DetectedFrom = 'payload' | 'path' | 'query' | 'header';

const asEventName = (value: unknown): string | undefined => {
	if (typeof value !== 'string') return undefined;
	const name = value.trim().toUpperCase();
	return EVENT_NAMES.has(name) ? name : undefined;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Looks up a dotted path, such as `meta.event`, in the payload. */
const atPath = (payload: Record<string, unknown>, path: string): unknown =>
	path
		.split('.')
		.filter(Boolean)
		.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), payload);

/**
 * Finds the event of a delivery. With an explicit property path, only that path is read. Otherwise:
 * the likely fields at the top level of the payload, then one level down; then the `event` query
 * parameter; then the likely headers. Only the 47 event names count, so a field such as a planned
 * job's `type: "CYCLIC"` is never taken for an event.
 */
export function detectEvent(
	payload: Record<string, unknown>,
	query: Record<string, unknown>,
	headers: Record<string, unknown>,
	propertyPath?: string,
): { event: string; from: DetectedFrom } | undefined {
	if (propertyPath) {
		const event = asEventName(atPath(payload, propertyPath));
		return event ? { event, from: 'path' } : undefined;
	}
	for (const field of EVENT_FIELDS) {
		const event = asEventName(payload[field]);
		if (event) return { event, from: 'payload' };
	}
	for (const key of Object.keys(payload)) {
		const nested = payload[key];
		if (!isObject(nested)) continue;
		for (const field of EVENT_FIELDS) {
			const event = asEventName(nested[field]);
			if (event) return { event, from: 'payload' };
		}
	}
	const fromQuery = asEventName(Array.isArray(query.event) ? query.event[0] : query.event);
	if (fromQuery) return { event: fromQuery, from: 'query' };
	for (const name of EVENT_HEADERS) {
		const event = asEventName(headers[name]);
		if (event) return { event, from: 'header' };
	}
	return undefined;
}
