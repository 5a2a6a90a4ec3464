import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import rxjsX from 'eslint-plugin-rxjs-x';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The console's page: plain ES modules run by the browser.
    files: ['console/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'AbortController',
          'clearInterval',
          'document',
          'fetch',
          'location',
          'performance',
          'sessionStorage',
          'setInterval',
          'setTimeout',
          'clearTimeout',
          'TextDecoderStream',
          'URLSearchParams',
          'window',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname } },
    plugins: { 'rxjs-x': rxjsX },
    rules: {
      'rxjs-x/no-unsafe-takeuntil': 'error',
      'rxjs-x/no-ignored-subscription': 'off',
      'rxjs-x/no-internal': 'error',
      'rxjs-x/no-nested-subscribe': 'error',
      'rxjs-x/finnish': [
        'error',
        // An operator is a function of streams, not a stream: no $.
        {
          functions: false,
          methods: false,
          parameters: true,
          properties: false,
          variables: true,
          strict: false,
          types: { '^(MonoType)?OperatorFunction$': false },
        },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
);
