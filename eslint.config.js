import tseslint from 'typescript-eslint';
import layers from './eslint-rules/layers.js';

export default tseslint.config(
  { ignores: ['scratch/**', 'node_modules/', 'dist/', 'out/', 'coverage/', 'renderer/dist/', 'test-results/'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { layers, '@typescript-eslint': tseslint.plugin },
    rules: {
      'layers/direction': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);
