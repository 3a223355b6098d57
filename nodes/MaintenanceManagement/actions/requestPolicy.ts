import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import { DEFAULT_POLICY, POLICY_CEILING } from '../transport';

/** A Request Options number: its default when unset or not finite, kept within its bounds. */
const bounded = (value: unknown, fallback: number, min: number, max: number): number => {
	const number = Number(value ?? fallback);
	return Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : fallback;
};

/** A Request Options number of seconds, bounded as above, in milliseconds. */
const boundedMs = (seconds: unknown, fallbackMs: number, maxSeconds: number): number =>
	bounded(seconds, fallbackMs / 1000, 0, maxSeconds) * 1000;

/** Item i's request policy: the retry, timeout and paging limits of the "Request Options" collection. */
export function readRequestPolicy(this: IExecuteFunctions, itemIndex: number): RequestPolicy {
	const options = this.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	return {
		...DEFAULT_POLICY,
		maxAttempts: Math.floor(
			bounded(options.maxAttempts, DEFAULT_POLICY.maxAttempts, 1, POLICY_CEILING.maxAttempts),
		),
		maxRequestWaitMs: boundedMs(
			options.maxRequestWaitSeconds,
			DEFAULT_POLICY.maxRequestWaitMs,
			86_400,
		),
		// Max Total Wait caps the execution's waiting only when set above 0.
		maxTotalWaitMs:
			Number(options.maxWaitSeconds) > 0
				? boundedMs(options.maxWaitSeconds, 0, 86_400)
				: DEFAULT_POLICY.maxTotalWaitMs,
		timeoutMs: Math.round(
			Math.max(100, boundedMs(options.timeoutSeconds, DEFAULT_POLICY.timeoutMs, 3600)),
		),
		maxPages: Math.floor(
			bounded(options.maxPages, DEFAULT_POLICY.maxPages, 1, POLICY_CEILING.maxPages),
		),
	};
}
