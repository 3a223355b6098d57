import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { refusal } from '../../shared/errors/nodeError';
import { withOutcome } from '../../shared/errors/outcome';
import { notConfirmed as notConfirmedWords } from '../../shared/errors/messages';
import type { OutputChoice } from '../../shared/simplify';
import type { ApiEnvelope, ApiRequest } from '../transport';
import { apiRequest, buildPath, getConnection } from '../transport';
import type { ItemLoop } from './itemLoop';
import { itemLoopFor } from './itemLoop';
import { afterAnswer, readOutput, readRequestPolicy } from './perItem';
import { answerShape, readBody, readPathValues } from './request';
import type { HttpMethod, OperationModule } from '../../shared/types';

/** An item's share of a grouped request: its path values and its validated body. */
export interface ItemPart {
	itemIndex: number;
	pathValues: Record<string, string>;
	body: IDataObject;
}

/** How an operation sends its items together. */
export interface Grouping {
	/** The most items in one request; all items share one request when absent. */
	size?: number;
	/** Throws when the item cannot share a request with the items gathered before it. */
	check?: (context: IExecuteFunctions, part: ItemPart, gathered: ItemPart[]) => void;
	/** The body of one group's request. */
	body: (group: ItemPart[]) => IDataObject;
	/**
	 * The output record of each item of the group, in the group's order, from its answer; undefined
	 * for an item the answer does not confirm.
	 */
	share: (
		group: ItemPart[],
		envelope: ApiEnvelope,
		output: OutputChoice,
	) => Array<IDataObject | undefined>;
}

/** Reads and checks every item before anything is sent; an item that fails is left out of the groups. */
async function gatherParts(
	context: IExecuteFunctions,
	operation: OperationModule,
	grouping: Grouping,
	loop: ItemLoop,
): Promise<ItemPart[]> {
	const gathered: ItemPart[] = [];
	for (let itemIndex = 0; itemIndex < loop.itemCount; itemIndex++) {
		await loop.guard([itemIndex], () => {
			const part: ItemPart = {
				itemIndex,
				pathValues: readPathValues(context, operation, itemIndex),
				body: readBody(context, operation, itemIndex),
			};
			grouping.check?.(context, part, gathered);
			gathered.push(part);
		});
	}
	return gathered;
}

/** The error of an item sent in a group whose answer leaves out its record. */
const notConfirmed = (node: INode, method: HttpMethod, itemIndex: number) =>
	withOutcome(refusal(node, notConfirmedWords(itemIndex, method), { itemIndex }), 'unknown');

/** Sends one group as one request, and outputs each item's record or fails the unconfirmed ones. */
async function sendGroup(
	context: IExecuteFunctions,
	operation: OperationModule,
	grouping: Grouping,
	group: ItemPart[],
	loop: ItemLoop,
): Promise<void> {
	const { endpoint } = operation;
	const first = group[0].itemIndex;
	const request: ApiRequest = {
		method: endpoint.method,
		path: buildPath(endpoint.path, group[0].pathValues),
		body: grouping.body(group),
		answers: answerShape(endpoint),
	};
	const output = readOutput(context, first);
	const policy = readRequestPolicy(context, first);
	const envelope = await apiRequest(context, request, policy, first);
	const { redaction } = await getConnection(context, first);
	const records = afterAnswer(context, first, request.method, redaction, () =>
		grouping.share(group, envelope, output),
	);
	// Every item the answer confirms is written, whichever item it leaves out.
	const unconfirmed = new Map<number, ReturnType<typeof notConfirmed>>();
	for (const [index, { itemIndex }] of group.entries()) {
		const record = records[index];
		if (record) loop.output(itemIndex, [record]);
		else unconfirmed.set(itemIndex, notConfirmed(context.getNode(), endpoint.method, itemIndex));
	}
	loop.unconfirmed(unconfirmed);
	for (const [itemIndex, error] of unconfirmed) {
		await loop.guard([itemIndex], () => {
			throw error;
		});
	}
}

/**
 * Sends the items in groups, each group one request of the operation's endpoint. Every item is read
 * and validated before anything is sent; a failing item, or group, fails alone with "Continue On Fail".
 * Each item gets one output item, paired with it.
 */
export async function sendGrouped(
	context: IExecuteFunctions,
	operation: OperationModule,
	itemCount: number,
	grouping: Grouping,
): Promise<INodeExecutionData[]> {
	const loop = itemLoopFor(context, operation, itemCount);
	const parts = await gatherParts(context, operation, grouping, loop);
	const size = grouping.size ?? Math.max(parts.length, 1);
	for (let start = 0; start < parts.length; start += size) {
		const group = parts.slice(start, start + size);
		await loop.guard(
			group.map((part) => part.itemIndex),
			async () => await sendGroup(context, operation, grouping, group, loop),
		);
	}
	loop.finish();
	return loop.outputs.flat();
}
