import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Libraries that must exist once in the browser: React, and the shell contract package (its React
 * context must be the host's). Subpaths are listed explicitly because federation does not share
 * `react-dom/client` or `react/jsx-runtime` through `react-dom`.
 *
 * Deliberately NOT shared: react-router-dom, i18next and react-i18next. Only the host imports them
 * (lint forbids remotes to): remotes navigate through the shell contract and read texts through the
 * contract's `useTranslation`. A shared module is never tree-shaken, so sharing them would cost
 * ~40 KB gzipped on the first screen for nothing (see docs/performance.md).
 */
export const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  '@special-gift/shared',
] as const;

function packageName(request: string): string {
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? request);
}

function installedVersion(request: string, fromDir: string): string {
  const name = packageName(request);
  const manifestPath = require.resolve(join(name, 'package.json'), { paths: [fromDir] });
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  return manifest.version;
}

/**
 * The federation `shared` block: singletons whose `requiredVersion` is the caret range of the version
 * this app was built with, so a remote built against another major is reported by the runtime.
 * `eager` is for the host, which always provides them: they go into its entry chunk instead of one
 * request each, and its start-up needs no async boundary.
 */
export function sharedSingletons(appDir: string, options: { eager: boolean }) {
  return Object.fromEntries(
    SINGLETONS.map((request) => [
      request,
      { singleton: true, eager: options.eager, requiredVersion: `^${installedVersion(request, appDir)}` },
    ]),
  );
}
