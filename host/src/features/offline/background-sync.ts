/// <reference lib="webworker" />
import { SIGN_UP_OUTBOX_EVENT } from '@special-gift/shared';
import { createHttpClient } from '@special-gift/shared/host';
import { XSRF_COOKIE_NAME } from '@special-gift/shared/xsrf';
import localforage from 'localforage';
import { IONIC_STORAGE_CONFIG } from '../../services/storage/ionic-storage-config';
import { OUTBOX_SYNC_TAG, sendQueuedSignUp, type OutboxMessage } from './sign-up-outbox';

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}
interface CookieStoreLike {
  get(name: string): Promise<{ value: string } | null>;
}

/**
 * Background Sync (Chromium): the browser wakes the worker when the network is back, even with
 * every tab closed, and the worker sends the kept sign-up itself, as the page would: the same
 * storage (localforage's IndexedDB database), the same lock, the same client. The XSRF pair is
 * fetched now: the API sets the cookie on any answer, which the worker reads from the Cookie Store.
 * A `retry` rejects, so the browser tries again later (a few times at most, then the next start).
 */
export function sendOnBackgroundSync(scope: ServiceWorkerGlobalScope, apiBase: () => Promise<string>): void {
  scope.addEventListener('sync', (event) => {
    const sync = event as SyncEvent;
    if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(sendFromWorker(scope, apiBase));
  });
}

async function sendFromWorker(scope: ServiceWorkerGlobalScope, apiBase: () => Promise<string>): Promise<void> {
  const cookieStore = (scope as unknown as { cookieStore?: CookieStoreLike }).cookieStore;
  if (!cookieStore) return; // no way to read the XSRF cookie here: the page sends it on its next start
  const baseUrl = await apiBase();
  await fetch(`${baseUrl}/health`, { credentials: 'same-origin', cache: 'no-store' });
  const token = (await cookieStore.get(XSRF_COOKIE_NAME))?.value;
  if (!token) throw new Error('no XSRF cookie yet'); // the browser tries again later
  const http = createHttpClient({
    baseUrl,
    fetchImpl: (input, init) => fetch(input, init),
    origin: () => scope.location.origin,
    cookies: () => `${XSRF_COOKIE_NAME}=${token}`,
  });
  const storage = localforage.createInstance({ ...IONIC_STORAGE_CONFIG, driver: localforage.INDEXEDDB });
  const state = await sendQueuedSignUp({
    http,
    storage: {
      get: (key) => storage.getItem(key),
      set: (key, value) => storage.setItem(key, value),
      remove: (key) => storage.removeItem(key),
      keys: () => storage.keys(),
      clear: () => storage.clear(),
      driver: () => storage.driver(),
    },
  });
  const message: OutboxMessage = { type: SIGN_UP_OUTBOX_EVENT, state };
  for (const page of await scope.clients.matchAll({ type: 'window' })) page.postMessage(message);
  if (state === 'retry') throw new Error('the sign-up could not be sent yet');
}
