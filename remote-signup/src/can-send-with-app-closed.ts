// Bundled with this screen, not in the federated contract: a remote built with it must work on a
// host whose contract copy is older (the contract is the host's singleton).

/** What `canSendWithAppClosed` looks at: the page's global scope, or a test's stand-in. */
export interface BackgroundSyncScope {
  readonly ServiceWorkerRegistration?: { readonly prototype: object };
  readonly navigator?: { readonly serviceWorker?: { readonly controller: unknown } };
}

/**
 * Whether a kept sign-up can be sent with every tab of the app closed: only where the engine has
 * Background Sync (Chromium; not Firefox, not WebKit, so no iPhone) and a worker controls this page
 * to be woken. Elsewhere it goes the next time the app is opened with a connection, or while a
 * page of it stays open: what the user is told must say which.
 */
export function canSendWithAppClosed(scope: BackgroundSyncScope = globalThis as BackgroundSyncScope): boolean {
  const registration = scope.ServiceWorkerRegistration;
  return (
    registration !== undefined &&
    'sync' in registration.prototype &&
    Boolean(scope.navigator?.serviceWorker?.controller)
  );
}
