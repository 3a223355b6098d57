import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { matchingCredential } from './credential';
import { detectEvent } from './detection';
import { ALL_EVENTS, EVENT_BY_VALUE } from './events';
import type { IncomingCall, Protection } from './protection';
import { matchesCredential, presentedBy } from './protection';
import { decodingBudget, headersWithoutSecret, withoutSecret } from './secretFilter';

interface TriggerOptions {
	eventPath?: string;
	includeHeaders?: boolean;
}

/** What an authorized call was checked with: the parameter or header carrying the secret, and the secret. */
interface Access {
	secretName: string;
	secret: string;
}

/** The longest event text the answer repeats; the started item keeps the whole text. */
const ECHOED_EVENT_LENGTH = 100;

/** The event as the answer repeats it: a sender cannot make the answer as large as its delivery. */
const echoed = (event: string | null): string | null =>
	event !== null && event.length > ECHOED_EVENT_LENGTH
		? `${event.slice(0, ECHOED_EVENT_LENGTH)}…`
		: event;

const hasKeys = (object: IDataObject): boolean => {
	for (const _key in object) return true;
	return false;
};

/** Whether a Content-Type is JSON, the only type n8n parses as JSON (`application/json`, any parameters). */
const isJson = (contentType: unknown): boolean =>
	typeof contentType === 'string' &&
	contentType.split(';')[0].trim().toLowerCase() === 'application/json';

/** Answers a call without the right secret: 401, with a Basic auth challenge under Basic auth. */
function refuse(context: IWebhookFunctions, protection: Protection): undefined {
	const response = context.getResponseObject();
	if (protection === 'basicAuth') response.setHeader('WWW-Authenticate', 'Basic realm="Webhook"');
	response.status(401).json({ message: 'Unauthorized: the webhook secret is missing or wrong' });
	return undefined;
}

/** Checks the call's secret; a wrong or missing one is answered 401 here, and gives undefined. */
async function authorize(
	context: IWebhookFunctions,
	protection: Protection,
	call: IncomingCall,
): Promise<Access | undefined> {
	if (protection === 'none') return { secretName: '', secret: '' };
	let secretName = '';
	if (protection !== 'basicAuth')
		secretName = context.getNodeParameter('parameterName', '') as string;
	// A call that presents no secret is refused whatever the credential holds: without reading it.
	const presented = presentedBy(protection, call, secretName);
	if (presented === undefined) return refuse(context, protection);
	const credentials = await matchingCredential(context, (read) =>
		matchesCredential(presented, read),
	);
	if (credentials) return { secretName, secret: String(credentials.secret ?? '') };
	return refuse(context, protection);
}

/** The delivery's JSON object; any other body is answered 415 or 400 here, and gives undefined. */
function readPayload(context: IWebhookFunctions, headers: IDataObject): IDataObject | undefined {
	// The service sends JSON. n8n parses a form, text or XML body too before context runs, so a web page
	// could send one with no preflight: any other type is refused, whatever it holds.
	if (!isJson(headers['content-type'])) {
		context.getResponseObject().status(415).json({
			message:
				'Unsupported Media Type: send the event as JSON, with Content-Type: application/json',
		});
		return undefined;
	}
	// n8n answers malformed JSON with 422 before context runs; anything else that is not an object
	// (an array, a number) is refused here.
	const body = context.getBodyData() as unknown;
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		context.getResponseObject().status(400).json({ message: 'The body must be a JSON object' });
		return undefined;
	}
	return body as IDataObject;
}

/** The answer to an event the trigger is not set to start on: 200, so the service does not retry it. */
const ignored = (event: string | null): IWebhookResponseData => ({
	webhookResponse: {
		received: true,
		ignored: true,
		event: echoed(event),
		reason:
			event === null
				? 'The event could not be detected'
				: 'The event is not selected in the trigger',
	},
});

/** A delivery as the started item reports it. */
interface Call {
	method: string | undefined;
	query: IDataObject;
	headers: IDataObject;
}

/** The item a delivery starts the workflow with; `leftOut` names the secret it must not show. */
function startedItem(
	event: string | null,
	payload: IDataObject,
	call: Call,
	leftOut: Access,
	includeHeaders: boolean | undefined,
): IDataObject {
	// The event and its record in the editor's words beside the API's names (payload.data.type
	// stays "failure" where the editor says "Work Order").
	const known = event === null ? undefined : EVENT_BY_VALUE.get(event);
	const json: IDataObject = {
		event,
		...(known ? { eventName: known.label, recordType: known.recordType } : {}),
		method: call.method,
		receivedAt: new Date().toISOString(),
		payload,
	};
	// Proxies copy the URL and credentials into headers (X-Original-URI, Referer,
	// X-Forwarded-Authorization), encoded in many ways: whatever holds the secret is left out.
	// The secret's own parameter goes by its name; any other parameter or header by its name or value.
	const budget = decodingBudget();
	const ownParameter = (name: string) => name !== '' && name === leftOut.secretName;
	const outputQuery = withoutSecret(
		call.query,
		leftOut.secret,
		{ leftOutByName: ownParameter, joiner: '=' },
		budget,
	) as IDataObject;
	if (hasKeys(outputQuery)) json.query = outputQuery;
	if (includeHeaders)
		json.headers = headersWithoutSecret(call.headers, leftOut.secret, budget) as IDataObject;
	return json;
}

/** Answers one webhook delivery: checks its secret and body, then starts the workflow or ignores it. */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = context.getRequestObject();
	const headers = request.headers as IDataObject;
	const query = (request.query ?? {}) as IDataObject;
	const protection = context.getNodeParameter('authentication', 'query') as Protection;

	// The secret is checked before anything else is read, so a stranger learns nothing.
	const access = await authorize(context, protection, { query, headers });
	if (!access) return { noWebhookResponse: true };
	const payload = readPayload(context, headers);
	if (!payload) return { noWebhookResponse: true };

	const options = context.getNodeParameter('options', {}) as TriggerOptions;
	const eventPath = options.eventPath?.trim();
	const event = detectEvent(payload, query, headers, eventPath || undefined) ?? null;
	const events = context.getNodeParameter('events', []) as string[];
	if (!events.includes(ALL_EVENTS) && (event === null || !events.includes(event))) {
		return ignored(event);
	}
	// A query parameter is dropped by name only under query protection; any value holding the secret goes.
	const leftOut = { ...access, secretName: protection === 'query' ? access.secretName : '' };
	const call: Call = { method: request.method, query, headers };
	return {
		webhookResponse: { received: true, event: echoed(event) },
		workflowData: [[{ json: startedItem(event, payload, call, leftOut, options.includeHeaders) }]],
	};
}
