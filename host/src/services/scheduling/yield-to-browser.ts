/**
 * Resolves in a later task, after the browser has had the chance to handle input and paint.
 * Start-up work split at these points runs as several short tasks instead of one long one: on a
 * slow phone, a task over 50 ms is a tap that waits (Total Blocking Time, INP).
 */
export function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
