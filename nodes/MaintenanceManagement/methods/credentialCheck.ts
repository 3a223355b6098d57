/**
 * The credential's Test, run by n8n for the credential's modal (the node's `methods.credentialTest`,
 * named by `testedBy` on its credential entry). It reads the credential as every request does, so a
 * base URL or token the node refuses is refused here too, with the same words, before anything is
 * sent; then it reads one location, follows no redirect, and calls the credential good only on an
 * answer in the API's form.
 */

import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	DEFAULT_POLICY,
	isEnvelope,
	readCredential,
	shapeOf,
	ssrfBlockOf,
	ssrfMessage,
	testAnswer,
	USER_AGENT,
} from '../transport';

/** The answer as n8n's request helper gives it with `resolveWithFullResponse` and `simple: false`. */
interface TestResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body?: unknown;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** The answer's media type, when it is one (`text/html`); the server's text is shown only in that form. */
const mediaTypeOf = (headers: Record<string, unknown>): string => {
	const type = String(headers['content-type'] ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
	return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : '';
};

/** Whether a body is a collection in the API's envelope: `data` holding a list of records. */
const isCollection = (body: unknown): boolean => {
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			return false;
		}
	}
	return isEnvelope(parsed) && shapeOf(parsed) === 'a list of records';
};

/** The network code of a failed request, wherever n8n's helper put it. */
const reasonOf = (error: unknown): string => {
	const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
	const found = [code, cause?.code].find((value) => typeof value === 'string' && value !== '');
	return typeof found === 'string' ? found : 'the connection failed';
};

/** The verdict on what the base URL answered. */
function verdictOn({ statusCode, headers, body }: TestResponse): INodeCredentialTestResult {
	if (statusCode === 401) return failed(testAnswer.refused());
	if (statusCode === 403) return failed(testAnswer.forbidden());
	if (statusCode === 404) return failed(testAnswer.notFound());
	if (REDIRECT_STATUSES.has(statusCode)) return failed(testAnswer.redirect(statusCode));
	if (statusCode < 200 || statusCode >= 300) return failed(testAnswer.otherStatus(statusCode));
	if (!isCollection(body)) return failed(testAnswer.notTheApi(statusCode, mediaTypeOf(headers)));
	return { status: 'OK', message: 'Connection successful!' };
}

export async function testApiCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const reading = readCredential(credential.data ?? {});
	if ('failure' in reading) return failed(`${reading.message}. ${reading.description}`);
	const { baseUrl, token } = reading;
	// A credential test has n8n's request helper only (ICredentialTestFunctions), which applies n8n's
	// outbound rules (SSRF protection, proxies) as the node's requests do. n8n's lint rule against
	// `request` names `httpRequest` instead, which a credential test is not given (n8n-io/n8n#25190).
	const { request } = this.helpers;
	let response: TestResponse;
	try {
		response = (await request({
			method: 'GET',
			uri: `${baseUrl}/locations`,
			qs: { page: 1, limit: 1 },
			headers: {
				Accept: 'application/json',
				Authorization: `Bearer ${token}`,
				'User-Agent': USER_AGENT,
			},
			// n8n follows a redirect and, by default, sends the token along, to any origin: Test follows none.
			followRedirect: false,
			followAllRedirects: false,
			// Every status is an answer to judge here, and the body is read as text, HTML included.
			simple: false,
			resolveWithFullResponse: true,
			timeout: DEFAULT_POLICY.timeoutMs,
		})) as TestResponse;
	} catch (error) {
		const block = ssrfBlockOf(error);
		if (block) {
			const { message, description } = ssrfMessage(block, baseUrl);
			return failed(`${message}. ${description}`);
		}
		return failed(testAnswer.noAnswer(reasonOf(error)));
	}
	return verdictOn(response);
}
