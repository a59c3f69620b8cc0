import { createHash } from 'node:crypto';
import type { BuildContent } from './build-id';

/** The one hash algorithm of every integrity value here: the strongest all browsers check. */
export const SRI_ALGORITHM = 'sha384';

/** A Subresource Integrity value (`sha384-<base64>`) of some bytes. */
export function sriOf(content: Buffer | string): string {
  return `${SRI_ALGORITHM}-${createHash(SRI_ALGORITHM).update(content).digest('base64')}`;
}

/** A browser loads these from a remote's origin: scripts, stylesheets and the texts (JSON). */
export function isBrowserLoaded(relativePath: string): boolean {
  return /\.(js|css)$/.test(relativePath) || /^assets\/i18n\/[^/]+\.json$/.test(relativePath);
}

/**
 * The integrity of every file of a build that a browser may load, by path relative to the build's
 * root (`remoteEntry.js`, `123.ab12cd34.js`, `assets/i18n/fr.json`...). Recorded in the API with the
 * build: the page learns the entry's and the texts' from the API, never from the remote's origin
 * (docs/security.md). Taken from the same read of each file as its id (`computeBuild`), so the
 * hashes are those of the bytes the store checks it wrote, even if `dist/` changes meanwhile.
 */
export function buildIntegrity(content: BuildContent): Record<string, string> {
  const integrity: Record<string, string> = {};
  for (const file of content.files) if (isBrowserLoaded(file.path)) integrity[file.path] = file.sri;
  return integrity;
}
