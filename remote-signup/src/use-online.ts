import { useSyncExternalStore } from 'react';

// Bundled with this screen, not in the federated contract: it works on any host.

/**
 * Whether the browser says the device has a network (`navigator.onLine`). `false` is sure: no
 * network. `true` says only that one is up, not that our service answers: a request that got no
 * answer then means the service could not be reached, not that the phone is offline.
 */
export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** {@link isOnline}, followed as the device goes offline and back (prerendered: online). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
