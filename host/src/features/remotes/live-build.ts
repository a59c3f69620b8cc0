import { MISSING_CODE_EVENT, type MissingCodeDetail } from '@special-gift/shared/code-loading';
import { PAGE_BUILDS_ATTRIBUTE, parsePageBuilds } from '@special-gift/shared/composition';
import { remoteTextsBase } from '../../config/runtime-config';
import { recordSignal } from '../../services/telemetry/signals';
import { manifestFiles } from '../../config/mf-manifest';

const LAST_RELOAD_KEY = 'sg-live-build-reload';
/** At most one such reload a minute: a live build whose own code is missing cannot loop the page. */
export const MIN_RELOAD_INTERVAL_MS = 60_000;
/**
 * Screens keep what the user types as it is typed (the sign-up form's draft, saved within 300 ms);
 * the reload waits this long so a save in flight lands, and the new page brings the values back.
 */
export const SAVE_GRACE_MS = 1_000;

function lastReload(): number {
  try {
    return Number(sessionStorage.getItem(LAST_RELOAD_KEY) ?? 0);
  } catch {
    return 0; // storage refused: the live-build check below still bounds the reloads
  }
}

/** Where each remote's own build is: its `remoteEntry.js` URL (runtime config), set at boot. */
let imageEntries: Readonly<Record<string, string>> = {};

/**
 * Every deploy is a release (docs/releases.md, "Every deploy is a release"): a remote running its
 * image's own build (no pointer) has changed when the build its origin serves now no longer lists
 * code this page fetched from it, as after an image roll or an in-place rebuild. Its current
 * `mf-manifest.json` (revalidated on every load) lists every chunk of the build; a file this page
 * fetched (or failed to fetch: `missingUrl`) that it does not list is from a build that is gone.
 * An unreachable origin is not a new build: false.
 */
export async function imageBuildReplaced(entryUrl: string, missingUrl?: string): Promise<boolean> {
  const base = remoteTextsBase(entryUrl);
  // Resource timing names cross-origin files too; a browser without it has only the missing file.
  const timing = typeof performance.getEntriesByType === 'function' ? performance.getEntriesByType('resource') : [];
  const fetched = timing.map((entry) => entry.name).concat(missingUrl ?? []);
  const files = fetched
    .filter((url) => url.startsWith(base))
    .map((url) => url.slice(base.length).split(/[?#]/)[0] ?? '')
    .filter((file) => /\.(js|css)$/.test(file) && file !== 'remoteEntry.js');
  if (files.length === 0) return false;
  const response = await fetch(`${base}mf-manifest.json`, { cache: 'no-store' });
  if (!response.ok) return false;
  const listed = new Set(manifestFiles(await response.json()));
  return files.some((file) => !listed.has(file));
}

/**
 * Whether this page should move to a newer build of `remote` whose code it could not load (a lazy
 * chunk, or its whole load): with a release pointer, when the pointer no longer names the build
 * the page was composed with (the tab outlived its retention, or a rollback replaced it); without
 * one, when the remote's own build was replaced (`imageBuildReplaced`). False when there is
 * nothing to move to (then the code is unreachable, not gone: a connection problem), or the page
 * moved less than a minute ago.
 */
export async function newBuildAvailable(remote: string, apiBase: string, missingUrl?: string): Promise<boolean> {
  if (Date.now() - lastReload() < MIN_RELOAD_INTERVAL_MS) return false;
  const pageBuild = parsePageBuilds(document.documentElement.getAttribute(PAGE_BUILDS_ATTRIBUTE))[remote];
  if (pageBuild === undefined) {
    const entry = imageEntries[remote];
    return entry === undefined ? false : imageBuildReplaced(entry, missingUrl);
  }
  const response = await fetch(`${apiBase}/releases/snapshot`, { cache: 'no-store' });
  return response.ok && parsePageBuilds(response.headers.get('sg-builds'))[remote] !== pageBuild;
}

/**
 * Loads the page again, composed with the remote's current build: its fragment and code agree, and
 * it never mixes two builds of one remote, which swapping the code inside this page would. Waits
 * for saves in flight, so what was typed comes back.
 */
export async function reloadSoon(reload = () => window.location.reload()): Promise<void> {
  try {
    sessionStorage.setItem(LAST_RELOAD_KEY, String(Date.now()));
  } catch {
    // not kept: the next check asks again
  }
  await new Promise((resolve) => setTimeout(resolve, SAVE_GRACE_MS));
  reload();
}

/**
 * Listens for the remotes' reports of missing code (`@special-gift/shared/code-loading`) and answers
 * each: whether the page is moving to a new build (the remote then says so, and never blames the
 * connection for code that is gone).
 */
export function followReleasesOnMissingCode(apiBase: string, entries: Readonly<Record<string, string>> = {}): void {
  imageEntries = entries;
  window.addEventListener(MISSING_CODE_EVENT, (event) => {
    const { remote, url, respond } = (event as CustomEvent<MissingCodeDetail>).detail;
    recordSignal({ kind: 'load_failure', remote, error: null, lazy: true });
    newBuildAvailable(remote, apiBase, url)
      .catch(() => false)
      .then(async (moving) => {
        respond?.(moving);
        if (moving) await reloadSoon();
      })
      .catch(() => undefined);
  });
}
