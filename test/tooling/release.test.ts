import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { releaseChangelog, unreleasedNotes } from '../../scripts/changelog';
import { wordCount } from '../../scripts/docsCheck';
import { recordedSurfaces } from '../../scripts/recordSurface';

const URL = 'https://github.com/acme/n8n-nodes-maintenance-management';

const first = `# Changelog

Intro.

## [Unreleased]

### Added

- The action node.

[Unreleased]: ${URL}/commits/HEAD
`;

describe('releaseChangelog', () => {
	it('moves the Unreleased notes under the dated version and links its tag', () => {
		expect(releaseChangelog(first, '0.1.0', '2026-11-23', URL)).toBe(`# Changelog

Intro.

## [Unreleased]

## [0.1.0] - 2026-11-23

### Added

- The action node.

[Unreleased]: ${URL}/compare/v0.1.0...HEAD
[0.1.0]: ${URL}/releases/tag/v0.1.0
`);
	});

	it('keeps older releases below the new one and links each to the one before', () => {
		const released = releaseChangelog(first, '0.1.0', '2026-11-23', URL).replace(
			'## [Unreleased]\n',
			'## [Unreleased]\n\n### Fixed\n\n- A bug.\n',
		);
		const next = releaseChangelog(released, '0.1.1', '2026-12-01', URL);
		expect(next).toContain(
			'## [Unreleased]\n\n## [0.1.1] - 2026-12-01\n\n### Fixed\n\n- A bug.\n\n## [0.1.0] - 2026-11-23\n\n### Added\n\n- The action node.\n',
		);
		expect(next.trim().split('\n').slice(-3)).toEqual([
			`[Unreleased]: ${URL}/compare/v0.1.1...HEAD`,
			`[0.1.1]: ${URL}/compare/v0.1.0...v0.1.1`,
			`[0.1.0]: ${URL}/releases/tag/v0.1.0`,
		]);
		expect(unreleasedNotes(next)).toBe('');
	});

	it('refuses a release with nothing under Unreleased', () => {
		const released = releaseChangelog(first, '0.1.0', '2026-11-23', URL);
		expect(() => releaseChangelog(released, '0.1.1', '2026-12-01', URL)).toThrow(
			'nothing under Unreleased',
		);
	});

	it('refuses a version the changelog already has, and a changelog without Unreleased', () => {
		const released = releaseChangelog(first, '0.1.0', '2026-11-23', URL).replace(
			'## [Unreleased]\n',
			'## [Unreleased]\n\n- More.\n',
		);
		expect(() => releaseChangelog(released, '0.1.0', '2026-12-01', URL)).toThrow(
			'already has a section for 0.1.0',
		);
		expect(() => unreleasedNotes('# Changelog\n')).toThrow('no "## [Unreleased]" section');
	});

	it("releases the repository's CHANGELOG.md: its Unreleased notes, whatever they say, under the version", () => {
		const changelog = readFileSync(join(__dirname, '..', '..', 'CHANGELOG.md'), 'utf8').replace(
			'## [Unreleased]\n',
			'## [Unreleased]\n\n- One more note.\n',
		);
		const notes = unreleasedNotes(changelog);
		expect(notes).toContain('- One more note.');
		const released = releaseChangelog(changelog, '9.9.9', '2026-11-23', URL);
		expect(released).toContain(`## [Unreleased]\n\n## [9.9.9] - 2026-11-23\n\n${notes}\n`);
		expect(unreleasedNotes(released)).toBe('');
	});

	it('says what each recorded release holds in at most 600 words, and what changed since the newest under Unreleased', () => {
		const changelog = readFileSync(join(__dirname, '..', '..', 'CHANGELOG.md'), 'utf8');
		const sections = changelog.split(/^## /m).slice(1);
		const versions = recordedSurfaces().map(({ version }) => version);
		expect(versions.length).toBeGreaterThan(0);
		for (const version of versions) {
			const section = sections.find((text) => text.startsWith(`[${version}]`));
			expect([version, section !== undefined]).toEqual([version, true]);
			expect([version, wordCount(section ?? '') <= 600]).toEqual([version, true]);
		}
		// An update from the newest record shows the user its changes, the recorded ones among them.
		expect(unreleasedNotes(changelog)).toMatch(/### (Added|Changed|Fixed)/);
	});
});
