/** The API's envelope: the shape of every answer, and what the node takes from it. */

import type { IDataObject } from 'n8n-workflow';

/** A resource object of the spec's envelope. */
export interface ApiResource {
	id: string;
	type: string;
	attributes?: IDataObject;
	relationships?: Record<string, { data: ResourceRef | ResourceRef[] | null }>;
	meta?: IDataObject;
	[key: string]: unknown;
}

export interface ResourceRef {
	id: string;
	type: string;
}

export interface ApiEnvelope {
	data?: ApiResource | ApiResource[] | null;
	included?: ApiResource[];
	meta?: IDataObject;
	links?: Record<string, string | undefined>;
}

const isResource = (value: unknown): value is ApiResource =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The records of an answer: its `data`, whether one resource, a list or none. An element that is not
 * an object (a `null` in a list) is no record: it is skipped, so an item it stood for counts as not
 * confirmed while the others stay confirmed.
 */
export const recordsOf = (envelope: ApiEnvelope): ApiResource[] =>
	Array.isArray(envelope.data)
		? envelope.data.filter(isResource)
		: isResource(envelope.data)
			? [envelope.data]
			: [];

/**
 * Makes every key of parsed JSON an own field, in place: a `__proto__` key is removed (copied by
 * assignment, it would set an object's prototype instead of a field), and an object whose prototype
 * was set that way gets a plain one back. Iterative, so a deep answer cannot exhaust the stack.
 */
export function ownFieldsOnly<T>(value: T): T {
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const current = pending.pop();
		if (typeof current !== 'object' || current === null) continue;
		const prototype: unknown = Object.getPrototypeOf(current);
		if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null)
			Object.setPrototypeOf(current, Array.isArray(current) ? Array.prototype : Object.prototype);
		if (Object.hasOwn(current, '__proto__'))
			delete (current as Record<string, unknown>)['__proto__'];
		for (const child of Object.values(current)) pending.push(child);
	}
	return value;
}

export type AnswerShape = 'one record' | 'a list of records';

/** The shape of an envelope's `data`. */
export const shapeOf = (envelope: ApiEnvelope): AnswerShape =>
	Array.isArray(envelope.data) ? 'a list of records' : 'one record';

export const isEnvelope = (body: unknown): body is ApiEnvelope =>
	typeof body === 'object' &&
	body !== null &&
	!Array.isArray(body) &&
	typeof (body as ApiEnvelope).data === 'object' &&
	(body as ApiEnvelope).data !== null;
