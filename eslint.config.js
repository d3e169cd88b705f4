import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import hostRefs from './eslint-rules/host-refs.js';
import layers from './eslint-rules/layers.js';
import { CHECKER, ROBOT_VOICE, checkerRestrictions, truthRestrictions } from './eslint-rules/truth.js';

export default tseslint.config(
  { ignores: ['scratch/**', 'node_modules/', 'dist/', 'out/', 'coverage/', 'renderer/dist/', 'test-results/'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { layers, 'host-refs': hostRefs, '@typescript-eslint': tseslint.plugin },
    rules: {
      'layers/direction': 'error',
      // Host refs (a suite, model, run id… a request named) are made by the host policy only (eslint-rules/host-refs.js).
      'host-refs/minted-by-policy': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // No import cycles anywhere: a cycle is a layer that has not been cut yet.
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The Robot seam is asynchronous: a promise used as a value (in a condition, a
  // spread, a forgotten await) is a bug that types alone do not catch.
  {
    files: ['{agents,robot,hosts,eval,electron}/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  // The belief rule: what the robot tells a tool never comes from ground truth (eslint-rules/truth.js).
  {
    files: ROBOT_VOICE,
    rules: { 'no-restricted-imports': ['error', truthRestrictions] },
  },
  // The audit's checker stays independent of the code the tools use.
  {
    files: CHECKER,
    rules: { 'no-restricted-imports': ['error', checkerRestrictions] },
  },
);
