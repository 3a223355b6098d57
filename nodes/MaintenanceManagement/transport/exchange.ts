/** One HTTP exchange and reading its answer. */

import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

export interface FullResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** A header of an answer, by its name as given or in lower case. */
export const header = (headers: IDataObject | undefined, name: string): string | undefined => {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	return value === undefined ? undefined : String(value);
};

/** A request that got no answer: the error n8n threw for it. */
export class NoAnswer {
	constructor(readonly error: unknown) {}
}

/** What one exchange came to: an answer of any status, or none. */
export type Answer = FullResponse | NoAnswer;

export interface Exchange {
	method: IHttpRequestMethods;
	url: string;
	qs?: IDataObject;
	headers: IDataObject;
	body?: IDataObject;
	/** How long the exchange may take before it is abandoned. */
	timeoutMs: number;
}

/**
 * Sends one request with the credential's authentication and reads its answer whatever its status;
 * a redirect is returned, not followed.
 */
export async function exchange(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	credentialType: string,
	request: Exchange,
): Promise<Answer> {
	try {
		return (await context.helpers.httpRequestWithAuthentication.call(context, credentialType, {
			method: request.method,
			url: request.url,
			qs: request.qs,
			headers: request.headers,
			body: request.body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: request.timeoutMs,
		} as IHttpRequestOptions)) as FullResponse;
	} catch (error) {
		return new NoAnswer(error);
	}
}
