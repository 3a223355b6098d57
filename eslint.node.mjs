import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * typescript-eslint's recommended rules for every `.ts` file of the folder. Read from its plugin
 * rather than from `tseslint.configs`, whose getter registers each folder as a TypeScript root: with
 * a configuration per folder, n8n's rules would then fail to parse the package's files.
 */
const typescript = tseslint.plugin.configs['flat/recommended'].map((block) => ({
	...block,
	files: ['**/*.ts'],
}));

/**
 * The lint of the code that runs in Node beside the package (tests, sandbox, scripts, benchmarks):
 * each of those folders' eslint.config.mjs is this, which ESLint finds for their files (its
 * unstable_config_lookup_from_file flag, which npm run lint sets). n8n's node rules, which forbid fs,
 * process and http, stay with the package's sources, under the root eslint.config.mjs: n8n's own,
 * word for word, as `n8n-node lint`'s strict mode requires.
 */
export const nodeSide = (...extra) => [
	{ ignores: ['n8n/**'] },
	{ files: ['**/*.ts'], ...js.configs.recommended },
	...typescript,
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
	{
		files: ['**/*.{js,mjs}'],
		...js.configs.recommended,
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
	...extra,
	// Formatting is Prettier's (npm run lint runs prettier --check). Of the rules above, only this one
	// can fight it, on a chain Prettier breaks before `[`; Prettier writes every semicolon, so the
	// line breaks it guards against cannot change the meaning.
	{ rules: { 'no-unexpected-multiline': 'off' } },
];

/**
 * Used as it stands (`eslint -c eslint.node.mjs`, in npm run lint) for the tooling files at the root
 * (gulpfile.js, jest.config.js, these configurations), which the root's n8n configuration leaves be.
 */
export default nodeSide();
