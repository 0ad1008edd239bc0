// Flat config: typescript-eslint with type-aware rules; the client may never import server code, and
// the import boundaries between layers are a local rule (eslint-rules/layers.js).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import layers from './eslint-rules/layers.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'src/server/db/migrations/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Client layers import only downwards; a route file imports no other (eslint-rules/layers.js).
    files: ['src/client/**/*.{ts,tsx}', 'src/server/features/*/routes.ts'],
    plugins: { local: { rules: { layers } } },
    rules: { 'local/layers': 'error' },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '*/server/*'], message: 'The client never imports server code.' },
          ],
          paths: [
            {
              name: '@mantine/core',
              importNames: ['Modal'],
              message:
                'Dialogs are AppModal (components/AppModal.tsx): Esc and the focus across nested dialogs.',
            },
          ],
        },
      ],
    },
  },
  {
    // The one place Mantine's Modal is used.
    files: ['src/client/components/AppModal.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '*/server/*'], message: 'The client never imports server code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', '**/server/**', '**/client/**'],
              message: 'src/shared has no Node, server or client imports.',
            },
          ],
        },
      ],
    },
  },
  {
    // Services take plain values (docs/architecture.md#the-life-of-a-request): only the HTTP edge
    // (route files, src/server/http, plugins) knows Fastify. The one exception installs hooks:
    // the metrics' request timers.
    files: ['src/server/features/**/*.ts'],
    ignores: [
      '**/routes.ts',
      '**/*-routes.ts',
      '**/*.test.ts',
      '**/testing.ts',
      'src/server/features/metrics/metrics.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', '@fastify/*', 'fastify-*'],
              message: 'Services take plain values: read the request in the route or src/server/http.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read untyped JSON answers (`res.json()`); asserting on them is the point.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'src/server/test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
);
