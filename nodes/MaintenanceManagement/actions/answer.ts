import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiEnvelope, ApiResource } from '../transport';
import { asNodeError, recordsOf } from '../transport';
import { withOutcome } from '../transport/errors';

/** Reads an answer: a failure after the API answered leaves the request's outcome unknown, never unsent. */
export function afterAnswer<T>(context: IExecuteFunctions, itemIndex: number, read: () => T): T {
	try {
		return read();
	} catch (error) {
		throw withOutcome(asNodeError(context.getNode(), error, itemIndex), 'unknown');
	}
}

/**
 * The records of an answer. The meta beside a single record (its custom_fields, a buy order's
 * cost_centers) describes that record, so it goes into the record's own meta.
 */
export function recordsWithMeta(envelope: ApiEnvelope): ApiResource[] {
	const data = recordsOf(envelope);
	const meta: IDataObject = { ...envelope.meta };
	delete meta.pagination;
	if (!Array.isArray(envelope.data) && data.length === 1 && Object.keys(meta).length) {
		data[0] = { ...data[0], meta: { ...meta, ...data[0].meta } };
	}
	return data;
}
