import type { IDataObject } from 'n8n-workflow';

/** An object that is neither null nor an array: a resource of an answer, or a value the node reads. */
export const isPlainObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
