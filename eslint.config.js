// ESLint: JavaScript's and typescript-eslint's recommended rules, type-checked for the TypeScript (typescript-eslint's
// project service reads tsconfig.json); layout is Prettier's (.prettierrc.json).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'packages/engine/dist/', 'packages/engine/rules/', 'reports/', 'data/', 'bench/tmp/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
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
  {
    files: ['**/*.ts'],
    rules: {
      // `async` without `await` is meant here: Fastify tells an async hook from one that calls done() by the promise
      // it returns, and a method of an async interface (Store, Target) must reject, not throw.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // Tests read JSON answers whose shape they are checking.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    // Tests and benchmarks read JSON answers (`any` by nature) field by field; typing each one would say nothing
    // the assertions do not. The engine, machines and adapters keep the no-unsafe-* rules.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
