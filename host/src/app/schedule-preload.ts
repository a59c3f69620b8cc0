/** The preload waits for the browser to be idle, at most this long after the first screen. */
export const PRELOAD_IDLE_TIMEOUT_MS = 2000;
/** Where the browser has no requestIdleCallback, the preload starts this long after the first screen. */
export const PRELOAD_FALLBACK_DELAY_MS = 200;

/**
 * Returns a callback that, the first time it is called (when the first screen has rendered),
 * starts `preload` once the browser is idle, so preloading never competes with the first screen.
 */
export function schedulePreload(preload: () => Promise<void>): () => void {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    const run = () => void preload().catch((error: unknown) => console.warn('[preload] failed', error));
    if (typeof window.requestIdleCallback === 'function')
      window.requestIdleCallback(run, { timeout: PRELOAD_IDLE_TIMEOUT_MS });
    else window.setTimeout(run, PRELOAD_FALLBACK_DELAY_MS);
  };
}

/**
 * The preload of every remote after the first screen, with the page's markers for tests and the
 * benchmark: `data-interactive` once the first screen's code runs (a prerendered one shows
 * before), `data-preloaded` once every remote's code and texts are in.
 */
export function preloadAfterFirstScreen(preloadAll: () => Promise<void>): () => void {
  return schedulePreload(async () => {
    document.documentElement.dataset.interactive = 'true';
    await preloadAll();
    document.documentElement.dataset.preloaded = 'true';
  });
}
