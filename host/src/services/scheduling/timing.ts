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
