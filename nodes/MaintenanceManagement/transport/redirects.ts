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

/** A redirect that is not followed, and why. */
export interface RefusedRedirect {
	reason: 'another origin' | 'too many' | 'changes the method';
	statusCode: number;
	location: URL;
}

function refusalOf(
	statusCode: number,
	location: URL,
	origin: string,
	method: string,
	followed: number,
): RefusedRedirect['reason'] | undefined {
	if (location.origin !== origin) return 'another origin';
	if (followed >= MAX_REDIRECTS) return 'too many';
	const keepsMethod = statusCode === 307 || statusCode === 308;
	return method !== 'GET' && !keepsMethod ? 'changes the method' : undefined;
}

/**
 * Sends to the target and follows its redirects within `origin`, at most `MAX_REDIRECTS` in all and
 * a write's only with 307 or 308; a redirect moves the target and drops its query. Any other redirect
 * is thrown as `refuse` words it.
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
		const location = header(answer.headers, 'location');
		if (statusCode < 300 || statusCode >= 400 || !location) return answer;
		const to = new URL(location, target.url);
		const reason = refusalOf(statusCode, to, origin, method, target.redirects);
		if (reason) throw refuse({ reason, statusCode, location: to });
		target.redirects++;
		target.url = to.toString();
		target.qs = undefined;
	}
}
