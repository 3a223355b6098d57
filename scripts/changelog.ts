/** Keep a Changelog: moving the Unreleased notes into a dated release, and the links at the bottom. */

const UNRELEASED = '## [Unreleased]';
const LINK = /^\[[^\]]+\]: .*$/gm;

/** The notes under Unreleased (empty when there are none). */
export function unreleasedNotes(changelog: string): string {
	const start = changelog.indexOf(UNRELEASED);
	if (start === -1) throw new Error(`CHANGELOG.md has no "${UNRELEASED}" section`);
	const body = changelog.slice(start + UNRELEASED.length).replace(LINK, '');
	const end = body.search(/^## /m);
	return (end === -1 ? body : body.slice(0, end)).trim();
}

/** The comparison links for Unreleased and every released version, newest first. */
function links(sections: string, repositoryUrl: string): string[] {
	const versions = [...sections.matchAll(/^## \[(\d+\.\d+\.\d+[^\]]*)\]/gm)].map((m) => m[1]);
	if (!versions.length) return [`[Unreleased]: ${repositoryUrl}/commits/HEAD`];
	return [
		`[Unreleased]: ${repositoryUrl}/compare/v${versions[0]}...HEAD`,
		...versions.map((version, i) =>
			i + 1 < versions.length
				? `[${version}]: ${repositoryUrl}/compare/v${versions[i + 1]}...v${version}`
				: `[${version}]: ${repositoryUrl}/releases/tag/v${version}`,
		),
	];
}

/**
 * The changelog with the Unreleased notes moved under `## [version] - date`, an empty Unreleased
 * section above them, and the links rewritten for the repository's GitHub address.
 */
export function releaseChangelog(
	changelog: string,
	version: string,
	date: string,
	repositoryUrl: string,
): string {
	const notes = unreleasedNotes(changelog);
	if (!notes) throw new Error('CHANGELOG.md: nothing under Unreleased to release');
	if (changelog.includes(`## [${version}]`))
		throw new Error(`CHANGELOG.md already has a section for ${version}`);
	const start = changelog.indexOf(UNRELEASED);
	const head = changelog.slice(0, start).trimEnd();
	const after = changelog.slice(start + UNRELEASED.length).replace(LINK, '');
	const next = after.search(/^## /m);
	const older = next === -1 ? '' : after.slice(next).trim();
	const sections = [`## [${version}] - ${date}`, '', notes, ...(older ? ['', older] : [])].join(
		'\n',
	);
	return `${head}\n\n${UNRELEASED}\n\n${sections}\n\n${links(sections, repositoryUrl).join('\n')}\n`;
}
