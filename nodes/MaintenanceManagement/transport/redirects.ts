/** Following redirects within one origin, so that the credential never leaves it. */

import type { IDataObject } from 'n8n-workflow';

import type { Answer } from './exchange';
import { header, NoAnswer } from './exchange';

export const MAX_REDIRECTS = 5;

/** Where a request goes; a redirect moves it there for the attempts after it too. */
export interface Target {
	url: string;
	qs?: IDataObject;
	/** Redirects followed so far, over all attempts. */
	redirects: number;
}

/** Why a redirect to a web address is not followed. */
type Refusal = 'another origin' | 'too many' | 'changes the method';

/** A redirect that is not followed, and why: where it points, or that it points nowhere readable. */
export type RefusedRedirect =
	| { reason: Refusal; statusCode: number; location: URL }
	| { reason: 'no location'; statusCode: number }
	| { reason: 'unreadable location'; statusCode: number; given: string };

function refusalOf(
	statusCode: number,
	location: URL,
	origin: string,
	method: string,
	followed: number,
): Refusal | undefined {
	if (location.origin !== origin) return 'another origin';
	if (followed >= MAX_REDIRECTS) return 'too many';
	const keepsMethod = statusCode === 307 || statusCode === 308;
	return method !== 'GET' && !keepsMethod ? 'changes the method' : undefined;
}

/**
 * Sends to the target and follows its redirects within `origin`, at most `MAX_REDIRECTS` in all and
 * a write's only with 307 or 308; a redirect moves the target and drops its query. Any other redirect
 * (one without a Location, or with one that is no web address, among them) is thrown as `refuse`
 * words it.
 */
export async function followingRedirects(
	target: Target,
	origin: string,
	method: string,
	send: () => Promise<Answer>,
	refuse: (redirect: RefusedRedirect) => Error,
): Promise<Answer> {
	for (;;) {
		const answer = await send();
		if (answer instanceof NoAnswer) return answer;
		const { statusCode } = answer;
		if (statusCode < 300 || statusCode >= 400) return answer;
		const location = header(answer.headers, 'location');
		if (!location) throw refuse({ reason: 'no location', statusCode });
		if (!URL.canParse(location, target.url))
			throw refuse({ reason: 'unreadable location', statusCode, given: location });
		const to = new URL(location, target.url);
		const reason = refusalOf(statusCode, to, origin, method, target.redirects);
		if (reason) throw refuse({ reason, statusCode, location: to });
		target.redirects++;
		target.url = to.toString();
		target.qs = undefined;
	}
}
