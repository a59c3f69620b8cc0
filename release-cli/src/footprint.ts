import { statSync } from 'node:fs';
import path from 'node:path';
import type { BuildFootprint } from '@special-gift/shared/api';
import { entryPath, type FederationManifest } from './integrity';

/**
 * What the console compares a build with the live one by (docs/console.md), read from a checked
 * build's `mf-manifest.json`: the bytes of its entry; of its first screen, the entry and the exposed
 * modules' sync JS and CSS (what a page loads from the remote to show it: the shared libraries come
 * from the host); and the version of each shared library it was built with.
 */
export function buildFootprint(dist: string, manifest: FederationManifest): BuildFootprint {
  const size = (file: string) => statSync(path.join(dist, ...file.split('/'))).size;
  const entry = entryPath(manifest);
  const screen = new Set([
    entry,
    ...(manifest.exposes ?? []).flatMap((expose) => [
      ...(expose.assets?.js?.sync ?? []),
      ...(expose.assets?.css?.sync ?? []),
    ]),
  ]);
  const sharedVersions: Record<string, string> = {};
  for (const shared of manifest.shared ?? [])
    if (shared.name && shared.version) sharedVersions[shared.name] = shared.version;
  return {
    entryBytes: size(entry),
    firstScreenBytes: [...screen].reduce((total, file) => total + size(file), 0),
    sharedVersions,
  };
}
