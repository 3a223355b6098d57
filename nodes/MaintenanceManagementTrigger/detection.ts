import { EVENT_NAMES } from './events';

/** The payload fields that likely carry the event name, in the order they are looked at. */
export const EVENT_FIELDS = ['event', 'event_type', 'type', 'name', 'action', 'topic'] as const;

/** The query parameter a user can add to the registered URL, such as `?event=FAILURE_CREATED`. */
export const EVENT_QUERY_PARAMETER = 'event';

/** The headers that likely carry the event name (Node.js gives header names in lower case). */
export const EVENT_HEADERS = [
	'x-event-name',
	'x-event',
	'x-event-type',
	'x-webhook-event',
] as const;

const SEPARATORS = /[\s.-]+/g;

/**
 * Turns a value into one of the 47 event names, or undefined. Exact names cost one Set lookup;
 * otherwise case and the separators `.`, `-` and spaces are forgiven ("failure.created").
 */
export function toEventName(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	if (EVENT_NAMES.has(value)) return value;
	if (value.length === 0 || value.length > 64) return undefined;
	const name = value.trim().replace(SEPARATORS, '_').toUpperCase();
	return EVENT_NAMES.has(name) ? name : undefined;
}

const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Looks up a dotted path, such as `meta.event`, in the payload. */
export function valueAtPath(payload: Record<string, unknown>, path: string): unknown {
	let value: unknown = payload;
	for (const key of path.split('.')) {
		if (key === '') continue;
		if (!isObject(value)) return undefined;
		value = value[key];
	}
	return value;
}

const fromFields = (object: Record<string, unknown>): string | undefined => {
	for (const field of EVENT_FIELDS) {
		const event = toEventName(object[field]);
		if (event !== undefined) return event;
	}
	return undefined;
};

/** Scans the likely fields at the top level, then in each object one level down. */
function fromPayload(payload: Record<string, unknown>): string | undefined {
	const top = fromFields(payload);
	if (top !== undefined) return top;
	for (const key in payload) {
		const nested = payload[key];
		if (isObject(nested)) {
			const event = fromFields(nested);
			if (event !== undefined) return event;
		}
	}
	return undefined;
}

/**
 * Finds the event of a delivery: in the payload, then in the `event` query parameter, then in the
 * likely headers.
 *
 * - Without a property path, the likely fields are read at the top level and one level down, and
 *   only the 47 event names count, so an attribute such as a planned job's `type: "CYCLIC"` is never
 *   taken for an event.
 * - With a property path, only that path of the payload is read, and any text found there is the
 *   event: one of the 47 names in any case or separator style becomes that name, other text is kept
 *   as it is (it then only passes the filter with All Events).
 */
export function detectEvent(
	payload: Record<string, unknown>,
	query: Record<string, unknown>,
	headers: Record<string, unknown>,
	propertyPath?: string,
): string | undefined {
	if (propertyPath) {
		const value = valueAtPath(payload, propertyPath);
		if (typeof value === 'string' && value.trim() !== '') return toEventName(value) ?? value.trim();
	} else {
		const event = fromPayload(payload);
		if (event !== undefined) return event;
	}
	const fromQuery = toEventName(first(query[EVENT_QUERY_PARAMETER]));
	if (fromQuery !== undefined) return fromQuery;
	for (const name of EVENT_HEADERS) {
		const event = toEventName(first(headers[name]));
		if (event !== undefined) return event;
	}
	return undefined;
}
