import { MISSING_CODE_EVENT, type MissingCodeDetail } from '@special-gift/shared/code-loading';
import { PAGE_BUILDS_ATTRIBUTE, parsePageBuilds } from '@special-gift/shared/composition';
import { recordSignal } from '../../services/telemetry/signals';

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

/**
 * A remote whose code could not be loaded from the build this page was composed with (a lazy
 * chunk, or its whole load): the page loads again when that build is no longer the remote's live
 * one (the tab outlived its retention, or a rollback replaced it). The new page is composed with
 * the live build, its fragment and code agreeing, and never mixes two builds of one remote, which
 * swapping the code inside this page would. Resolves false when there is nothing to move to:
 * the remote runs its own build, the snapshot cannot be read, or the live build is this one.
 */
export async function reloadOntoLiveBuild(
  remote: string,
  apiBase: string,
  reload = () => window.location.reload(),
): Promise<boolean> {
  const pageBuild = parsePageBuilds(document.documentElement.getAttribute(PAGE_BUILDS_ATTRIBUTE))[remote];
  if (pageBuild === undefined || Date.now() - lastReload() < MIN_RELOAD_INTERVAL_MS) return false;
  const response = await fetch(`${apiBase}/releases/snapshot`, { cache: 'no-store' });
  if (!response.ok || parsePageBuilds(response.headers.get('sg-builds'))[remote] === pageBuild) return false;
  try {
    sessionStorage.setItem(LAST_RELOAD_KEY, String(Date.now()));
  } catch {
    // not kept: the next check asks the API again
  }
  await new Promise((resolve) => setTimeout(resolve, SAVE_GRACE_MS));
  reload();
  return true;
}

/** Listens for the remotes' reports of missing code (`@special-gift/shared/code-loading`). */
export function followReleasesOnMissingCode(apiBase: string): void {
  window.addEventListener(MISSING_CODE_EVENT, (event) => {
    const { remote } = (event as CustomEvent<MissingCodeDetail>).detail;
    recordSignal({ kind: 'load_failure', remote, error: null, lazy: true });
    reloadOntoLiveBuild(remote, apiBase).catch(() => undefined);
  });
}
