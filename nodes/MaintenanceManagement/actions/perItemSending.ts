import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { toItems } from '../helpers/simplify';
import type { ApiEnvelope, ApiResource } from '../transport';
import { apiRequest, apiRequestAllItems, getConnection } from '../transport';
import { afterAnswer, recordsWithMeta } from './answer';
import { itemLoopFor } from './itemLoop';
import { readOutput } from './outputChoice';
import { buildRequest } from './request';
import { readRequestPolicy } from './requestPolicy';
import type { OperationModule } from './types';
import { withTakenValue } from './uniqueValues';

/** Runs one item through an endpoint and returns its output records. */
export async function executeEndpoint(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): Promise<IDataObject[]> {
	const request = buildRequest.call(this, operation, itemIndex);
	const policy = readRequestPolicy.call(this, itemIndex);
	const output = readOutput.call(this, itemIndex);
	const { redaction } = await getConnection.call(this, itemIndex);
	if (operation.endpoint.answers === 'page') {
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex, 50) as number);
		// Each page is read once it has arrived: a fault there comes after sending.
		const toRecords = (data: ApiResource[], included?: ApiResource[]) =>
			afterAnswer(this, itemIndex, request.method, redaction, () =>
				toItems(data, included, output),
			);
		return await apiRequestAllItems.call(
			this,
			request,
			{ returnAll, limit },
			toRecords,
			policy,
			itemIndex,
		);
	}
	let envelope: ApiEnvelope;
	try {
		envelope = await apiRequest.call(this, request, policy, itemIndex);
	} catch (error) {
		throw withTakenValue(operation, request, itemIndex, error);
	}
	return afterAnswer(this, itemIndex, request.method, redaction, () =>
		toItems(recordsWithMeta(envelope), envelope.included, output),
	);
}

/**
 * The default run of an operation: one request of its endpoint per input item, item i in, its records
 * out, paired with it; with "Continue On Fail" a failed item gets its error as output and the others go on.
 */
export async function runEndpoint(
	this: IExecuteFunctions,
	operation: OperationModule,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const loop = itemLoopFor(this, operation, items.length);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		await loop.guard([itemIndex], async () => {
			loop.output(itemIndex, await executeEndpoint.call(this, operation, itemIndex));
		});
	}
	loop.finish();
	return loop.outputs.flat();
}
