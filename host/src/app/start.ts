import { showStartupFailure } from '../features/startup/startup-failure';
import type { FederationRuntime } from '../services/remotes/remote-screens';
import { yieldToBrowser } from '../services/scheduling/timing';

/**
 * Starts the app in `root` with `runtime` loading the screens: the federation runtime in
 * production (main.ts), direct imports in the benchmark's monolith. A failure is logged and
 * shown to the user with a retry that starts again.
 */
export function start(root: HTMLElement, runtime: FederationRuntime): void {
  // index.html preloads config.json, so this usually finds it already on its way.
  const configResponse = fetch('/config.json', { headers: { Accept: 'application/json' } });
  configResponse.catch(() => undefined); // a network failure is reported by boot, which awaits it
  loadBoot()
    .then((boot) => boot(root, configResponse, runtime))
    .catch((error: unknown) => {
      // The old app only logged start-up failures; keep the log and also tell the user.
      console.error('Special Gift failed to start', error);
      showStartupFailure(root, () => start(root, runtime));
    });
}

/**
 * The shell's code is evaluated in tasks after the one that evaluated the bundle: React DOM in one,
 * the rest of the shell (router, i18n, the screens' frame) in the next (storage follows in
 * bootstrap). On a slow phone, evaluating all of it at once is one long task that holds the
 * prerendered screen's first taps. Same bundle, no request.
 */
async function loadBoot() {
  await yieldToBrowser();
  // React DOM, the largest library, first and alone; then the rest of the shell.
  await import(/* webpackMode: "eager" */ 'react-dom/client');
  await yieldToBrowser();
  return (await import(/* webpackMode: "eager" */ './bootstrap')).boot;
}
