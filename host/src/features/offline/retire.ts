/// <reference lib="webworker" />
import { isOwnCache } from './offline-set';

/**
 * The kill switch's work, in whichever worker runs it (docs/offline.md): deletes this app's caches,
 * unregisters, and loads every open page again, now from the network with no worker. The sign-up
 * queue is the page's (IndexedDB), not a cache: it stays.
 */
export async function retire(scope: ServiceWorkerGlobalScope): Promise<void> {
  await Promise.all((await scope.caches.keys()).filter(isOwnCache).map((name) => scope.caches.delete(name)));
  await scope.registration.unregister();
  // Controlled pages only can be navigated: claim them first (a new worker controls none yet).
  await scope.clients.claim();
  const pages = await scope.clients.matchAll({ type: 'window' });
  await Promise.all(pages.map((page) => page.navigate(page.url).catch(() => null)));
}
