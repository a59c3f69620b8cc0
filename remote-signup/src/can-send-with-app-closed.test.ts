import { canSendWithAppClosed } from './can-send-with-app-closed';

describe('whether a kept sign-up can go with the app closed (Background Sync)', () => {
  const withSync = { prototype: { sync: null } };
  const withoutSync = { prototype: {} };
  const controlled = { serviceWorker: { controller: {} } };

  it('can in an engine with Background Sync, on a page a worker controls (Chromium)', () => {
    expect(canSendWithAppClosed({ ServiceWorkerRegistration: withSync, navigator: controlled })).toBe(true);
  });

  it('cannot without Background Sync (Firefox, WebKit and so every iPhone browser)', () => {
    expect(canSendWithAppClosed({ ServiceWorkerRegistration: withoutSync, navigator: controlled })).toBe(false);
  });

  it('cannot with no worker controlling the page (workers refused, the kill switch on) or none at all', () => {
    expect(
      canSendWithAppClosed({ ServiceWorkerRegistration: withSync, navigator: { serviceWorker: { controller: null } } }),
    ).toBe(false);
    expect(canSendWithAppClosed({ navigator: {} })).toBe(false);
  });

  it('reads the page itself by default (jsdom has no service workers)', () => {
    expect(canSendWithAppClosed()).toBe(false);
  });
});
