// One lint configuration for the whole monorepo.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** A statement in a string: the start of a query, an insert, an update, a delete or a CTE. */
const SQL_STATEMENT =
  '/\\b(SELECT\\s|INSERT\\s+INTO|UPDATE\\s+\\w+(\\s+(AS\\s+)?\\w+)?\\s+SET|DELETE\\s+FROM|WITH\\s+\\w+\\s+AS\\s*\\()/i';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-bench/**',
      '**/dist-release/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.d.ts',
      '**/*.d.mts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'vitest.release.config.ts'],
          defaultProject: 'tsconfig.base.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Features do not import one another (STYLE.md §1).
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/*/**', '../../features/**'],
              message:
                'A feature does not import another feature; move shared code to components/ or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A component or hook a reader takes in at once; split what grows past it (issue 21).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/web/src/testing/**'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  {
    // The composition root (src/app) is where features are wired together (STYLE.md §1).
    files: ['apps/web/src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      // A module uses plugins/, db/ and packages/*, never another module's repository.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/*.repository.js'],
              message: "Call the other module's service, not its repository.",
            },
          ],
        },
      ],
    },
  },
  {
    // Each table has one owning module, and only its repository writes SQL against it (STYLE.md
    // §2). db/ is the infrastructure exempted: client, migrations, list queries, partitions,
    // NOTIFY and advisory locks (docs/ARCHITECTURE.md, "Table ownership").
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/db/**',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/test/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal', 'TemplateElement'].map((node) => ({
          selector: `${node}[${node === 'Literal' ? 'value' : 'value.raw'}=${SQL_STATEMENT}]`,
          message: 'SQL belongs in a *.repository.ts of the module that owns the table.',
        })),
      ],
    },
  },
  {
    // The browser tests and their helpers are lightly typed: API answers and page values stay
    // untyped. The API and agent tests (and their helpers, the fixtures) read answers as the
    // contract's types and are held to the no-unsafe rules.
    files: ['e2e/**/*.ts'],
    ignores: [
      'e2e/api/**',
      'e2e/agent/**',
      'e2e/fixtures.ts',
      'e2e/lib/rest.ts',
      'e2e/lib/agent.ts',
      'e2e/playwright.config.ts',
      'e2e/global-setup.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Playwright's fixtures take their dependencies as a destructured object, even none.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
