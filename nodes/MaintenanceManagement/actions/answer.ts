import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiEnvelope, ApiResource } from '../transport';
import { recordsOf } from '../transport';
import { ownFault, sentAndUnknown } from '../transport/errors';
import type { Redaction } from '../transport/redact';

/**
 * Reads an answer: a failure after the API answered leaves the request's outcome unknown, never
 * unsent, and its message goes through the connection's `redaction`, so it holds no form of the token.
 */
export function afterAnswer<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	method: string,
	redaction: Redaction,
	read: () => T,
): T {
	try {
		return read();
	} catch (error) {
		const doing = "The node could not read the API's answer";
		throw sentAndUnknown(
			ownFault(context.getNode(), error, { itemIndex, redaction, doing }),
			method,
		);
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
