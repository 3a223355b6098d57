/**
 * The API's envelope: the shape of every answer, its error envelope among them, and what the node
 * takes from it.
 */

import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../shared/plainObject';

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

const isResource = (value: unknown): value is ApiResource => isPlainObject(value);

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

/** The error body the spec defines: `{ status: 'error', error: { http_code, message, more_info, properties?, dev_message? } }`. */
export interface ApiErrorBody {
	http_code?: number;
	message?: string;
	more_info?: string | null;
	dev_message?: string;
	properties?: Record<string, unknown>;
}

export const readErrorBody = (body: unknown): ApiErrorBody => {
	if (body && typeof body === 'object' && 'error' in body) {
		const inner = (body as { error: unknown }).error;
		if (inner && typeof inner === 'object') return inner as ApiErrorBody;
	}
	return {};
};

/** Whether a body is the API's error envelope: `status: 'error'`, or an `error` object. */
export const isErrorEnvelope = (body: unknown): boolean =>
	(typeof body === 'object' &&
		body !== null &&
		(body as { status?: unknown }).status === 'error') ||
	Object.keys(readErrorBody(body)).length > 0;
