/** The credential, read once per execution: the token, and the base URL its environment gives. */

import type {
	Failure,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { normalBaseUrl } from './address';
import { CONFIGURATION_INVALID, CREDENTIAL_INVALID } from '../../shared/errors/causes';
import { tokenMissing, tokenNotOneText, unusableBaseUrl } from '../../shared/errors/messages';
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
export async function getConnection(this: Context, itemIndex?: number): Promise<Connection> {
	const cached = connections.get(this);
	if (cached) return await cached;
	const pending = (async () => {
		const reading = readCredential(await this.getCredentials(CREDENTIAL_TYPE, itemIndex));
		if ('failure' in reading) {
			const { message, description, failure } = reading;
			throw new NodeOperationError(this.getNode(), message, { description, itemIndex, failure });
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
	connections.set(this, pending);
	// A failed read is not kept, so a corrected credential is read again next time.
	pending.catch(() => connections.delete(this));
	return await pending;
}
