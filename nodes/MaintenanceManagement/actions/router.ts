import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../transport';
import { errorItem, executeEndpoint } from './executor';
import { resources } from './resources';
import type { OperationModule } from './types';

/** The per-item loop: item i in, its records out, paired with it; "Continue On Fail" keeps the others going. */
export async function runPerItem(
	this: IExecuteFunctions,
	operation: OperationModule,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const records = await executeEndpoint.call(this, operation, itemIndex);
			for (const json of records) output.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
			output.push(errorItem(error, itemIndex));
		}
	}
	return output;
}

/** Dispatches on the selected resource and operation. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.operations[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);
	}
	const run =
		operation.executeAll ??
		((input: INodeExecutionData[]) => runPerItem.call(this, operation, input));
	return [await run.call(this, items)];
}
