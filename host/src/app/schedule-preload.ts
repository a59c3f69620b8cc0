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
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(run, { timeout: 2000 });
    else window.setTimeout(run, 200);
  };
}
