/**
 * The addresses of the package's own files (its templates, documentation pages and pictures) on an npm
 * file CDN, at a version: what README.md links to, so that the package's npm page resolves them from the
 * package alone. `npm run release` moves them to the version it releases.
 */

/** jsDelivr's address of the files of the npm package `name` at `version`. */
export const packageFilesUrl = (name: string, version: string): string =>
	`https://cdn.jsdelivr.net/npm/${name}@${version}/`;

/** Escapes a text for a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `text` with every address of the package's files (packageFilesUrl) moved to `version`. */
export const atVersion = (text: string, name: string, version: string): string =>
	text.replace(
		new RegExp(`${literal(packageFilesUrl(name, 'VERSION')).replace('VERSION', '[^/\\s)]+')}`, 'g'),
		packageFilesUrl(name, version),
	);
