import { showStartupFailure } from '../features/startup/startup-failure';
import type { FederationRuntime } from '../services/remotes/remote-screens';
import { boot } from './bootstrap';

/**
 * Starts the app in `root` with `runtime` loading the screens: the federation runtime in
 * production (main.ts), direct imports in the benchmark's monolith. A failure is logged and
 * shown to the user with a retry that starts again.
 */
export function start(root: HTMLElement, runtime: FederationRuntime): void {
  // index.html preloads config.json, so this usually finds it already on its way.
  const configResponse = fetch('/config.json', { headers: { Accept: 'application/json' } });
  boot(root, configResponse, runtime).catch((error: unknown) => {
    // The old app only logged start-up failures; keep the log and also tell the user.
    console.error('Special Gift failed to start', error);
    showStartupFailure(root, () => start(root, runtime));
  });
}
