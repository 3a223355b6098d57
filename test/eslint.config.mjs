import { nodeSide } from '../eslint.node.mjs';

// Tests read untyped JSON answers back and index into them freely.
export default nodeSide({
	files: ['**/*.ts'],
	rules: { '@typescript-eslint/no-explicit-any': 'off' },
});
