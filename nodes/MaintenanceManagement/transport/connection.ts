/**
 * The connection: the credential, read once per execution (the token, and the base URL its environment
 * gives), and the API's addresses: the base URL and the links the API sends back in normal form (so that
 * a base URL typed in any equivalent way matches them), and a request's path, whose parameters are
 * records' IDs, URL-encoded, or nothing is sent.
 */

import type {
	Failure,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CONFIGURATION_INVALID, CREDENTIAL_INVALID } from '../../shared/errors/causes';
import { tokenMissing, tokenNotOneText, unusableBaseUrl } from '../../shared/errors/messages';
import { QUOTE_LIMITS, quoted } from '../../shared/errors/text';
import type { Redaction } from './redact';
import { redactionFor } from './redact';
import type { ExecutionWaits } from './retry';

export const CREDENTIAL_TYPE = 'maintenanceManagementApi';

export type Context = IExecuteFunctions | ILoadOptionsFunctions;

/** The API's address and token, and what this execution has waited for it. */
export interface Connection extends ExecutionWaits {
	baseUrl: string;
	origin: string;
	environment: string;
	token: string;
	/** The token's forms, worked out once: every answer and error is redacted with them. */
	redaction: Redaction;
}

const connections = new WeakMap<object, Promise<Connection>>();

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Why a base URL cannot be used, or undefined when it can. */
function baseUrlProblem(value: string): string | undefined {
	if (value === '') return 'is empty';
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return 'is not a web address';
	}
	if (url.username || url.password) return 'must not contain a user name or password';
	if (url.search || value.includes('?')) return 'must not contain a query (?…)';
	if (url.hash || value.includes('#')) return 'must not contain a fragment (#…)';
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname)))
		return 'must start with https:// (plain http:// is allowed only for localhost)';
	if (!/\/v3$/.test(url.pathname)) return 'must end with /v3';
	return undefined;
}

/** What a credential gives the node: its environment, the API's base URL in normal form and the token. */
export interface CredentialReading {
	environment: string;
	baseUrl: string;
	token: string;
}

/** Why a credential cannot be used: an error's words and its cause. Nothing is sent with it. */
export interface CredentialProblem {
	message: string;
	description: string;
	failure: Failure;
}

/**
 * Reads a credential's values as every request and the credential's Test use them: the token, and the
 * base URL of its environment, or the problem that keeps it from being used.
 */
export function readCredential(
	credentials: ICredentialDataDecryptedObject,
): CredentialReading | CredentialProblem {
	const environment = credentials.environment === 'sandbox' ? 'sandbox' : 'production';
	const field = environment === 'sandbox' ? 'sandboxBaseUrl' : 'productionBaseUrl';
	const label = environment === 'sandbox' ? 'Sandbox Base URL' : 'Production Base URL';
	const typedBaseUrl = String(credentials[field] ?? '')
		.trim()
		.replace(/\/+$/, '');
	const token = String(credentials.accessToken ?? '').trim();
	if (!token) return { ...tokenMissing(), failure: CREDENTIAL_INVALID };
	if (/\s/.test(token)) return { ...tokenNotOneText(), failure: CREDENTIAL_INVALID };
	const problem = baseUrlProblem(typedBaseUrl);
	if (problem) return { ...unusableBaseUrl(label, problem), failure: CONFIGURATION_INVALID };
	return { environment, baseUrl: normalBaseUrl(typedBaseUrl), token };
}

/** Reads the credential once per execution: the environment decides the base URL. */
export async function getConnection(context: Context, itemIndex?: number): Promise<Connection> {
	const cached = connections.get(context);
	if (cached) return await cached;
	const pending = (async () => {
		const reading = readCredential(await context.getCredentials(CREDENTIAL_TYPE, itemIndex));
		if ('failure' in reading) {
			const { message, description, failure } = reading;
			throw new NodeOperationError(context.getNode(), message, { description, itemIndex, failure });
		}
		const { environment, baseUrl, token } = reading;
		return {
			baseUrl,
			origin: new URL(baseUrl).origin,
			environment,
			token,
			redaction: redactionFor(token),
			waitedMs: 0,
			budget: {},
		};
	})();
	connections.set(context, pending);
	// A failed read is not kept, so a corrected credential is read again next time.
	pending.catch(() => connections.delete(context));
	return await pending;
}

/** Percent-encoded bytes: upper-case hex, and the unreserved characters (RFC 3986) decoded. */
const samePercentEncoding = (path: string): string =>
	path.replace(/%[0-9a-f]{2}/gi, (escape) => {
		const character = String.fromCharCode(parseInt(escape.slice(1), 16));
		return /[A-Za-z0-9\-._~]/.test(character) ? character : escape.toUpperCase();
	});

/**
 * The base URL in normal form (WHATWG URL serialisation, then the percent-encoding above), without
 * a trailing slash. The value must already parse as a URL.
 */
export function normalBaseUrl(typed: string): string {
	const url = new URL(typed);
	return `${url.origin}${samePercentEncoding(url.pathname)}`.replace(/\/+$/, '');
}

/**
 * The path and query a link leads to below the API's base URL (in normal form, starting with `/`),
 * or undefined when the link leads to another origin or outside the base path.
 */
export function pathWithinApi(link: string, baseUrl: string): string | undefined {
	const root = new URL(`${baseUrl}/`);
	let target: URL;
	try {
		target = new URL(link, root);
	} catch {
		return undefined;
	}
	if (target.origin !== root.origin) return undefined;
	const prefix = samePercentEncoding(root.pathname);
	const path = samePercentEncoding(target.pathname);
	if (!path.startsWith(prefix)) return undefined;
	return `/${path.slice(prefix.length)}${target.search}`;
}

/** What a record's ID in a path is: a whole number, written in digits; the node checks every ID against it before sending. */
export const RECORD_ID = /^\d{1,20}$/;

/**
 * Why a path parameter cannot be sent, or undefined when it can: whether typed, from an expression or
 * filled in by an AI model, it must be a record's ID (`RECORD_ID`), else nothing is sent.
 */
export function pathValueProblem(value: unknown): string | undefined {
	const given = () => `; it is ${quoted(value, QUOTE_LIMITS.name)}`;
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value >= 0
			? undefined
			: `must be a whole-number ID, such as 42${given()}`;
	if (typeof value !== 'string')
		return `must be a whole-number ID, such as 42, given as text or a number${given()}`;
	const trimmed = value.trim();
	if (trimmed === '') return 'is required';
	return RECORD_ID.test(trimmed) ? undefined : `must be a whole-number ID, such as 42${given()}`;
}

/** Fills `{slot}` placeholders of an endpoint path with URL-encoded values. */
export function buildPath(template: string, values: Record<string, string | number>): string {
	return template.replace(/\{([^}]+)\}/g, (_match, slot: string) => {
		const value = values[slot];
		const problem = pathValueProblem(value);
		if (problem) throw new Error(`Path parameter "${slot}" ${problem}`);
		return encodeURIComponent(String(value).trim());
	});
}
