/**
 * The release snapshot a composed page carries: which published build of each released remote it
 * was composed with, on `<html data-sg-builds="intro=<id>,signup=<id>">`. The composer writes the
 * API's `Sg-Builds` answer there as it is (its grammar: `@special-gift/shared/builds`); the host reads it once and loads every remote's code and
 * texts from those builds for the tab's whole life (docs/releases.md). A remote that is not named
 * (no release, or no snapshot at all) runs the build its own origin serves at its root.
 */
import { BUILD_ID_SOURCE } from '../builds';

export const PAGE_BUILDS_ATTRIBUTE = 'data-sg-builds';

/**
 * A published build's remoteEntry.js, beside the remote's own entry: `<base>/builds/<id>/remoteEntry.js`.
 * Its chunks and texts load relative to it (publicPath 'auto'), so they come from the same build.
 */
export function buildEntryUrl(entryUrl: string, build: string | undefined, pageUrl: string): string {
  if (!build) return entryUrl;
  return new URL(`builds/${build}/remoteEntry.js`, new URL(entryUrl, pageUrl)).href;
}

const BUILD_FOLDER = new RegExp(`^(.*/)builds/(${BUILD_ID_SOURCE})/`);

/**
 * The published build a URL is under, as {@link buildEntryUrl} puts it (its last `builds/<id>/`):
 * the build's folder (up to its `/`), the remote's base before it and the build's id; null for a
 * URL of no published build (a remote's own files).
 */
export function publishedBuildFolder(
  url: string,
): { readonly folder: string; readonly remoteBase: string; readonly build: string } | null {
  const [folder, remoteBase = '', build = ''] = BUILD_FOLDER.exec(url) ?? [];
  return folder === undefined ? null : { folder, remoteBase, build };
}
