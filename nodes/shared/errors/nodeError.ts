/**
 * The node's own errors: anything else wrapped as one (`asNodeError`), a fault of the node's own
 * (`ownFault`), and a refusal in the catalogue's words (`refusal`).
 */

import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Redaction } from '../../MaintenanceManagement/transport/redact';
import type { Words } from './messages';
import type { NodeError } from './outcome';
import { plainText } from './text';

/** Passes the node's own errors through unchanged and wraps anything else, keeping the item index. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), {
		itemIndex,
	});
}

/**
 * A fault of the node's own (an error of none of the node's types) as a node error whose message
 * first says what the node was doing, `doing`, and whose text holds no token; the node's own errors
 * pass unchanged.
 */
export function ownFault(
	node: INode,
	error: unknown,
	fault: { itemIndex?: number; redaction: Redaction; doing: string; description?: string },
): NodeError {
	const nodeError = asNodeError(node, error, fault.itemIndex);
	if (nodeError === error) return nodeError;
	nodeError.message = fault.redaction.text(`${fault.doing}: ${plainText(nodeError.message)}`);
	if (fault.description !== undefined) nodeError.description = fault.description;
	return nodeError;
}

type ErrorOptions = Omit<
	NonNullable<ConstructorParameters<typeof NodeOperationError>[2]>,
	'message' | 'description'
> & {
	/** The parameters or request fields at fault, as paths (`filters.status`, `lines[0].quantity`). */
	fields?: string[];
};

/**
 * The node's error with these words. `options` say the item, the fields at fault (kept in the
 * error's context, for whoever reads the error rather than its words) and what else n8n records.
 */
export function refusal(
	node: INode,
	{ message, description }: Words,
	{ fields, ...options }: ErrorOptions = {},
): NodeOperationError {
	const error = new NodeOperationError(node, message, { ...options, description });
	if (fields) error.context.fields = fields;
	return error;
}
