import { MISSING_CODE_EVENT, type MissingCodeDetail } from '@special-gift/shared/code-loading';

/**
 * A remote whose code could not be loaded from the build this page was composed with: if a release
 * has moved the remote on since, the page loads again on the live build (live-build.ts). Fetched
 * only then, so the first screen carries none of it.
 */
export const moveToLiveBuild = (remote: string, apiBase: string): Promise<boolean> =>
  import(/* webpackChunkName: "live-build" */ './live-build').then(({ reloadOntoLiveBuild }) =>
    reloadOntoLiveBuild(remote, apiBase),
  );

/** Listens for the remotes' reports of missing code (`@special-gift/shared/code-loading`). */
export function followReleasesOnMissingCode(apiBase: string): void {
  window.addEventListener(MISSING_CODE_EVENT, (event) => {
    moveToLiveBuild((event as CustomEvent<MissingCodeDetail>).detail.remote, apiBase).catch(() => undefined);
  });
}
