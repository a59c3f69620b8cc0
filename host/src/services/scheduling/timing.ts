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
