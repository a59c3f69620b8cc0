/** Resolves after `ms` milliseconds (a timer: at least that, later in a busy or hidden tab). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Resolves in a later task, so that input waiting in the queue is handled first. Start-up work
 * split at these points runs as several short tasks instead of one long one: on a slow phone, a
 * task over 50 ms is a tap that waits (Total Blocking Time, INP).
 */
export function yieldToBrowser(): Promise<void> {
  return sleep(0);
}

/**
 * Runs `work` in a task after the next frame is painted (a timer set from the frame's animation
 * callback), for clean-up that must not hold what the user is waiting to see. A hidden tab paints
 * no frame: there it runs in the next task.
 */
export function afterNextPaint(work: () => void): void {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') {
    setTimeout(work, 0);
    return;
  }
  requestAnimationFrame(() => setTimeout(work, 0));
}

/** What counts as the user acting on the page: a tap, a key, a scroll. */
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchmove'] as const;

/**
 * Runs `work` once the user has left the page alone for `quietMs` (no tap, key or scroll), or at
 * once when the page is hidden: for background downloads that must not compete with a tap on a
 * phone (the offline set, docs/offline.md). Each input restarts the wait.
 */
export function whenUserQuiet(work: () => void, quietMs: number, target: Window = window): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = () => {
    clearTimeout(timer);
    for (const type of INPUT_EVENTS) target.removeEventListener(type, restart, true);
    target.document.removeEventListener('visibilitychange', onHidden);
    work();
  };
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(done, quietMs);
  };
  const onHidden = () => {
    if (target.document.visibilityState === 'hidden') done();
  };
  for (const type of INPUT_EVENTS) target.addEventListener(type, restart, { capture: true, passive: true });
  target.document.addEventListener('visibilitychange', onHidden);
  restart();
}
