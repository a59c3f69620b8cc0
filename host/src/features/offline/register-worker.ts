import { whenUserQuiet } from '../../services/scheduling/timing';
import { REFRESH_SET_MESSAGE, SERVICE_WORKER_URL } from './offline-set';

/**
 * How long the user leaves the page alone before the first visit's set is downloaded (about 1 MB,
 * every file of the builds the pages name): on a phone, those downloads and cache writes in the
 * worker slowed the first taps after the preload (lab INP, docs/performance.md).
 */
export const SET_DOWNLOAD_QUIET_MS = 2000;

/**
 * Registers the offline worker (docs/offline.md), or with the kill switch on (`enabled` false)
 * unregisters any this origin has. Called once the first screen is up and the other screens are
 * preloaded: the worker's script and the set it keeps never compete with the first screen.
 * `updateViaCache: 'none'`: the browser asks the server for the script on every check.
 */
export async function startServiceWorker(
  enabled: boolean,
  container: ServiceWorkerContainer | undefined = navigator.serviceWorker,
): Promise<void> {
  if (!container) return; // no service workers here (an insecure origin, an old engine): online only
  try {
    if (enabled) {
      const firstVisit = container.controller === null;
      await container.register(SERVICE_WORKER_URL, { scope: '/', updateViaCache: 'none' });
      // A page that came through the worker had it keep the set already; this one did not.
      // (Not awaited: the page's own work never waits for the worker.)
      if (firstVisit)
        void container.ready.then((registration) =>
          whenUserQuiet(() => registration.active?.postMessage({ type: REFRESH_SET_MESSAGE }), SET_DOWNLOAD_QUIET_MS),
        );
    } else await Promise.all((await container.getRegistrations()).map((registration) => registration.unregister()));
  } catch (error) {
    // Refused (private mode, storage full, a test that blocks workers): the app works online as before.
    console.warn('[offline] service worker not registered', error);
  }
}
