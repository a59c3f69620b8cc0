import { useEffect, type RefObject } from 'react';
import type { ShellNavigation } from './create-navigation';
import { finishDurationMs, isCaptured, shouldComplete, smoothVelocity, startsInEdgeZone } from './swipe-back-gesture';

/** iOS (including iPadOS, which reports itself as a Mac with touch). */
export function isIosPlatform(nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> = navigator): boolean {
  return /iPhone|iPad|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1);
}

/**
 * Swipe from the leading edge to go back, as on iOS: on by default on iOS, off elsewhere, and
 * `swipeBackEnabled` in the runtime config overrides both. The page follows the finger; release
 * completes or cancels with Ionic's thresholds.
 */
export function useSwipeBack(
  page: RefObject<HTMLElement | null>,
  navigation: ShellNavigation,
  configured: boolean | undefined,
) {
  const enabled = configured ?? isIosPlatform();

  useEffect(() => {
    if (!enabled) return;
    let start: { x: number; y: number } | null = null;
    let captured = false;
    let deltaX = 0;
    let velocity = 0;
    let last = { x: 0, t: 0 };

    const rtl = () => document.documentElement.dir === 'rtl';
    const forward = (x: number) => (rtl() ? (start?.x ?? 0) - x : x - (start?.x ?? 0));
    const setOffset = (px: number, ms: number) => {
      const el = page.current;
      if (!el) return;
      el.style.transition = ms > 0 ? `transform ${ms}ms cubic-bezier(0.32,0.72,0,1)` : 'none';
      el.style.transform = px === 0 ? '' : `translateX(${rtl() ? -px : px}px)`;
    };

    const onStart = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (!touch || event.touches.length > 1 || !navigation.canGoBack()) return;
      if (!startsInEdgeZone(touch.clientX, window.innerWidth, rtl())) return;
      start = { x: touch.clientX, y: touch.clientY };
      captured = false;
      deltaX = 0;
      velocity = 0;
      last = { x: touch.clientX, t: event.timeStamp };
    };
    const onMove = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (!start || !touch) return;
      const dx = forward(touch.clientX);
      if (!captured) {
        if (!isCaptured(dx, touch.clientY - start.y)) {
          if (Math.abs(touch.clientY - start.y) > 10) start = null; // a vertical scroll, not a swipe
          return;
        }
        captured = true;
        page.current?.classList.add('sg-shell-page--swiping');
      }
      event.preventDefault();
      velocity = smoothVelocity(
        velocity,
        rtl() ? last.x - touch.clientX : touch.clientX - last.x,
        event.timeStamp - last.t,
      );
      last = { x: touch.clientX, t: event.timeStamp };
      deltaX = Math.max(0, dx);
      setOffset(deltaX, 0);
    };
    const onEnd = () => {
      if (!start) return;
      const wasCaptured = captured;
      start = null;
      captured = false;
      if (!wasCaptured) return;
      const width = window.innerWidth;
      const complete = shouldComplete(deltaX, velocity, width);
      const duration = finishDurationMs(deltaX, velocity, width, complete);
      setOffset(complete ? width : 0, duration);
      window.setTimeout(() => {
        page.current?.classList.remove('sg-shell-page--swiping');
        if (complete) {
          navigation.skipNextTransition();
          navigation.back();
        } else {
          setOffset(0, 0);
        }
      }, duration);
    };

    // The browser's own overscroll back-navigation would fire on top of ours.
    const root = document.documentElement;
    const previousOverscroll = root.style.overscrollBehaviorX;
    root.style.overscrollBehaviorX = 'none';
    document.addEventListener('touchstart', onStart, { passive: true });
    document.addEventListener('touchmove', onMove, { passive: false });
    document.addEventListener('touchend', onEnd);
    document.addEventListener('touchcancel', onEnd);
    return () => {
      root.style.overscrollBehaviorX = previousOverscroll;
      document.removeEventListener('touchstart', onStart);
      document.removeEventListener('touchmove', onMove);
      document.removeEventListener('touchend', onEnd);
      document.removeEventListener('touchcancel', onEnd);
    };
  }, [enabled, navigation, page]);
}
