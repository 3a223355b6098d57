/** One HTTP exchange and reading its answer. */

import type { IDataObject } from 'n8n-workflow';

export interface FullResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** A header of an answer, by its name in either case. */
export const header = (headers: IDataObject | undefined, name: string): string | undefined => {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	return value === undefined ? undefined : String(value);
};
