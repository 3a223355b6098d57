/**
 * The placeholders no file a user meets may hold: the owner's name and address a package starts
 * from, and the stand-in address under which the credentials' sources name their README section
 * (scripts/docs.js), which the build replaces. `npm run verify` looks for them in the packed tarball,
 * and a test in the built package.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each placeholder, and what it is. */
const PLACEHOLDERS: Array<[RegExp, string]> = [
	[/(?:https?:\/\/[\w./-]*)?\bOWNER\b[\w./#-]*/g, 'the placeholder owner OWNER'],
	[/\bowner@example\.(?:com|org|net)\b/gi, 'the placeholder address of the owner'],
	[/\bhttps?:\/\/[\w.-]+\.invalid\b/gi, 'a stand-in address under .invalid, which never resolves'],
];

/** Each placeholder a file holds, once per file and text, in words naming the file. */
export function placeholderProblems(files: Record<string, string>): string[] {
	return Object.entries(files).flatMap(([file, text]) =>
		PLACEHOLDERS.flatMap(([pattern, what]) =>
			[...new Set(text.match(pattern))].map((found) => `${file} holds ${found}: ${what}`),
		),
	);
}

/**
 * The local addresses no built node or credential may name: a user of the published package has no
 * local sandbox, and `npm run dev` chooses its ports, which a node cannot know. The loopback rule of a
 * base URL may say the word localhost; an address is a loopback host with a port or after `//`, or the
 * sandbox's default port.
 */
const LOCAL_ADDRESSES =
	/\b127\.0\.0\.1(?::\d+)?|\/\/localhost\b(?::\d+)?|\blocalhost:\d+|\[::1\]:\d+|:4010\b/gi;

/** Each local address a file holds, once per file and text, in words naming the file. */
export function localAddressProblems(files: Record<string, string>): string[] {
	return Object.entries(files).flatMap(([file, text]) =>
		[...new Set(text.match(LOCAL_ADDRESSES))].map(
			(found) =>
				`${file} holds ${found}: a local address, which means nothing to a user of the package; name the address npm run dev prints instead`,
		),
	);
}

/** The text files under a folder (images left out), by path relative to it. */
export function textFilesUnder(folder: string): Record<string, string> {
	const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter(
		(entry) => entry.isFile() && !/\.(png|jpe?g|gif|webp)$/i.test(entry.name),
	);
	return Object.fromEntries(
		files.map((entry) => {
			const path = join(entry.parentPath, entry.name);
			return [relative(folder, path), readFileSync(path, 'utf8')];
		}),
	);
}
