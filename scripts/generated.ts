/**
 * What the generated files share: spec/openapi.yaml as read, and the writing of a generated file,
 * formatted as Prettier formats it (scripts/endpoints.ts, scripts/events.ts, scripts/recordSurface.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';

import { parse } from 'yaml';

import { SPEC_PATH } from '../sandbox/contract';

/** spec/openapi.yaml, parsed. */
export const readSpec = <T>(): T => parse(readFileSync(SPEC_PATH, 'utf8')) as T;

/**
 * Writes a generated file's text, formatted as Prettier formats it, unless the file holds it already;
 * returns whether it changed.
 */
export async function writeGenerated(path: string, source: string): Promise<boolean> {
	const { format, resolveConfig } = await import('prettier');
	const config = (await resolveConfig(path)) ?? {};
	const text = await format(source, { ...config, filepath: path });
	const before = readFileSync(path, { encoding: 'utf8', flag: 'a+' });
	if (text !== before) writeFileSync(path, text);
	return text !== before;
}
