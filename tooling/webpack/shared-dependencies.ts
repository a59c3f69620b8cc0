import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Libraries that must exist once in the browser: React and its context-holding companions, and the
 * shell contract package (its React context must be the host's). Subpaths are listed explicitly
 * because federation does not share `react-dom/client` or `react/jsx-runtime` through `react-dom`.
 */
export const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'react-router-dom',
  'i18next',
  'react-i18next',
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
 */
export function sharedSingletons(appDir: string) {
  return Object.fromEntries(
    SINGLETONS.map((request) => [
      request,
      { singleton: true, requiredVersion: `^${installedVersion(request, appDir)}` },
    ]),
  );
}

