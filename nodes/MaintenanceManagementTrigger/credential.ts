import type { IWebhookFunctions } from 'n8n-workflow';

/** The fields of the webhook credential the trigger reads. */
export interface WebhookCredentials {
	secret?: string;
	username?: string;
}

export const WEBHOOK_CREDENTIAL_TYPE = 'maintenanceManagementWebhookApi';

/**
 * How long one read of the credential serves the deliveries that present its secret. In n8n each read
 * costs a database query and, with the vm expression engine, an isolate of its own: more than all the
 * rest of what the trigger does for a delivery (BENCHMARKS.md).
 */
export const CREDENTIAL_KEPT_MS = 5_000;

/** At most this many reads are kept; past it, the kept reads are dropped and read again. */
const MOST_KEPT = 100;

interface KeptRead {
	credentials: Promise<WebhookCredentials>;
	readAt: number;
}

/** The latest read of each trigger node's credential: by workflow, node and credential. */
const kept = new Map<string, KeptRead>();

/** Which kept read serves a delivery: its node's own, in its workflow; none for a credential without an ID. */
function keyOf(context: IWebhookFunctions): string | undefined {
	const node = context.getNode();
	const id = node.credentials?.[WEBHOOK_CREDENTIAL_TYPE]?.id;
	return id ? JSON.stringify([context.getWorkflow().id ?? '', node.id, id]) : undefined;
}

/** Reads the credential through n8n and keeps the read, unless it fails: the next delivery then reads again. */
function read(context: IWebhookFunctions, key: string | undefined): Promise<WebhookCredentials> {
	const credentials = context.getCredentials<WebhookCredentials>(WEBHOOK_CREDENTIAL_TYPE);
	if (key === undefined) return credentials;
	const entry: KeptRead = { credentials, readAt: performance.now() };
	if (kept.size >= MOST_KEPT && !kept.has(key)) kept.clear();
	kept.set(key, entry);
	credentials.catch(() => {
		if (kept.get(key) === entry) kept.delete(key);
	});
	return credentials;
}

/**
 * The credential that what a call presents matches, or undefined. A read of the last
 * `CREDENTIAL_KEPT_MS` serves a call it matches; any other call is checked against a fresh read before
 * it is refused. So a changed secret is accepted with its first delivery, and the former one is refused
 * at most `CREDENTIAL_KEPT_MS` after the change; a refusal is always the credential's word as n8n
 * reads it then. Deliveries that arrive together share one read.
 */
export async function matchingCredential(
	context: IWebhookFunctions,
	matches: (credentials: WebhookCredentials) => boolean,
): Promise<WebhookCredentials | undefined> {
	const key = keyOf(context);
	const entry = key === undefined ? undefined : kept.get(key);
	if (entry && performance.now() - entry.readAt < CREDENTIAL_KEPT_MS) {
		const credentials = await entry.credentials.catch(() => undefined);
		if (credentials && matches(credentials)) return credentials;
	}
	const credentials = await read(context, key);
	return matches(credentials) ? credentials : undefined;
}
