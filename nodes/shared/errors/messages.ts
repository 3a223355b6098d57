/**
 * The message catalogue: the node's own words, each builder named for what it says, giving an error's
 * message and description or a line: what it refuses before sending, a credential it cannot use, the
 * credential Test's verdicts, a stopped run's summary, a long run's progress lines and the output
 * panel's hints. How a message quotes what comes from outside is in text.ts; the words of an API
 * error answer, by status, are in apiError.ts, those of the transport's own failures in failures.ts;
 * test/nodes/messages.test.ts reads these.
 */

import type { WaitReason } from '../../MaintenanceManagement/transport/retry';
import {
	API_TEXT,
	closedSentence,
	itemNumber,
	LINE_BREAK,
	plainText,
	QUOTE_LIMITS,
	quoted,
	withWriteAdvice,
} from './text';

/** An error's words: its message and, when it has one, its description. */
export interface Words {
	message: string;
	description?: string;
}

/** The Output option "Selected Fields" with no field named. */
export const noSelectedFields = (): Words => ({
	message:
		'"Fields" is empty: name the fields to output, separated by commas (for example "status, description"), or choose another Output. No request was sent.',
});

/** A resource and operation pair the node does not have. */
export const unsupportedOperation = (resource: string, operation: string): Words => ({
	message: `The operation "${operation}" of "${resource}" is not supported`,
});

/** An ID for the path that cannot be sent; `problem` says why. */
export const unusablePathId = (name: string, problem: string): Words => ({
	message: `"${name}" ${problem}`,
	description: `Enter the ID in "${name}" as the API gives it. No request was sent.`,
});

/** A field set both with its fields and as JSON (`key` is the JSON one). */
export const fieldsAndJson = (field: string, key: string): Words => ({
	message: `Set "${field}" either with its fields or as JSON, not both`,
	description: `Remove "${field}" or "${key}" from the parameters. No request was sent.`,
});

/** A JSON parameter that does not parse; `reason` is the parser's. */
export const invalidJson = (field: string, reason: string): Words => ({
	message: `"${field}" is not valid JSON`,
	description: `Fix the JSON in "${field}" (${plainText(reason)}). No request was sent.`,
});

/** A value the user set that resolves to nothing: the field, what it gave, and the fix. */
export const emptyValue = (
	label: string,
	result: string,
	fix: string,
	itemIndex: number,
): Words => ({
	message: `${label} is empty: ${result}`,
	description: `${fix} No request was sent for item ${itemNumber(itemIndex)}.`,
});

/** An item's input that its schema refuses: each problem names its field, one a line. */
export const invalidInput = (itemIndex: number, problems: string[]): Words => {
	const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
	return {
		message: `Invalid input in item ${itemNumber(itemIndex)}: ${problems[0]}${more}`,
		description: [
			...problems,
			'Fix the field(s) above and run again. No request was sent for this item.',
		].join(LINE_BREAK),
	};
};

/** An item sent in a group whose answer leaves out its record. */
export const notConfirmed = (itemIndex: number, method: string): Words => ({
	message: withWriteAdvice(
		`Item ${itemNumber(itemIndex)} was sent but not confirmed by the API`,
		method,
	),
	description:
		"The request succeeded, but the API's answer leaves out this item's record, so whether it was written is unknown.",
});

/** Two items of one Update Many that change the same location. */
export const locationUpdatedTwice = (
	itemIndex: number,
	locationId: string,
	earlierIndex: number,
): Words => ({
	message: `Item ${itemNumber(itemIndex)} updates location ${locationId}, which item ${itemNumber(earlierIndex)} already updates`,
	description:
		'Update Many changes each location once. Merge the fields of both items into one item before this node, or send the second change in a later run. No request was sent for this item.',
});

/** An item whose warehouse, action or observation differs from the combined batch's. */
export const cannotJoinBatch = (itemIndex: number, mismatch: string): Words => ({
	message: `Item ${itemNumber(itemIndex)} cannot join the combined batch: ${mismatch}`,
	description: `A combined batch has one warehouse, one action and one batch observation. Make them match across the items, or turn off "One Batch for All Items". No request was sent for this item.`,
});
/** The most IDs a stop's description lists; the error's context keeps them all. */
const LISTED_IDS = 200;

/** "1–3, 5, 7–9": consecutive whole numbers as ranges, anything else as it is. */
export function ranges(values: Array<string | number>): string {
	const parts: string[] = [];
	let start: number | undefined;
	let end: number | undefined;
	const close = () => {
		if (start !== undefined) parts.push(start === end ? String(start) : `${start}–${end}`);
		start = end = undefined;
	};
	for (const value of values) {
		const number = /^\d{1,15}$/.test(String(value)) ? Number(value) : undefined;
		if (number !== undefined && end !== undefined && number === end + 1) {
			end = number;
			continue;
		}
		close();
		if (number === undefined) parts.push(String(value));
		else start = end = number;
	}
	close();
	return parts.join(', ');
}

/** "item 4" or "items 0–2, 5": item numbers as n8n's editor gives them, counting from 0. */
const itemsNamed = (indexes: number[]): string =>
	`${indexes.length === 1 ? 'item' : 'items'} ${ranges(indexes)}`;

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** What became of a stopped run's items, item indexes sorted: the facts of its summary. */
export interface StoppedRun {
	itemCount: number;
	/** Whether its requests change data (items are "written") or read it. */
	writes: boolean;
	/** Whether the request whose error stopped the run may have been written (its outcome unknown). */
	unknownOutcome: boolean;
	written: number[];
	/** Items sent whose answer does not confirm them (a read's are none). */
	unknown: number[];
	/** The items of the step that failed. */
	failed: number[];
	notSent: number[];
	/** The IDs of the records output so far. */
	ids: Array<string | number>;
}

/**
 * The summary the error that stops a run adds: what became of every item and where to resume, and
 * the IDs written (or read) for its description.
 */
export function stopSummary(run: StoppedRun): { summary: string; listed: string } {
	const { itemCount, writes, unknownOutcome, written, unknown, failed, notSent, ids } = run;
	const verb = writes ? 'written' : 'read';
	const one = (list: number[]) => list.length === 1;
	const others = unknown.filter((index) => !failed.includes(index));
	const resume =
		!unknownOutcome || !writes
			? `Run again from item ${failed[0]}.`
			: notSent.length
				? `Run again from item ${notSent[0]}, and send ${itemsNamed(unknown)} again only if ${one(unknown) ? 'it is' : 'they are'} not there.`
				: '';
	const summary = [
		written.length
			? `${capital(itemsNamed(written))} of ${itemCount} ${one(written) ? 'was' : 'were'} ${verb}.`
			: '',
		others.length
			? `${capital(itemsNamed(others))} may have been ${verb}: the answer does not confirm ${one(others) ? 'it' : 'them'}; check whether ${one(others) ? 'it is' : 'they are'} there before sending ${one(others) ? 'it' : 'them'} again.`
			: '',
		notSent.length
			? `${capital(itemsNamed(notSent))} ${one(notSent) ? 'was' : 'were'} not sent.`
			: '',
		resume,
	]
		.filter(Boolean)
		.join(' ');
	const listed =
		ids.length === 0
			? ''
			: `IDs ${verb}: ${plainText(ranges(ids.slice(0, LISTED_IDS)))}${ids.length > LISTED_IDS ? ` and ${ids.length - LISTED_IDS} more (all in the error's context)` : ''}.`;
	return { summary, listed };
}

/** An error's message with a stop's summary: the node's words before the API's quoted text, each sentence closed. */
export function withSummary(message: string, summary: string): string {
	const quoted = message.indexOf(API_TEXT);
	return (
		quoted === -1
			? [closedSentence(message), summary]
			: [closedSentence(message.slice(0, quoted)), summary, message.slice(quoted)]
	)
		.filter(Boolean)
		.join(' ');
}

/** A length of time as a line gives it: "45 s" below 90 s, "2 min 30 s" below 10 min, else "12 min". */
export function duration(ms: number): string {
	if (ms < 90_000) return `${Math.max(1, Math.round(ms / 1000))} s`;
	if (ms >= 600_000) return `${Math.round(ms / 60_000)} min`;
	const tens = Math.round(ms / 10_000);
	const minutes = Math.floor(tens / 6);
	const seconds = (tens % 6) * 10;
	return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** The words of a long run's progress lines (see executor/itemLoop.ts). */
export const PROGRESS_WORDS = {
	done: (finished: number, count: number, left: number) =>
		`${finished} of ${count} items done, ${left} left`,
	timeLeft: (ms: number, perMinute: number) =>
		`, about ${duration(ms)} more at ${perMinute >= 1.5 ? `${Math.round(perMinute)} items a minute` : `${Math.max(1, Math.round(perMinute * 60))} items an hour`}`,
	waiting: (ms: number, reason: WaitReason) =>
		`; now waiting ${duration(ms)} ${reason === 'rateLimit' ? "for the API's rate limit" : 'before trying again'}`,
};

/** The line of a write's later try of Retry On Fail in n8n's log (see executor/itemLoop.ts). */
export const retriedTry = (node: string, tryNumber: number, maxTries: number, answered: number) =>
	`${node}: Retry On Fail, try ${tryNumber} of ${maxTries}: ${answered === 1 ? '1 row' : `${answered} rows`} the API answered in an earlier try ${answered === 1 ? 'is' : 'are'} not sent again`;

const CREDENTIAL = '"Maintenance Management API" credential';

/** The credential has no access token. */
export const tokenMissing = () => ({
	message: 'The access token is missing',
	description: `Enter the personal access token in the ${CREDENTIAL}. No request was sent.`,
});

/** The credential's token has a space or line break in it. */
export const tokenNotOneText = () => ({
	message: 'The access token contains a space or line break',
	description: `A token is one unbroken text: the API refuses any space or line break in it. Paste the token again in the ${CREDENTIAL}, on one line. No request was sent.`,
});

/** The base URL of the credential's environment cannot be used; `problem` says why. */
export const unusableBaseUrl = (label: string, problem: string) => ({
	message: `The credential's ${label} ${problem}`,
	description: `Set "${label}" in the credential to the address of the API: https://, the host, and the path ending with /v3 (for example https://api.example.com/v3). No request was sent.`,
});

/** Where the credential's Test shows its base URL's form: the example every message gives. */
const API_ADDRESS = "the API's address, ending with /v3 (for example https://api.example.com/v3)";

/**
 * The credential's Test's verdict on what the base URL answered: n8n's credential modal shows only a
 * message, so each says what happened and what to do.
 */
export const testAnswer = {
	refused: () =>
		'The token was refused. A token works only in the environment that issued it: check that Environment matches where the token was generated, and that the token is complete.',
	forbidden: () =>
		'The token was accepted, but its user may not read locations (HTTP 403), which is what Test reads. Use a token of a user allowed to read locations.',
	notFound: () =>
		`Not found (HTTP 404) at this base URL: nothing of the API answers there. Check the host and the path before /v3: enter ${API_ADDRESS}.`,
	redirect: (status: number) =>
		`The base URL answered with a redirect (HTTP ${status}). Test follows no redirect, so the token was sent nowhere else. If this is the service's web address rather than its API address, enter ${API_ADDRESS}.`,
	notTheApi: (status: number, contentType: string) =>
		`The base URL answered HTTP ${status}${contentType ? ` (${contentType})` : ''}, but not as the API does: the API answers with JSON records under "data". If this is the service's web address rather than its API address, enter ${API_ADDRESS}.`,
	otherStatus: (status: number) =>
		`The base URL answered HTTP ${status}, so the token could not be checked. Try again later; if it persists, check that the base URL is ${API_ADDRESS}.`,
	noAnswer: (reason: string) =>
		`No answer from the base URL (${reason}). Check the host and port, and that this n8n can reach them.`,
};

/**
 * The output panel's hint for names in Fields that no record output has. n8n's editor shows a hint as
 * HTML, and the names may come from item data: each is quoted as plain text, never markup.
 */
export function unknownFieldsHint(names: string[], missing: string[]): string {
	const list = missing.map((name) => quoted(name, QUOTE_LIMITS.name)).join(', ');
	return missing.length === names.length
		? `None of the fields named in Fields (${list}) is in these records, so each item holds only its ID. Use the API's field names, as Output: Raw shows them under attributes.`
		: `No record has ${list}, named in Fields: check the spelling against the API's field names, as Output: Raw shows them under attributes.`;
}
