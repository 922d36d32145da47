// ESLint: JavaScript's and typescript-eslint's recommended rules (not the type-checked set, which would type-check
// the whole tree a second time on every run; `tsc --noEmit` does that once). Layout is Prettier's (.prettierrc.json).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'packages/engine/dist/', 'packages/engine/rules/', 'reports/', 'data/', 'bench/tmp/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  // What the server hands to browsers (the studio's page script, type-checked with the DOM by its own tsconfig).
  { files: ['adapters/studio/client/**/*.ts'], languageOptions: { globals: globals.browser } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    rules: {
      // A leading underscore marks what is left out on purpose: `const { detail: _detail, ...rest } = person`.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A variable that handlers defined earlier read once it is set (the server's service).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  // Tests read JSON answers whose shape they are checking.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
