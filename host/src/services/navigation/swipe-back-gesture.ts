/**
 * Ionic's iOS swipe-back numbers (core/src/utils/gesture/swipe-back.ts): the touch must start within
 * 50 px of the leading edge, is captured after 10 px of mostly-horizontal movement (40 degrees at
 * most), and on release completes when flicked faster than 0.2 px/ms or dragged past half the
 * width; any movement back toward the edge cancels.
 */
export const EDGE_ZONE_PX = 50;
export const CAPTURE_THRESHOLD_PX = 10;
export const MAX_ANGLE_DEG = 40;
export const FLICK_VELOCITY_PX_PER_MS = 0.2;
export const MAX_FINISH_MS = 540;

export function startsInEdgeZone(startX: number, viewportWidth: number, rtl: boolean): boolean {
  return rtl ? startX >= viewportWidth - EDGE_ZONE_PX : startX <= EDGE_ZONE_PX;
}

/** Whether a movement of (dx, dy) from the start, toward the page's trailing edge, is captured. */
export function isCaptured(dx: number, dy: number): boolean {
  if (dx < CAPTURE_THRESHOLD_PX) return false;
  const angle = (Math.atan2(Math.abs(dy), dx) * 180) / Math.PI;
  return angle <= MAX_ANGLE_DEG;
}

/** Velocity smoothing as Ionic's gesture recogniser: only from samples 0-100 ms apart. */
export function smoothVelocity(previous: number, dx: number, dtMs: number): number {
  if (dtMs <= 0 || dtMs >= 100) return previous;
  return 0.7 * (dx / dtMs) + 0.3 * previous;
}

export function shouldComplete(deltaX: number, velocity: number, width: number): boolean {
  return velocity >= 0 && (velocity > FLICK_VELOCITY_PX_PER_MS || deltaX > width / 2);
}

/** How long the page takes to finish (or undo) the swipe from where it was released. */
export function finishDurationMs(deltaX: number, velocity: number, width: number, complete: boolean): number {
  const step = Math.min(Math.max(deltaX / width, 0), 1);
  const missing = (complete ? 1 - step : step) * width;
  if (missing <= 5) return 0;
  return Math.min(missing / Math.max(Math.abs(velocity), 0.001), MAX_FINISH_MS);
}
