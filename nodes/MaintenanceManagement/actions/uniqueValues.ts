import { NodeApiError } from 'n8n-workflow';

import { itemNumber } from '../helpers/errorText';
import type { ApiRequest } from '../transport';
import { API_TEXT, plainText } from '../transport/errors';
import { namesOf } from './namesOf';
import type { OperationModule } from './types';

/**
 * Words of a refusal that say a value is taken: the sandbox's "This code is already used (at this
 * level, in the entity)", and the like in English and in Portuguese, in which the API may answer.
 */
const TAKEN =
	/\b(already|unique|in use|taken)\b|duplica[dt]|já (existe|está|em uso|utilizad)|únic/iu;

/**
 * A 400 that says a value the API keeps unique is taken: the message leads with the value refused and
 * says that a record with it most likely exists (as one written before a stopped run does), so that a
 * re-run after a stop can route those items aside. A unique field refused for another reason (too long, blank) keeps the API's own words.
 */
export function withTakenValue(
	operation: OperationModule,
	request: ApiRequest,
	itemIndex: number,
	error: unknown,
): unknown {
	const unique = operation.endpoint.body?.unique ?? [];
	if (!(error instanceof NodeApiError) || error.httpCode !== '400' || !unique.length) return error;
	const refused = (error.context.refused ?? {}) as Record<string, string>;
	const taken = unique.filter(
		(field) =>
			Object.hasOwn(refused, field) &&
			TAKEN.test(refused[field]) &&
			request.body?.[field] !== undefined,
	);
	if (!taken.length) return error;
	const names = namesOf(operation);
	const values = taken.map(
		(field) => `${names.get(field) ?? field} ${plainText(JSON.stringify(request.body?.[field]))}`,
	);
	const one = taken.length === 1;
	// The API's own words stay, quoted; the generic "correct the fields" before them says less than this.
	const quotedWords = error.message.slice(Math.max(0, error.message.indexOf(API_TEXT)));
	error.message = `${values.join(' and ')} in item ${itemNumber(itemIndex)} already ${one ? 'exists' : 'exist'}, most likely: the API keeps ${one ? 'it' : 'them'} unique. Route the item aside, or change the value. ${quotedWords}`;
	return error;
}
