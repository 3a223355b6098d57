import { displayNames } from '../helpers/displayNames';
import type { OperationModule } from './types';

const nameCache = new WeakMap<OperationModule, Map<string, string>>();

/** The display name of each parameter of an operation, read once and kept. */
export function namesOf(operation: OperationModule): Map<string, string> {
	let names = nameCache.get(operation);
	if (!names) {
		names = displayNames(operation.description);
		nameCache.set(operation, names);
	}
	return names;
}
