/**
 * What keeps the documentation usable: README.md within its limits (its words besides the generated
 * Operations table, its longest paragraph, how soon Installation starts) and every relative link and
 * anchor of the project's Markdown resolving. `test/tooling/documentationLinks.test.ts` runs both on the
 * repository's files, and each problem names the file and what broke.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

import { END, START } from './operationsTable';
import { packageFilesUrl } from './packageFiles';
import { headingAnchors } from './verify/checks';

export const ROOT = join(__dirname, '..');

export const README_LIMITS = {
	/** Words of README.md, the Operations table left out. */
	words: 2000,
	/** Words of its longest paragraph, list item or table row. */
	paragraphWords: 80,
	/** Words before its Installation heading. */
	wordsBeforeInstallation: 150,
};

/** The Markdown files whose links must resolve, relative to the repository. */
export function documentationFiles(root = ROOT): string[] {
	const docs = readdirSync(join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => `docs/${name}`);
	return ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', ...docs];
}

/** A word: a run of non-space characters holding a letter or a digit (a lone `|` or `-` is none). */
export const wordCount = (text: string): number =>
	(text.match(/\S+/g) ?? []).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;

/** The text without fenced code blocks (their lines become blank). */
const withoutCode = (markdown: string): string =>
	markdown.replace(/^([ \t]*)(```|~~~)[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, (block) =>
		block.replace(/[^\n]/g, ''),
	);

/** README.md with the generated Operations table and HTML comments left out. */
export function readmeProse(readme: string): string {
	const start = readme.indexOf(START);
	const end = readme.indexOf(END);
	const text = start >= 0 && end > start ? readme.slice(0, start) + readme.slice(end) : readme;
	return text.replace(/<!--[\s\S]*?-->/g, '');
}

/**
 * Paragraphs as a reader meets them: a run of lines between blank lines, where each list item,
 * heading and table row stands alone. Fenced code is left out.
 */
export function paragraphs(markdown: string): string[] {
	const found: string[] = [];
	let current: string[] = [];
	const close = () => {
		if (current.length) found.push(current.join(' ').trim());
		current = [];
	};
	for (const line of withoutCode(markdown).split('\n')) {
		if (!line.trim()) close();
		else if (/^\s*([-*+]|\d+\.)\s|^#|^\s*\|/.test(line)) {
			close();
			current.push(line);
			if (/^#|^\s*\|/.test(line)) close();
		} else current.push(line);
	}
	close();
	return found;
}

export interface ReadmeMeasure {
	words: number;
	longestParagraph: { words: number; text: string };
	wordsBeforeInstallation: number;
}

/** README.md's measures: its words besides the table, its longest paragraph, words before Installation. */
export function measureReadme(readme: string): ReadmeMeasure {
	const prose = readmeProse(readme);
	const longest = paragraphs(prose)
		.map((text) => ({ words: wordCount(text), text }))
		.reduce((a, b) => (b.words > a.words ? b : a), { words: 0, text: '' });
	const installation = prose.search(/^## Installation\s*$/m);
	return {
		words: wordCount(prose),
		longestParagraph: longest,
		wordsBeforeInstallation: installation < 0 ? Infinity : wordCount(prose.slice(0, installation)),
	};
}

/** What breaks README.md's limits, each in a sentence that names the measure and the limit. */
export function readmeProblems(readme: string, limits = README_LIMITS): string[] {
	const measure = measureReadme(readme);
	const problems: string[] = [];
	if (measure.words > limits.words)
		problems.push(
			`README.md has ${measure.words} words besides the Operations table, over ${limits.words}: move depth to docs/`,
		);
	if (measure.longestParagraph.words > limits.paragraphWords)
		problems.push(
			`README.md has a paragraph of ${measure.longestParagraph.words} words, over ${limits.paragraphWords}: "${measure.longestParagraph.text.slice(0, 80)}…"`,
		);
	if (measure.wordsBeforeInstallation > limits.wordsBeforeInstallation)
		problems.push(
			measure.wordsBeforeInstallation === Infinity
				? 'README.md has no "## Installation" heading'
				: `README.md has ${measure.wordsBeforeInstallation} words before "## Installation", over ${limits.wordsBeforeInstallation}`,
		);
	return problems;
}

/** How many bullets each of README's Usage subsections has: a short list, each with a link for depth. */
export const USAGE_BULLETS = { min: 3, max: 6 };

/**
 * What breaks the shape of README's Usage: each `###` subsection holds 3 to 6 top-level bullets and a
 * link to the page of docs/ where its depth is (by the package's address, or a relative one).
 */
export function usageProblems(readme: string): string[] {
	const usage = readme.match(/^## Usage\s*$([\s\S]*?)(?=^## )/m)?.[1];
	if (usage === undefined) return ['README.md has no "## Usage" section'];
	const problems: string[] = [];
	const sections = [...usage.matchAll(/^### (.+)$([\s\S]*?)(?=^### |(?![\s\S]))/gm)];
	if (!sections.length) problems.push("README.md's Usage has no subsections");
	for (const [, title, body] of sections) {
		const bullets = body.match(/^- /gm)?.length ?? 0;
		if (bullets < USAGE_BULLETS.min || bullets > USAGE_BULLETS.max)
			problems.push(
				`README.md's Usage "${title}" has ${bullets} bullets, not ${USAGE_BULLETS.min} to ${USAGE_BULLETS.max}`,
			);
		if (!/\]\((?:[^)\s]*\/)?docs\/[^)\s]+\)/.test(body))
			problems.push(`README.md's Usage "${title}" links to no page for its depth`);
	}
	return problems;
}

/** The anchors a Markdown file offers: its headings' as GitHub makes them, and its `<a id>`s. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = headingAnchors(withoutCode(markdown));
	for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(`#${id}`);
	return anchors;
}

/**
 * The relative links and anchors of the given Markdown files that do not resolve: a file that does not
 * exist, or a `#fragment` that no heading of the target names. `read` gives a file's text (relative
 * to the repository), or undefined when there is none; links to other sites are not followed.
 */
export function linkProblems(
	files: string[],
	read: (file: string) => string | undefined,
	exists: (file: string) => boolean,
): string[] {
	const problems: string[] = [];
	for (const file of files) {
		const text = read(file);
		if (text === undefined) {
			problems.push(`${file} does not exist`);
			continue;
		}
		const prose = withoutCode(text).replace(/`[^`\n]*`/g, '');
		for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
			if (/^[a-z][a-z\d+.-]*:/i.test(target)) continue;
			const [path, fragment] = target.split(/(?=#)/);
			const resolved = path.startsWith('#')
				? file
				: normalize(join(dirname(file), decodeURIComponent(path)));
			const shown = relative('.', resolved) || resolved;
			if (resolved.startsWith('..') || !exists(resolved)) {
				problems.push(`${file} links to ${target}: ${shown} does not exist`);
				continue;
			}
			const anchor = path.startsWith('#') ? path : fragment;
			if (!anchor || !resolved.endsWith('.md')) continue;
			if (!anchorsOf(read(resolved) ?? '').has(anchor.toLowerCase()))
				problems.push(`${file} links to ${target}: no heading of ${shown} makes ${anchor}`);
		}
	}
	return problems;
}

/** linkProblems over the repository's own files. */
export function repositoryLinkProblems(root = ROOT): string[] {
	return linkProblems(
		documentationFiles(root),
		(file) => (existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : undefined),
		(file) => existsSync(join(root, file)),
	);
}

/** The package as npm shows its README: its name and version, and the files of its tarball. */
export interface PackedReadme {
	name: string;
	version: string;
	files: string[];
	/** package.json's repository, through which npm resolves the README's relative links. */
	repository?: unknown;
}

/**
 * The images and links of README.md that do not resolve on the package's npm page, where only the
 * package is: an image that is not an absolute URL; a link that is neither an absolute URL nor a heading
 * of the README, nor, once package.json names the repository through which npm resolves it, a relative
 * link to a file of the tarball; and an address of the package's files at another version or of a
 * file the tarball lacks.
 */
export function npmPageProblems(readme: string, packed: PackedReadme): string[] {
	const problems: string[] = [];
	const anchors = anchorsOf(readme);
	const ours = packageFilesUrl(packed.name, '');
	const prose = withoutCode(readme).replace(/`[^`\n]*`/g, '');
	for (const [, image, target] of prose.matchAll(
		/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
	)) {
		const what = image ? 'an image' : 'a link';
		if (target.startsWith('#')) {
			if (!anchors.has(target.toLowerCase()))
				problems.push(`README.md links to ${target}: no heading of README.md makes it`);
		} else if (target.startsWith(ours.slice(0, -1))) {
			const [version, ...path] = target.slice(ours.length - 1).split('/');
			const file = path.join('/').split('#')[0];
			if (version !== packed.version)
				problems.push(
					`README.md has ${what} to the package at ${version}, not at its version ${packed.version}: ${target}`,
				);
			else if (!packed.files.includes(file))
				problems.push(`README.md has ${what} to ${file}, which the tarball lacks: ${target}`);
		} else if (/^[a-z][a-z\d+.-]*:/i.test(target)) continue;
		else if (image)
			problems.push(
				`README.md shows ${target} by a relative path, which the npm page cannot: use ${packageFilesUrl(packed.name, packed.version)}${target}`,
			);
		else if (packed.repository === undefined)
			problems.push(
				`README.md links to ${target} by a relative path, which the npm page resolves only through package.json's repository, not set: use ${packageFilesUrl(packed.name, packed.version)}${target}`,
			);
		else if (!packed.files.includes(target.split('#')[0]))
			problems.push(
				`README.md links to ${target}, which is no file of the tarball: link to the repository or to a page the package ships`,
			);
	}
	return problems;
}

/** The link and image targets of a Markdown text, code left out: `[text](target)` and `![alt](target)`. */
const targetsOf = (markdown: string) =>
	[
		...withoutCode(markdown)
			.replace(/`[^`\n]*`/g, '')
			.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
	].map(([, image, target]) => ({ what: image ? 'an image' : 'a link', target }));

/**
 * The links and images of a page the package ships (docs/walkthroughs.md, SECURITY.md) that do not
 * resolve from the package alone, where npm and the file CDNs show it: a relative one to a file the
 * tarball lacks, and an address of the package's files at another version or of a file it lacks.
 * Anchors and other sites pass (the repository's link check reads anchors).
 */
export function shippedPageProblems(
	page: string,
	markdown: string,
	packed: PackedReadme,
): string[] {
	const ours = packageFilesUrl(packed.name, '').slice(0, -1);
	const problems: string[] = [];
	for (const { what, target } of targetsOf(markdown)) {
		if (target.startsWith('#')) continue;
		if (target.startsWith(ours)) {
			const [version, ...path] = target.slice(ours.length).split('/');
			const file = path.join('/').split('#')[0];
			if (version !== packed.version)
				problems.push(
					`${page} has ${what} to the package at ${version}, not at its version ${packed.version}: ${target}`,
				);
			else if (!packed.files.includes(file))
				problems.push(`${page} has ${what} to ${file}, which the tarball lacks: ${target}`);
		} else if (!/^[a-z][a-z\d+.-]*:/i.test(target)) {
			const file = normalize(join(dirname(page), target.split('#')[0]))
				.split('\\')
				.join('/');
			if (!packed.files.includes(file))
				problems.push(
					`${page} has ${what} to ${target} (${file}), which the tarball lacks: add it to package.json's files, or link to the repository instead`,
				);
		}
	}
	return problems;
}
