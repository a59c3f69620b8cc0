import {
  PAGE_BUILDS_ATTRIBUTE,
  PAGE_INTEGRITY_ATTRIBUTE,
  parsePageBuilds,
  parsePageIntegrity,
  REFUSE_INTEGRITY,
} from '@special-gift/shared/composition';

export { REFUSE_INTEGRITY };

/** The integrity a URL must have, or undefined for a file the page was not composed with hashes for. */
export type IntegrityLookup = (url: string) => string | undefined;

/**
 * The page's integrity lookup (docs/security.md), from `<html data-sg-builds data-sg-integrity>`,
 * both written by the host's composer from the API's snapshot. Every file under a released build's
 * folder that the host loads by URL (its `remoteEntry.js`, its texts) gets the hash recorded at
 * publish, or {@link REFUSE_INTEGRITY}. A remote the snapshot does not name runs its image's own
 * build, for which the API has no hash: undefined (loaded unchecked), or, with `requireIntegrity`
 * (the runtime config's), {@link REFUSE_INTEGRITY} too.
 */
export function pageIntegrity(
  entries: Readonly<Record<string, string>>,
  root: Element = document.documentElement,
  pageUrl = window.location.href,
  { requireIntegrity = false }: { requireIntegrity?: boolean } = {},
): IntegrityLookup {
  const builds = parsePageBuilds(root.getAttribute(PAGE_BUILDS_ATTRIBUTE));
  const hashes = parsePageIntegrity(root.getAttribute(PAGE_INTEGRITY_ATTRIBUTE));
  const folderOf = (entry: string) => new URL('.', new URL(entry, pageUrl)).href;
  const released: Array<{ remote: string; folder: string }> = [];
  const unreleased: string[] = [];
  for (const [remote, entry] of Object.entries(entries)) {
    const build = builds[remote];
    // The entry is already the build's (withPageBuilds): its folder is the build's folder.
    if (build !== undefined && entry.includes(`/builds/${build}/`)) released.push({ remote, folder: folderOf(entry) });
    else unreleased.push(folderOf(entry));
  }
  return (url) => {
    const absolute = new URL(url, pageUrl);
    absolute.search = ''; // a retry's `?attempt=N` names the same file
    const href = absolute.href;
    const owner = released.find(({ folder }) => href.startsWith(folder));
    if (owner) return hashes[`${owner.remote}/${href.slice(owner.folder.length)}`] ?? REFUSE_INTEGRITY;
    if (requireIntegrity && unreleased.some((folder) => href.startsWith(folder))) return REFUSE_INTEGRITY;
    return undefined;
  };
}
