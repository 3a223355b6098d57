import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { z } from 'zod/v3';

/**
 * The suite runs against the zod TEST_ZOD names (jest.config.js): zod 3.25's `zod/v3`, n8n's copy,
 * unless TEST_ZOD=4 (`npm run test:zod4`) maps it to zod 4's. Both keep zod 3's options.
 */
describe('zod/v3', () => {
	const entry = require.resolve('zod/v3');
	/** The version in the package.json of the zod package that `entry` belongs to. */
	const version = (): string => {
		for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
			try {
				const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
				if (manifest.name === 'zod') return manifest.version;
			} catch {
				// Not a package folder: look further up.
			}
		}
		throw new Error(`no zod package above ${entry}`);
	};

	it(`comes from zod ${process.env.TEST_ZOD === '4' ? '4' : '3.25'}`, () => {
		expect(version()).toMatch(process.env.TEST_ZOD === '4' ? /^4\./ : /^3\.25\./);
	});

	it("keeps zod 3's invalid_type_error option", () => {
		const result = z.string({ invalid_type_error: 'a text' }).safeParse(1);
		expect(result.success).toBe(false);
		expect(result.error?.issues[0].message).toBe('a text');
	});
});
