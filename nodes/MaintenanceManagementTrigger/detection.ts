import { EVENT_NAMES } from './events';
import { EVENT_CARRIERS } from './events.generated';

/**
 * Where a delivery is assumed to name its event, in the order it is looked at (spec/openapi.yaml's
 * shared notification): the payload's fields, then query parameters a user can add to the registered
 * URL (`?event=FAILURE_CREATED`), then headers (in lower case, as Node.js gives header names).
 */
const {
	fields: EVENT_FIELDS,
	queryParameters: EVENT_QUERY_PARAMETERS,
	headers: EVENT_HEADERS,
} = EVENT_CARRIERS;

const SEPARATORS = /[\s.-]+/g;

/**
 * Turns a value into one of the spec's event names, or undefined. Exact names cost one Set lookup;
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
 * Finds the event of a delivery: in the payload, then in the query parameters, then in the likely
 * headers.
 *
 * - Without a property path, the likely fields are read at the top level and one level down, and
 *   only the spec's event names count, so an attribute such as a planned job's `type: "CYCLIC"` is never
 *   taken for an event.
 * - With a property path, only that path of the payload is read, and any text found there is the
 *   event: one of the spec's names in any case or separator style becomes that name, other text is kept
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
	for (const [names, values] of [
		[EVENT_QUERY_PARAMETERS, query],
		[EVENT_HEADERS, headers],
	] as const) {
		for (const name of names) {
			const event = toEventName(first(values[name]));
			if (event !== undefined) return event;
		}
	}
	return undefined;
}
