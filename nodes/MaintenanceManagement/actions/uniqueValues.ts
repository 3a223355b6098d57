import { NodeApiError } from 'n8n-workflow';

import { itemNumber } from '../helpers/errorText';
import type { ApiRequest } from '../transport';
import { plainText } from '../transport/errors';
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
 * says that a record with it most likely exists, so that a re-run after a stop can route those items
 * aside. A unique field refused for another reason (too long, blank) keeps the API's own words.
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
	error.message = `${values.join(' and ')} in item ${itemNumber(itemIndex)} already ${one ? 'exists' : 'exist'}, most likely: the API keeps ${one ? 'this value' : 'these values'} unique and refused ${one ? 'it' : 'them'} (as it refuses, when run again, an item written before a stopped run). Route the item aside, or change the value. ${error.message}`;
	return error;
}
