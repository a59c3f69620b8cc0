import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import introEn from '../../remote-intro/public/assets/i18n/en.json';
import introFr from '../../remote-intro/public/assets/i18n/fr.json';
import signupEn from '../../remote-signup/public/assets/i18n/en.json';
import signupFr from '../../remote-signup/public/assets/i18n/fr.json';
import thankyouFr from '../../remote-thankyou/public/assets/i18n/fr.json';
import { expect, expectConsoleErrors, pageTitle, test, waitForInteractive, waitForPreload } from '../support/fixtures';
import { BUILD_CACHE_PREFIX, CACHE, META_KEY } from '../../host/src/features/offline/cache-names';
import type { OfflineSet } from '../../host/src/features/offline/offline-set';
import { DEVICE_STORAGE, readStored, STORED } from '../support/device-storage';
import { distOf, wwwRoot } from '../support/nginx';
import { buildsInHtml, pageBuilds, publish, release } from '../support/releases';
import { restartHost } from '../support/servers';
import { expectCardTaken, fillSignUp, person } from '../support/sign-up';
import { API_URL, E2E_PORTS, HOST_URL, STATE_DIR } from '../support/topology';
import { restoreSuiteState } from '../support/suite-state';

/**
 * The offline service worker (docs/offline.md) on the suite's production builds and nginx.
 * Playwright's offline mode in Chromium cuts the worker's own requests too, so "offline" here is
 * the phone with no signal: nothing reaches any server.
 */
test.use({ serviceWorkers: 'allow' });
test.describe.configure({ mode: 'serial' });

const SIGNUP_ORIGIN = `http://localhost:${E2E_PORTS.signup}`;

/** The worker's description of the set it keeps (null until one is complete). */
function readSet(page: Page): Promise<OfflineSet | null> {
  return page.evaluate(
    async ({ cacheName, key }) => {
      const response = await (await caches.open(cacheName)).match(key);
      return response ? ((await response.json()) as OfflineSet) : null;
    },
    { cacheName: CACHE.meta, key: META_KEY },
  );
}

/** Waits until the worker controls the page and keeps a whole set with these builds. */
async function offlineReady(page: Page, builds: Record<string, string> = {}): Promise<OfflineSet> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 })
    .toBe(true);
  await expect.poll(async () => (await readSet(page))?.builds, { timeout: 30_000 }).toEqual(builds);
  return (await readSet(page)) as OfflineSet;
}

/** The page's own failures, which no missing network excuses: CSP violations, uncaught errors, integrity. */
const realErrors = (errors: string[]) => errors.filter((error) => /CSP violation|page error|integrity/i.test(error));

/** Offline, the app's calls to the API (the XSRF pair, telemetry) fail as they should, and say so. */
function offlineErrorsExpected(): void {
  expectConsoleErrors('offline: the API cannot be reached, and the browser logs each failed request');
}

test.describe('an offline start after one visit', () => {
  test.use({ locale: 'fr-FR' });

  test('/, /sign-up and /thank-you open with no network, in the user language, and interactive', async ({
    page,
    context,
    consoleErrors,
  }) => {
    offlineErrorsExpected();
    await page.goto('/');
    await waitForPreload(page);
    const set = await offlineReady(page);
    console.log(`offline set kept after one visit: ${set.bytes} bytes`);

    // Only the worker's caches may answer: the browser's HTTP cache still holds the first visit's files.
    await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
    const failed: string[] = [];
    const aborted: string[] = [];
    page.on('requestfailed', (request) => {
      // The API and the page's token (never kept: single use) are meant to be unreachable offline;
      // every file of the app must come from the set. A request the next navigation cut short
      // (the collector, loaded once a page settles, still on its way) is aborted, not missing.
      const { pathname } = new URL(request.url());
      if (request.failure()?.errorText === 'net::ERR_ABORTED') return void aborted.push(request.url());
      if (!request.url().startsWith(API_URL) && !pathname.startsWith('/api/') && pathname !== '/_sg_page_token')
        failed.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`);
    });
    await context.setOffline(true);
    const screens = [
      { route: '/', title: introFr.headline, role: 'heading' as const },
      { route: '/sign-up', title: signupFr.title },
      { route: '/thank-you', title: thankyouFr.title },
    ];
    for (const screen of screens) {
      await page.goto(screen.route);
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
      await waitForInteractive(page);
      if (screen.role) await expect(page.getByRole(screen.role, { name: screen.title })).toBeVisible();
      else await expect(pageTitle(page)).toHaveText(screen.title);
      // The host's own stylesheet (main.<hash>.css: the design tokens) applies offline.
      const toolbarHeight = await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--sg-toolbar-height').trim(),
      );
      expect(toolbarHeight, `host stylesheet on ${screen.route}`).toBe('56px');
    }
    // Between screens, offline too: the preloaded code and texts come from the kept set. So does
    // the collector, awaited here once the page has settled, so no navigation cuts it short.
    const collector = page.waitForResponse((response) => /\/collector\.[0-9a-f]{8}\.js$/.test(response.url()));
    await page.goto('/');
    const collectorResponse = await collector;
    expect(collectorResponse.ok() && collectorResponse.fromServiceWorker(), 'the collector from the kept set').toBe(
      true,
    );
    await page.getByRole('button', { name: introFr.getStarted }).click();
    await expect(pageTitle(page)).toHaveText(signupFr.title);
    expect(realErrors(consoleErrors)).toEqual([]);
    expect(failed).toEqual([]);
    if (aborted.length > 0) console.log(`cut short by a navigation: ${aborted.join(', ')}`);
  });
});

test.describe('releases while a tab is offline', () => {
  let buildA = '';
  let buildB = '';
  const variant = join(STATE_DIR, 'offline-signup-b');

  test.beforeAll(() => {
    // B: A's files with one more text (one nobody shows): other bytes, so another build.
    rmSync(variant, { recursive: true, force: true });
    cpSync(distOf('signup'), variant, { recursive: true });
    const texts = join(variant, 'assets', 'i18n', 'en.json');
    writeFileSync(texts, JSON.stringify({ ...JSON.parse(readFileSync(texts, 'utf8')), offlineE2e: 'B' }));
    buildA = publish('signup', distOf('signup'));
    buildB = publish('signup', variant);
    expect(buildB).not.toBe(buildA);
    release('release', 'signup', buildA, '--reason', 'e2e offline: start from A');
  });

  test.afterAll(async () => {
    rmSync(variant, { recursive: true, force: true });
    await restoreSuiteState();
  });

  /** Every request the page makes to the sign-up remote's origin, and any that failed. */
  function recordSignupRequests(page: Page) {
    const requests: string[] = [];
    const failed: string[] = [];
    page.on('request', (request) => request.url().startsWith(SIGNUP_ORIGIN) && requests.push(request.url()));
    page.on('requestfailed', (request) => request.url().startsWith(SIGNUP_ORIGIN) && failed.push(request.url()));
    return {
      /** Starts a new page load's record. */
      reset: () => {
        requests.length = 0;
        failed.length = 0;
      },
      /** Everything came from one build, `build`, and nothing failed. */
      expectOnly: (build: string) => {
        expect(requests.length).toBeGreaterThan(0);
        expect(requests.filter((url) => !url.includes(`/builds/${build}/`))).toEqual([]);
        expect(failed).toEqual([]);
      },
    };
  }

  /**
   * Until the host's next pages for this browser (its canary bucket: the snapshot is cached a second
   * per bucket) are composed with this build.
   */
  async function untilPagesName(context: BrowserContext, build: string | undefined): Promise<void> {
    const bucket = (await context.cookies(HOST_URL)).find((cookie) => cookie.name === 'sg_bucket')?.value;
    const headers = bucket ? { Cookie: `sg_bucket=${bucket}` } : undefined;
    await expect
      .poll(async () => buildsInHtml(await (await fetch(`${HOST_URL}/sign-up`, { headers })).text()).signup, {
        timeout: 10_000,
      })
      .toBe(build);
  }

  /** Reloads `/sign-up` and waits for it to be usable. */
  async function reload(page: Page): Promise<void> {
    await page.goto('/sign-up');
    await waitForInteractive(page);
    await expect(page.locator('#signup-firstName')).toBeEditable();
  }

  /**
   * With the tab offline, `change` (a release, a rollback) makes the pages name `to`: the tab reloads
   * on `from`, all of it from the kept set; back online, on `to`, all of it, which the worker keeps.
   */
  async function expectSwitchWhileOffline(
    page: Page,
    context: BrowserContext,
    signup: ReturnType<typeof recordSignupRequests>,
    { from, to, change }: { from: string; to: string; change: () => void },
  ): Promise<void> {
    await context.setOffline(true);
    change();
    signup.reset();
    await reload(page);
    expect(await pageBuilds(page)).toEqual({ signup: from });
    signup.expectOnly(from);

    await untilPagesName(context, to);
    await context.setOffline(false);
    signup.reset();
    await reload(page);
    expect(await pageBuilds(page)).toEqual({ signup: to });
    signup.expectOnly(to);
    await waitForPreload(page);
    await offlineReady(page, { signup: to });
  }

  async function buildCaches(page: Page): Promise<string[]> {
    return page.evaluate(
      async (prefix) => (await caches.keys()).filter((name) => name.startsWith(prefix)),
      BUILD_CACHE_PREFIX,
    );
  }

  test('a release and a rollback made offline reach the tab when it is back, each build whole, never mixed; old builds are purged', async ({
    page,
    context,
    consoleErrors,
  }) => {
    test.setTimeout(120_000);
    offlineErrorsExpected();
    const signup = recordSignupRequests(page);
    await reload(page);
    await waitForPreload(page);
    await offlineReady(page, { signup: buildA });

    await expectSwitchWhileOffline(page, context, signup, {
      from: buildA,
      to: buildB,
      change: () => release('release', 'signup', buildB, '--reason', 'e2e offline: B while the tab is offline'),
    });
    await expectSwitchWhileOffline(page, context, signup, {
      from: buildB,
      to: buildA,
      change: () => release('rollback', 'signup', '--reason', 'e2e offline: rollback while the tab is offline'),
    });
    // The set and the one before it are kept: A and B.
    const folder = (build: string) => `sg-build ${SIGNUP_ORIGIN}/builds/${build}/`;
    expect((await buildCaches(page)).sort()).toEqual([folder(buildA), folder(buildB)].sort());

    // Detached (the image's own build): A stays as the previous set's, B is named by no kept set.
    release('detach', 'signup', '--reason', 'e2e offline: purge');
    await untilPagesName(context, undefined);
    await page.goto('/sign-up');
    await waitForPreload(page);
    await offlineReady(page, {});
    await expect.poll(() => buildCaches(page)).toEqual([folder(buildA)]);
    expect(realErrors(consoleErrors)).toEqual([]);
  });
});

test.describe('the worker itself', () => {
  const script = () => join(wwwRoot('host'), 'service-worker.js');

  test('a new version of the worker takes over an open tab, which keeps working, offline too', async ({
    page,
    context,
    consoleErrors,
  }) => {
    offlineErrorsExpected();
    await page.goto('/');
    await waitForPreload(page);
    await offlineReady(page);
    const original = readFileSync(script(), 'utf8');
    try {
      writeFileSync(script(), `${original}\n// e2e: the next version of the worker\n`);
      const replaced = page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true));
            void navigator.serviceWorker.getRegistration().then((registration) => registration?.update());
          }),
      );
      expect(await replaced).toBe(true);
      // The open tab goes on: to the next screen, then a reload with no network, served by the new version.
      await page.getByRole('button', { name: 'Get started' }).click();
      await expect(pageTitle(page)).toHaveText('Sign up');
      await context.setOffline(true);
      await page.reload();
      await waitForInteractive(page);
      await expect(page.locator('#signup-firstName')).toBeEditable();
    } finally {
      writeFileSync(script(), original);
    }
    expect(realErrors(consoleErrors)).toEqual([]);
  });

  test('the kill switch (SERVICE_WORKER=off) removes a broken worker: the page recovers from the network, no registration, no caches', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    expectConsoleErrors('the broken worker answers every request with a 500, and the page is reloaded under the test');
    // A worker that breaks the app and cannot be told anything: every fetch a 500, no message handling.
    // It fills a cache of the app's own names, as the real worker does.
    const broken = [
      "self.addEventListener('install', (event) => { self.skipWaiting();",
      `  event.waitUntil(caches.open('${CACHE.pages}').then((cache) => cache.put('/', new Response('kept')))); });`,
      "self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));",
      "self.addEventListener('fetch', (event) => event.respondWith(new Response('broken', { status: 500 })));",
    ].join('\n');
    try {
      writeFileSync(script(), broken);
      await page.goto('/');
      await expect
        .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 })
        .toBe(true);
      const response = await page.reload();
      expect(response?.status()).toBe(500);
      await expect(page.locator('body')).toHaveText('broken');

      await restartHost({ SERVICE_WORKER: 'off' });
      const served = await fetch(`${HOST_URL}/service-worker.js`);
      expect(served.headers.get('cache-control')).toBe('no-store');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(
        readFileSync(join(wwwRoot('host'), 'service-worker-off.js')),
      );
      // The next navigation is answered by the broken worker, but the browser checks its script
      // (uncached) too, gets the kill switch's, which deletes the caches, unregisters and reloads.
      await page.reload().catch(() => undefined);
      const state = () =>
        page
          .evaluate(async () => ({
            registrations: (await navigator.serviceWorker.getRegistrations()).length,
            caches: (await caches.keys()).filter((name) => name.startsWith('sg-')),
            controlled: navigator.serviceWorker.controller !== null,
          }))
          .catch(() => null); // the kill switch reloads the page under us: ask again
      // Chromium may put its update check off when the machine is busy (a core kept busy: the
      // broken worker still answered 30 s on): a visitor's later navigation then makes it. So,
      // while the broken worker still answers, navigate again every 5 s; the count is printed.
      let navigations = 1;
      let lastNavigation = Date.now();
      await expect
        .poll(
          async () => {
            const now = await state();
            if (now && now.registrations > 0 && Date.now() - lastNavigation > 5_000) {
              navigations += 1;
              lastNavigation = Date.now();
              await page.reload().catch(() => undefined);
            }
            return now && { registrations: now.registrations, caches: now.caches };
          },
          { timeout: 30_000 },
        )
        .toEqual({ registrations: 0, caches: [] });
      console.log(`kill switch: the broken worker gone after ${navigations} navigation(s)`);
      await waitForInteractive(page);
      await expect(page.getByRole('heading', { name: introEn.headline })).toBeVisible();
      // A page whose load was under way as the switch took over can stay controlled by the retired
      // worker until it navigates (once, with a core kept busy): that worker has no fetch handler,
      // so all the page asks comes from the network (the intro above, not "broken"). The next
      // navigation has no worker at all.
      await page.reload();
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(false);
      await expect(page.getByRole('heading', { name: introEn.headline })).toBeVisible();
    } finally {
      await restartHost({});
    }
  });
});

test('Background Sync (Chromium): a sign-up kept offline is sent by the worker, with every tab of the app closed', async ({
  page,
  context,
  request,
}) => {
  offlineErrorsExpected();
  const who = person({ firstName: 'Yanis' });
  await page.goto('/sign-up');
  await waitForPreload(page);
  await offlineReady(page);
  // The browser's own wake-up, through the DevTools protocol: Playwright's online switch sends none.
  const blank = await context.newPage();
  const devtools = await context.newCDPSession(blank);
  const registrations: string[] = [];
  devtools.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) =>
    registrations.push(...updated.filter((one) => !one.isDeleted).map((one) => one.registrationId)),
  );
  await devtools.send('ServiceWorker.enable');
  await expect.poll(() => registrations.length).toBeGreaterThan(0);
  await fillSignUp(page, who);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  // A worker controls the page and Chromium has Background Sync: "you can close this page" is true.
  await expect(page.getByRole('status').filter({ hasText: signupEn.queue.title })).toContainText(
    signupEn.queue.message,
  );
  await page.close();
  await context.setOffline(false);
  await devtools.send('ServiceWorker.dispatchSyncEvent', {
    origin: HOST_URL,
    registrationId: registrations[0] ?? '',
    tag: 'sg-sign-up-outbox',
    lastChance: false,
  });
  // Read where the app keeps it, from a page of the host's origin that runs none of the app's code.
  await blank.goto('/build-info.json');
  const stored = (key: string) => blank.evaluate(readStored, { ...DEVICE_STORAGE, key });
  await expect.poll(() => stored(STORED.result), { timeout: 20_000 }).toMatchObject({ firstName: 'Yanis' });
  expect(await stored(STORED.outbox)).toBeNull(); // deleted once acknowledged
  await expectCardTaken(request, who);
});
