import {
  PAGE_BUILDS_ATTRIBUTE,
  PAGE_INTEGRITY_ATTRIBUTE,
  parsePageBuilds,
  parsePageIntegrity,
} from '@special-gift/shared/composition';

/**
 * What a page refuses with: a well-formed sha384 value that no file matches. A released build
 * whose hash the page lacks (recorded before hashes were, or a snapshot cut short) is refused,
 * never loaded unchecked.
 */
export const REFUSE_INTEGRITY = 'sha384-no-recorded-hash';

/** The integrity a URL must have, or undefined for a file the page was not composed with hashes for. */
export type IntegrityLookup = (url: string) => string | undefined;

/**
 * The page's integrity lookup (docs/security.md), from `<html data-sg-builds data-sg-integrity>`,
 * both written by the host's composer from the API's snapshot. Every file under a released build's
 * folder that the host loads by URL (its `remoteEntry.js`, its texts) gets the hash recorded at
 * publish, or {@link REFUSE_INTEGRITY}. A remote the snapshot does not name runs its image's own
 * build, for which the API has no hash: undefined (the gap docs/security.md describes).
 */
export function pageIntegrity(
  entries: Readonly<Record<string, string>>,
  root: Element = document.documentElement,
  pageUrl = window.location.href,
): IntegrityLookup {
  const builds = parsePageBuilds(root.getAttribute(PAGE_BUILDS_ATTRIBUTE));
  const hashes = parsePageIntegrity(root.getAttribute(PAGE_INTEGRITY_ATTRIBUTE));
  const folders: Array<{ remote: string; folder: string }> = [];
  for (const [remote, build] of Object.entries(builds)) {
    const entry = entries[remote];
    // The entry is already the build's (withPageBuilds): its folder is the build's folder.
    if (entry && entry.includes(`/builds/${build}/`))
      folders.push({ remote, folder: new URL('.', new URL(entry, pageUrl)).href });
  }
  return (url) => {
    const absolute = new URL(url, pageUrl);
    absolute.search = ''; // a retry's `?attempt=N` names the same file
    const href = absolute.href;
    const owner = folders.find(({ folder }) => href.startsWith(folder));
    if (!owner) return undefined;
    return hashes[`${owner.remote}/${href.slice(owner.folder.length)}`] ?? REFUSE_INTEGRITY;
  };
}
