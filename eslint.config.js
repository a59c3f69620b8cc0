// Lint for the whole workspace. Dependencies flow one way: shared -> remotes/host/api; a remote
// never imports host code or another remote; the host and the API import no remote; shared imports
// no app code; tooling/ (what the apps build with) imports no app; only bench/ and e2e/ reach into
// the apps. Inside the host, layers run one way: config, services -> shell -> features -> app.
// Inside the API, each domain uses another only through its index.ts, over http/ and db/.
// tooling/ is rooms by purpose over the one list of remotes, each importing only the rooms below it
// (toolingRooms); release-cli/ (the sg-release package) uses only the list of remotes of tooling/;
// gate-runner/ (the rollouts' gate runner) uses only tooling/process/, Chromium's flags and release-cli/'s hashing.
// No import cycles anywhere.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const importX = require('eslint-plugin-import-x');
const { createTypeScriptImportResolver } = require('eslint-import-resolver-typescript');
const globals = require('globals');
const remotes = require('./tooling/remotes/remotes.json');

const remoteDirs = remotes.map((remote) => remote.dir);
const hostFeatures = require('node:fs').readdirSync(`${__dirname}/host/src/features`);
const sharedFolders = require('node:fs')
  .readdirSync(`${__dirname}/shared/src`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const appPackages = ['host', ...remoteDirs, 'api'];
/** The API's domains (api/README.md): each reaches another only through that one's index.ts. */
const apiDomains = ['signups', 'releases', 'telemetry', 'access', 'console', 'rollouts', 'rollout-runner'];
/** The browser apps' shipped code: every source file but the tests (shared's test-only folder aside). */
const productionSources = ['host/src', ...remoteDirs.map((dir) => `${dir}/src`), 'shared/src/!(testing)'].map(
  (dir) => `./${dir}/**/!(*.test).{ts,tsx}`,
);
/**
 * tooling/'s rooms and release-cli/, each with the rooms it may import (docs/architecture.md, "Layout").
 * Each imports no other room; the rooms themselves are the repository's folders below.
 */
const toolingRooms = {
  'tooling/remotes': [],
  'tooling/process': [],
  'release-cli': ['tooling/remotes'],
  'gate-runner': ['tooling/process', 'release-cli'],
  'tooling/composition': ['tooling/remotes'],
  'tooling/state-agent': ['tooling/composition'],
  'tooling/serve': ['tooling/remotes', 'tooling/process', 'tooling/composition', 'release-cli'],
  'tooling/build': ['tooling/remotes', 'tooling/composition', 'tooling/serve', 'release-cli'],
  'tooling/deployment': ['tooling/remotes', 'tooling/composition'],
  'tooling/nginx-tests': [
    'tooling/remotes',
    'tooling/composition',
    'tooling/serve',
    'tooling/state-agent',
    'release-cli',
  ],
  'tooling/eslint': ['tooling/remotes', 'tooling/serve'],
};
const forbidImportsOf = (packages, why) =>
  packages.flatMap((pkg) => [
    { group: [`**/${pkg}/**`, `@special-gift/${pkg}`, `@special-gift/${pkg}/**`], message: why },
  ]);

module.exports = tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'test-results/**',
      'playwright-report/**',
      // `npm run up`'s data: the API's database and the build store's published builds.
      '.data/**',
      '.e2e/**',
      '.e2e-variant-*/**',
      'bench-results/**',
    ],
  },
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
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: forbidImportsOf(appPackages, 'shared is the contract: it imports no app code.') },
      ],
    },
  },
  {
    // The API's code never depends on its tests' helpers (api/test/support): they are not in the bundle.
    files: ['api/src/**'],
    ignores: ['api/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/test/**'], message: 'api/test/ is test code: the API does not import it.' }] },
      ],
    },
  },
  ...remoteDirs.map((remote) => ({
    files: [`${remote}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router-dom',
              message: 'Remotes navigate through the shell contract (useNavigation), never a router.',
            },
            {
              name: 'react-i18next',
              message:
                "Use @special-gift/shared's useTranslation: it is the host's react-i18next (react-i18next is not shared).",
            },
            {
              name: 'i18next',
              message: 'Remotes reach i18n only through @special-gift/shared (useTranslation, useShellI18n).',
            },
            {
              name: '@special-gift/shared/host',
              message:
                "The shell's implementations are the host's: a remote receives the HTTP client and overlays through the contract (useShell).",
            },
            {
              name: '@special-gift/shared/composition',
              message:
                'Page composition is the host and its servers’ business: a remote screen renders the same on the server and in the browser through the contract.',
            },
          ],
          patterns: forbidImportsOf(
            appPackages.filter((p) => p !== remote),
            'A remote depends only on @special-gift/shared.',
          ),
        },
      ],
    },
  })),
  {
    plugins: { 'import-x': importX },
    settings: {
      // import-x's TypeScript settings (extensions, parser for the files it follows), with the resolver below.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/external-module-folders': importX.flatConfigs.typescript.settings['import-x/external-module-folders'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['*/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // The host's layers (bulletproof-react's one-way flow).
            {
              target: ['./host/src/config', './host/src/services'],
              from: ['./host/src/shell', './host/src/features', './host/src/app'],
              message: 'config/ and services/ are the bottom layer: they import no shell, feature or app code.',
            },
            {
              target: './host/src/config',
              from: './host/src/services',
              message: 'config/ is parsed first and depends on nothing of the host.',
            },
            {
              target: './host/src/shell',
              from: ['./host/src/features', './host/src/app'],
              message: 'shell/ (services context, document title) sits below features/ and app/.',
            },
            {
              target: './host/src/features',
              from: './host/src/app',
              message: 'features/ never import app/: app composes features, not the other way round.',
            },
            ...hostFeatures.map((feature) => ({
              target: `./host/src/features/${feature}`,
              from: './host/src/features',
              except: [`./${feature}`],
              message: 'A feature imports no other feature; share through shell/ or services/.',
            })),
            // The API by domain, over shared http/ and db/ infrastructure.
            ...apiDomains.flatMap((domain) =>
              apiDomains
                .filter((other) => other !== domain)
                .map((other) => ({
                  target: `./api/src/${domain}`,
                  from: `./api/src/${other}`,
                  except: ['./index.ts'],
                  message: `A domain of the API uses another only through its index.ts (api/src/${other}/index.ts).`,
                })),
            ),
            {
              target: './api/src/{http,db}/**/!(*.test).ts',
              from: apiDomains.map((domain) => `./api/src/${domain}`),
              message: 'http/ and db/ are the infrastructure under every domain: they import none.',
            },
            // Packages.
            {
              target: ['./host', './api'],
              from: remoteDirs.map((dir) => `./${dir}`),
              message: 'Remotes are loaded at runtime through federation, never imported.',
            },
            {
              target: './api',
              from: ['./host', ...remoteDirs.map((dir) => `./${dir}`)],
              message: 'The API imports no app; it shares only @special-gift/shared.',
            },
            {
              target: ['./tooling', './release-cli', './gate-runner'],
              from: ['./host', ...remoteDirs.map((dir) => `./${dir}`), './api', './bench', './e2e'],
              message: 'tooling/ is what the apps build with; it imports no app (bench/ and e2e/ may).',
            },
            // tooling/ by room: each imports only the rooms below it, so nothing imports back up.
            ...Object.entries(toolingRooms).map(([room, below]) => ({
              target: `./${room}`,
              from: Object.keys(toolingRooms)
                .filter((other) => other !== room && !below.includes(other))
                .map((other) => `./${other}`),
              message: `${room}/ imports ${below.length === 0 ? 'no other room' : `only ${below.map((other) => `${other}/`).join(', ')}`} (docs/architecture.md, "Layout").`,
            })),
            {
              target: './release-cli/src/**/!(*.test).ts',
              from: './release-cli/test',
              message: 'release-cli/test/ (the S3 stand-in) is test code: the packed tool does not import it.',
            },
            // shared/: a folder per export subpath, federated, bundled or test-only (shared/README.md).
            {
              target: './shared/src/contract',
              from: ['./shared/src/host', './shared/src/dev-shell', './shared/src/composition', './shared/src/testing'],
              message:
                'The federated contract carries no shell implementation, composition or test code: what it imports rides in every page.',
            },
            // The builds' wire formats (build id, Sg-Builds) sit at the bottom: the browser, the API and
            // the release tool all parse them, so they import nothing else of shared/.
            {
              target: './shared/src/builds',
              from: sharedFolders.filter((folder) => folder !== 'builds').map((folder) => `./shared/src/${folder}`),
              message:
                'shared/src/builds (the build id, Sg-Builds) is the bottom of shared/: it imports no other folder.',
            },
            {
              target: productionSources,
              from: './shared/src/testing',
              message:
                'shared/src/testing (@special-gift/shared/testing, /testing/cards) is test-only: only tests import it.',
            },
          ],
        },
      ],
    },
  },
);
