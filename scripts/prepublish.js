/**
 * prepublishOnly: the package is published only by .github/workflows/publish.yml, which signs it with
 * npm provenance (n8n's verification requires it). A publish from anywhere else stops here.
 */
if (process.env.GITHUB_ACTIONS !== 'true') {
	process.stderr.write(
		'npm publish runs only in GitHub Actions (publish.yml), with provenance.\n' +
			'Release with `npm run release`, then push the tag: git push --follow-tags\n',
	);
	process.exit(1);
}
