import type { Navigation, ShellLocation } from '../contract/navigation';

/**
 * Navigation for a remote running alone: the URL changes as in the app, but only this screen
 * exists, so the team sees where the screen navigates (logged) without the host's router.
 */
export function createDevNavigation(): Navigation {
  const listeners = new Set<() => void>();
  let depth = 0;
  const read = (): ShellLocation => ({ pathname: location.pathname, search: location.search, hash: location.hash });
  let snapshot = read();
  const update = () => {
    snapshot = read();
    listeners.forEach((listener) => listener());
  };
  window.addEventListener('popstate', () => {
    depth = Math.max(0, depth - 1);
    update();
  });
  const go = (to: string, how: string, replace: boolean) => {
    console.info(`[dev shell] navigate ${how} → ${to}`);
    if (replace) history.replaceState(null, '', to);
    else history.pushState(null, '', to);
    update();
  };
  return {
    forward: (to) => {
      depth += 1;
      go(to, 'forward', false);
    },
    back: (defaultHref) => {
      if (depth > 0) history.back();
      else if (defaultHref !== undefined) go(defaultHref, 'back', false);
    },
    root: (to) => {
      depth = 0;
      go(to, 'root', true);
    },
    canGoBack: () => depth > 0,
    location: () => snapshot,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
