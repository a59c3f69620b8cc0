import type { Navigation, NavigationDirection, ShellLocation } from '@special-gift/shared';
import type { createBrowserRouter } from 'react-router-dom';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Kept in each history entry: how many in-app entries lie behind it since the last root. */
interface EntryState {
  readonly depth: number;
}

function depthOf(state: unknown): number {
  const depth = (state as Partial<EntryState> | null)?.depth;
  return typeof depth === 'number' && depth >= 0 ? depth : 0;
}

/** React Router keeps its own index of the history entry in `history.state.idx`. */
function historyIndex(): number {
  const idx = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : 0;
}

export interface ShellNavigation extends Navigation {
  /** How the current page was reached, for its enter transition. */
  direction(): NavigationDirection;
  /** The next page change is not animated (a swipe-back gesture has already shown the motion). */
  skipNextTransition(): void;
}

/**
 * Ionic-style forward/back/root navigation over the data router. The in-app depth lives in each
 * history entry's state, so browser back/forward and reloads restore `canGoBack()` correctly, and
 * a deep link (no state) starts at depth 0.
 */
export function createNavigation(router: AppRouter): ShellNavigation {
  const listeners = new Set<() => void>();
  let requested: NavigationDirection | null = null;
  let skipTransition = false;
  let direction: NavigationDirection = 'root';
  let lastIndex = historyIndex();
  let currentLocation = router.state.location;
  let snapshot: ShellLocation = toShellLocation(router.state.location);

  router.subscribe((state) => {
    // The router also notifies for loading states; only a new location object is a navigation.
    // (Keys do not tell: entries pushed outside the router all have the key "default".)
    if (state.location === currentLocation) return;
    const index = historyIndex();
    // Browser back/forward arrive as POP: the history index tells which way the user went.
    direction = state.historyAction === 'POP' ? (index < lastIndex ? 'back' : 'forward') : (requested ?? 'forward');
    if (skipTransition) direction = 'root';
    requested = null;
    skipTransition = false;
    lastIndex = index;
    currentLocation = state.location;
    snapshot = toShellLocation(state.location);
    listeners.forEach((listener) => listener());
  });

  const depth = () => depthOf(router.state.location.state);
  const go = (to: string, dir: NavigationDirection, options: { replace?: boolean; depth: number }) => {
    requested = dir;
    // flushSync: render the next screen in this task, not as a transition React may postpone. A
    // preloaded screen then shows in the next frame (the warm-path figure in docs/performance.md);
    // one still loading shows its loading state at once instead.
    void router.navigate(to, {
      replace: options.replace ?? false,
      state: { depth: options.depth } satisfies EntryState,
      flushSync: true,
    });
  };

  return {
    forward(to) {
      if (to === snapshot.pathname + snapshot.search) return;
      go(to, 'forward', { depth: depth() + 1 });
    },
    back(defaultHref) {
      if (depth() > 0) {
        requested = 'back';
        void router.navigate(-1);
      } else if (defaultHref !== undefined) {
        // As Ionic's navigateBack to a page not in the stack: it becomes the new root.
        go(defaultHref, 'back', { depth: 0 });
      }
    },
    root(to) {
      go(to, 'root', { replace: true, depth: 0 });
    },
    canGoBack: () => depth() > 0,
    location: () => snapshot,
    direction: () => direction,
    skipNextTransition() {
      skipTransition = true;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function toShellLocation(location: { pathname: string; search: string; hash: string }): ShellLocation {
  return { pathname: location.pathname, search: location.search, hash: location.hash };
}
