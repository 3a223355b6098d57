import type { IDataObject } from 'n8n-workflow';

/** An object that is neither null nor an array. */
export const isPlainObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
