// Lint for the whole workspace. Dependencies flow one way: shared -> remotes/host; a remote never
// imports host code or another remote; shared imports no app code.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');

const appPackages = ['host', 'remote-intro', 'remote-signup', 'remote-thankyou', 'api'];
const forbidImportsOf = (packages, why) =>
  packages.flatMap((pkg) => [
    { group: [`**/${pkg}/**`, `@special-gift/${pkg}`, `@special-gift/${pkg}/**`], message: why },
  ]);

module.exports = tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'test-results/**', 'playwright-report/**', '.e2e/**', '.e2e-variant-*/**', 'bench-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  { files: ['**/*.js', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    files: ['shared/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: forbidImportsOf(appPackages, 'shared is the contract: it imports no app code.') }] },
  },
  ...['remote-intro', 'remote-signup', 'remote-thankyou'].map((remote) => ({
    files: [`${remote}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react-router-dom', message: 'Remotes navigate through the shell contract (useNavigation), never a router.' },
            { name: 'react-i18next', message: "Use @special-gift/shared's useTranslation: it is the host's react-i18next (react-i18next is not shared)." },
            { name: 'i18next', message: 'Remotes reach i18n only through @special-gift/shared (useTranslation, useShellI18n).' },
          ],
          patterns: forbidImportsOf(appPackages.filter((p) => p !== remote), 'A remote depends only on @special-gift/shared.'),
        },
      ],
    },
  })),
);
