import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { refusal } from '../../shared/errors/nodeError';
import { unknownFieldsHint, unsupportedOperation } from '../../shared/errors/messages';
import { inTries, keepsTries } from './retryOnFail';
import { nameList, runEndpoint } from './perItem';
import { resources } from '../actions/resources';

/**
 * With Output set to Selected Fields, a hint in the output panel names each field that none of the
 * records output has (a misspelt name, or one of another resource), rather than output IDs alone
 * without a word. Output and Fields are read for the item of the first record: they resolved for it.
 */
function hintUnknownFields(context: IExecuteFunctions, output: INodeExecutionData[]): void {
	if (context.getNode().typeVersion < 2) return;
	const records = output.filter(({ json }) => !Object.hasOwn(json, 'error'));
	if (!records.length) return;
	const { pairedItem } = records[0];
	const itemIndex =
		typeof pairedItem === 'object' && !Array.isArray(pairedItem) ? pairedItem.item : 0;
	let names: string[];
	try {
		if (context.getNodeParameter('output', itemIndex, 'simplified') !== 'selected') return;
		names = nameList(context.getNodeParameter('fields', itemIndex, ''));
	} catch {
		// A hint is never worth failing the run for: an item whose Output or Fields failed says so.
		return;
	}
	const missing = names.filter((name) => !records.some(({ json }) => Object.hasOwn(json, name)));
	if (!missing.length) return;
	const message = unknownFieldsHint(names, missing);
	context.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

/** Dispatches on the selected resource and operation. */
export async function router(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const resource = context.getNodeParameter('resource', 0) as string;
	const operationName = context.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.operations[operationName];
	if (!operation) {
		throw refusal(context.getNode(), unsupportedOperation(resource, operationName));
	}
	// With Retry On Fail, a write's later try sends no row an earlier try got an answer for.
	const writes = operation.endpoint.method !== 'GET';
	const run = async () =>
		operation.executeAll
			? await operation.executeAll(context, items)
			: await runEndpoint(context, operation, items);
	const output = keepsTries(context, writes)
		? await inTries(context, items, writes, run)
		: await run();
	hintUnknownFields(context, output);
	return [output];
}
