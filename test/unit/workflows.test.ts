import { validateWorkflow } from '@action-validator/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const read = (name: string) =>
	readFileSync(join(__dirname, '..', '..', '.github', 'workflows', name), 'utf8');

describe('GitHub Actions workflows', () => {
	it.each(['ci.yml', 'publish.yml'])('%s passes the workflow schema (action-validator)', (name) => {
		expect(validateWorkflow(read(name)).errors).toEqual([]);
	});

	it('the schema check fails a malformed workflow', () => {
		const broken = read('ci.yml').replace('runs-on:', 'runs-onn:');
		expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
	});

	it('CI runs .ci/run, which runs the test command, the queue suite and verify', () => {
		expect(read('ci.yml')).toMatch(/^\s+- run: \.ci\/run$/m);
		const run = readFileSync(join(__dirname, '..', '..', '.ci', 'run'), 'utf8');
		expect(run).toMatch(/^npm install && npm test$/m);
		expect(run).toMatch(/^npm run test:queue$/m);
		expect(run).toMatch(/^npm run verify$/m);
	});

	it('publish runs on a version tag, with an OIDC token, verifies, then publishes with provenance', () => {
		const publish = read('publish.yml');
		expect(publish).toMatch(/^on:\n {2}push:\n {4}tags: \['v\*\.\*\.\*'\]$/m);
		expect(publish).toMatch(/^permissions:\n {2}contents: read\n {2}id-token: write$/m);
		expect(publish.indexOf('npm run verify')).toBeGreaterThan(0);
		expect(publish.indexOf('npm publish --provenance')).toBeGreaterThan(
			publish.indexOf('npm run verify'),
		);
		expect(publish).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN/);
	});
});
