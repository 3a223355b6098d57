import js from '@eslint/js';
import { config as n8nNodeConfig } from '@n8n/node-cli/eslint';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** What the package ships: n8n's rules apply here, and nowhere else. */
const PACKAGE_SOURCES = ['nodes/**/*.ts', 'credentials/**/*.ts'];

/**
 * `n8n-node lint`'s own configuration (@n8n/node-cli/eslint), unchanged except that its blocks for every
 * `.ts` file cover only the package's sources: the tests, the sandbox and the benchmarks run in Node and
 * rightly use fs, process and http, which n8n's rules forbid in a node.
 */
const n8nRules = n8nNodeConfig.map((block) =>
	block.files?.length === 1 && block.files[0] === '**/*.ts'
		? { ...block, files: PACKAGE_SOURCES }
		: block,
);

export default tseslint.config(
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'.runtime/**',
			'.dev/**',
			'coverage/**',
			'scripts/n8n/**',
		],
	},
	...n8nRules,
	{
		// The package's sources get these from n8n's configuration above (its own typescript-eslint).
		files: ['**/*.ts'],
		ignores: PACKAGE_SOURCES,
		extends: [js.configs.recommended, tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
	{
		// Tests read untyped JSON answers back and index into them freely.
		files: ['test/**/*.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
	{
		files: ['**/*.{js,mjs}'],
		extends: [js.configs.recommended],
		languageOptions: {
			globals: {
				require: 'readonly',
				module: 'writable',
				process: 'readonly',
				console: 'readonly',
				__dirname: 'readonly',
				setTimeout: 'readonly',
				clearTimeout: 'readonly',
				setInterval: 'readonly',
				URL: 'readonly',
				fetch: 'readonly',
				Buffer: 'readonly',
			},
		},
	},
	// Formatting is Prettier's (npm run lint runs prettier --check): no ESLint rule may fight it.
	prettier,
);
