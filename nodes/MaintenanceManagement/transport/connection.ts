/** The credential, read once per execution: the token, and the base URL its environment gives. */

import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { normalBaseUrl } from './address';
import { CONFIGURATION_INVALID, CREDENTIAL_INVALID } from './causes';
import { tokenMissing, tokenNotOneText, unusableBaseUrl } from './messages';
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

/** Reads the credential once per execution: the environment decides the base URL. */
export async function getConnection(this: Context, itemIndex?: number): Promise<Connection> {
	const cached = connections.get(this);
	if (cached) return await cached;
	const pending = (async () => {
		const credentials = await this.getCredentials(CREDENTIAL_TYPE, itemIndex);
		const environment = credentials.environment === 'sandbox' ? 'sandbox' : 'production';
		const field = environment === 'sandbox' ? 'sandboxBaseUrl' : 'productionBaseUrl';
		const label = environment === 'sandbox' ? 'Sandbox Base URL' : 'Production Base URL';
		const typedBaseUrl = String(credentials[field] ?? '')
			.trim()
			.replace(/\/+$/, '');
		const token = String(credentials.accessToken ?? '').trim();
		if (!token) {
			const { message, description } = tokenMissing();
			throw new NodeOperationError(this.getNode(), message, {
				description,
				itemIndex,
				failure: CREDENTIAL_INVALID,
			});
		}
		if (/\s/.test(token)) {
			const { message, description } = tokenNotOneText();
			throw new NodeOperationError(this.getNode(), message, {
				description,
				itemIndex,
				failure: CREDENTIAL_INVALID,
			});
		}
		const problem = baseUrlProblem(typedBaseUrl);
		if (problem) {
			const { message, description } = unusableBaseUrl(label, problem);
			throw new NodeOperationError(this.getNode(), message, {
				description,
				itemIndex,
				failure: CONFIGURATION_INVALID,
			});
		}
		const baseUrl = normalBaseUrl(typedBaseUrl);
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
