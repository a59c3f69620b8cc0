import introEn from '../../remote-intro/public/assets/i18n/en.json';
import signupEn from '../../remote-signup/public/assets/i18n/en.json';
import thankyouEn from '../../remote-thankyou/public/assets/i18n/en.json';
import type { Driver } from '../support/engines/driver';
import { expect, test } from '../support/engines/fixtures';
import {
  attempt,
  fillSignUp,
  until,
  untilInteractive,
  untilPreloaded,
  untilText,
  untilTitle,
} from '../support/engines/page';
import { restartHost, startApp, stopApp } from '../support/servers';
import { DEVICE_STORAGE, readStored, STORED } from '../support/device-storage';
import { expectCardTaken, person, type Person } from '../support/sign-up';
import type { AppName } from '../support/topology';

/**
 * The offline start in each engine (docs/offline.md, "By engine"). Playwright's offline switch is
 * Chromium's alone, so here the network is cut the honest way, for every engine alike: the
 * servers of every origin the app uses (host, remotes, API) are stopped. The kill switch restarts
 * the host's server with the operator's setting, as a redeploy does.
 */
const ORIGINS: readonly AppName[] = ['host', 'intro', 'signup', 'thankyou', 'api'];

/** What the engine offers the app here, under automation (a normal profile in Firefox). */
const support = (driver: Driver) =>
  driver.evaluate(() => ({
    serviceWorker: 'serviceWorker' in navigator,
    backgroundSync: typeof ServiceWorkerRegistration !== 'undefined' && 'sync' in ServiceWorkerRegistration.prototype,
  }));

/** The worker controls the page and keeps a whole set (its description is written last). */
const untilOfflineReady = (driver: Driver) =>
  expect
    .poll(
      () =>
        attempt(
          driver,
          async () => {
            if (!navigator.serviceWorker?.controller) return false;
            return (await (await caches.open('sg-meta')).match('/__sg/offline-set')) !== undefined;
          },
          undefined,
          false,
        ),
      { message: `${driver.engine}: the worker keeps a whole set`, timeout: 30_000, intervals: [250, 500, 1_000] },
    )
    .toBe(true);

/** With every origin stopped: nothing the app needs can come from a server. */
async function withOriginsStopped(run: () => Promise<void>): Promise<void> {
  for (const app of ORIGINS) await stopApp(app);
  try {
    await run();
  } finally {
    for (const app of ORIGINS) await startApp(app);
  }
}

/**
 * Fills the form with the origins up and the worker's set kept, then submits it with every origin
 * stopped: kept, and the user told. `whileStopped` runs before they start again.
 */
async function submitWithOriginsStopped(driver: Driver, who: Person, whileStopped: () => Promise<void>) {
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  await untilOfflineReady(driver);
  await fillSignUp(driver, who);
  await withOriginsStopped(async () => {
    await driver.click('.signup__submit');
    await untilText(driver, '.signup__queued-title', signupEn.queue.title);
    await whileStopped();
  });
}

/** The host's own stylesheet (the design tokens) applies: it came from the set too. */
const hostStylesApplied = () =>
  getComputedStyle(document.documentElement).getPropertyValue('--sg-toolbar-height').trim() === '56px';

test('after one visit, /sign-up, / and /thank-you open with every origin stopped, interactive', async ({ driver }) => {
  test.setTimeout(90_000);
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  const offers = await support(driver);
  // What each engine has (docs/browsers.md): Background Sync is Chromium's alone.
  expect(offers).toEqual({ serviceWorker: true, backgroundSync: driver.engine === 'chromium' });
  await untilOfflineReady(driver);

  await withOriginsStopped(async () => {
    await driver.reload();
    await untilTitle(driver, signupEn.title);
    // Answered by the worker, not by some cache of the browser's own.
    expect(await driver.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await untilInteractive(driver);
    await until(driver, 'the host stylesheet', hostStylesApplied);
    await until(
      driver,
      'the form usable',
      () => document.querySelector<HTMLButtonElement>('.signup__submit')?.disabled === false,
    );
    await driver.goto('/');
    await untilText(driver, '#intro-headline', introEn.headline);
    await untilInteractive(driver);
    await driver.goto('/thank-you');
    await untilTitle(driver, thankyouEn.title);
    await untilInteractive(driver);
    await until(driver, 'the host stylesheet', hostStylesApplied);
  });
});

test('a sign-up submitted with every origin stopped is kept, the user told what is true here, and sent once they are back, the page open', async ({
  driver,
  request,
}) => {
  test.setTimeout(90_000);
  const who = person({ firstName: 'Zoé' });
  await submitWithOriginsStopped(driver, who, async () => {
    // The device is online, its servers stopped: our service could not be reached (issue 40), in every engine.
    expect(await driver.evaluate(() => document.querySelector('.signup__queued p')?.textContent)).toBe(
      signupEn.queue.unreachable,
    );
  });
  // The origins are back: told as the network returning is (the page's retries, 2 s, 10 s, 60 s,
  // may be past this test's wait after a slow restart).
  await driver.evaluate(() => void window.dispatchEvent(new Event('online')));
  await until(
    driver,
    'thanked once sent',
    (name) => document.querySelector('.thankyou__headline')?.textContent === `Thank you, ${name}!`,
    who.firstName,
    30_000,
  );
  await expectCardTaken(request, who);
});

test('a sign-up kept with every origin stopped, the app then left: sent at its next start once they are back, stored once', async ({
  driver,
  request,
}) => {
  test.setTimeout(90_000);
  const who = person({ firstName: 'Maël' });
  await submitWithOriginsStopped(driver, who, async () => {
    // The user leaves while nothing answers: no page of the app is open when the servers return.
    // (Left, not closed: the driver's page is its own context, whose storage a close would take.)
    await driver.goto('about:blank');
  });
  // The servers are back and no page of the app runs: it is still kept, unsent. Read from a file of
  // the host's origin that runs none of the app's code.
  await driver.goto('/favicon.svg');
  expect(await driver.evaluate(readStored, { ...DEVICE_STORAGE, key: STORED.outbox })).toMatchObject({
    state: 'queued',
  });

  await driver.goto('/');
  await expect
    .poll(() => attempt(driver, readStored, { ...DEVICE_STORAGE, key: STORED.outbox }, 'unreadable'), {
      message: `${driver.engine}: sent at the start, then deleted from the device`,
      timeout: 20_000,
    })
    .toBeNull();
  await expectCardTaken(request, who);
  await driver.goto('/thank-you');
  await untilText(driver, '.thankyou__headline', `Thank you, ${who.firstName}!`);
});

test('the kill switch (SERVICE_WORKER=off on the host): at the next navigation the worker and its caches are gone, the page from the network', async ({
  driver,
}) => {
  test.setTimeout(90_000);
  await driver.goto('/');
  await untilPreloaded(driver);
  await untilOfflineReady(driver);
  try {
    await restartHost({ SERVICE_WORKER: 'off' });
    // The worker answers this navigation, and the browser checks its script (served uncached): it
    // gets the kill switch's, which deletes the caches, unregisters and reloads the page (which may
    // cut this load short: what counts is checked below).
    await driver.reload().catch(() => undefined);
    await expect
      .poll(
        () =>
          attempt(
            driver,
            async () => ({
              registrations: (await navigator.serviceWorker.getRegistrations()).length,
              caches: (await caches.keys()).filter((name) => name.startsWith('sg-')),
            }),
            undefined,
            null, // reloaded under us: ask again
          ),
        { message: `${driver.engine}: no worker, no caches`, timeout: 30_000, intervals: [250, 500, 1_000] },
      )
      .toEqual({ registrations: 0, caches: [] });
    await untilInteractive(driver);
    await untilText(driver, '#intro-headline', introEn.headline);
    // A page whose load was under way as the switch took over can stay controlled by the retired
    // worker until it navigates; that worker has no fetch handler (all comes from the network, the
    // intro above). The next navigation has no worker at all.
    await driver.reload();
    await until(driver, 'no worker after the next navigation', () => navigator.serviceWorker.controller === null);
    await untilText(driver, '#intro-headline', introEn.headline);
  } finally {
    await restartHost({});
  }
});
