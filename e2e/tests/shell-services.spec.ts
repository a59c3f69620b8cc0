import { devices, type Page } from '@playwright/test';
import { E2E_PORTS } from '../support/topology';
import {
  expect,
  expectConsoleErrors,
  pageTitle,
  test,
  waitForPreload,
  useBrowserLanguage,
  waitForInteractive,
} from '../support/fixtures';

test.describe('i18n', () => {
  test('each remote’s texts come from its own origin, in the current language', async ({ page }) => {
    const i18nFiles: string[] = [];
    page.on(
      'request',
      (request) =>
        request.url().includes('/assets/i18n/') &&
        i18nFiles.push(new URL(request.url()).host + new URL(request.url()).pathname),
    );
    await page.goto('/');
    await waitForPreload(page);
    for (const port of [E2E_PORTS.host, E2E_PORTS.intro, E2E_PORTS.signup, E2E_PORTS.thankyou]) {
      expect(i18nFiles).toContain(`localhost:${port}/assets/i18n/en.json`);
    }
  });

  test.describe('in a French browser', () => {
    useBrowserLanguage('fr-FR');

    test('a missing translation file falls back to English, never to raw keys', async ({ page }) => {
      expectConsoleErrors('a translation file answers 404');
      await page.route(`http://localhost:${E2E_PORTS.intro}/assets/i18n/fr.json`, (route) =>
        route.fulfill({ status: 404, body: 'missing' }),
      );
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
      await expect(page.getByRole('heading', { name: 'A gift card that feels special' })).toBeVisible();
      await expect(page.locator('body')).not.toContainText('benefits.');
    });
  });

  test.describe('in an Arabic browser', () => {
    useBrowserLanguage('ar-EG');

    test('the browser language is used when nothing is stored; Arabic mirrors the layout', async ({ page }) => {
      await page.goto('/sign-up');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      const back = await page.getByRole('button', { name: 'رجوع' }).boundingBox();
      const viewport = page.viewportSize();
      // The back button sits at the inline start: the right edge in RTL.
      expect(back && viewport && back.x > viewport.width / 2).toBe(true);
    });
  });
});

test.describe('storage', () => {
  test('reads a draft the old Ionic app stored in IndexedDB (_ionicstorage/_ionickv, structured clone)', async ({
    page,
  }) => {
    // A blank page on the app's origin, so the fixture writes where the app will read, before it runs.
    await page.route('**/ionic-fixture', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>fixture</title><link rel="icon" href="data:,">',
      }),
    );
    await page.goto('/ionic-fixture');
    await page.evaluate(async () => {
      // What @ionic/storage (localforage, asyncStorage driver) leaves behind: DB v2, two stores.
      const open = (version?: number) =>
        new Promise<IDBDatabase>((resolve, reject) => {
          const request = version ? indexedDB.open('_ionicstorage', version) : indexedDB.open('_ionicstorage');
          request.onupgradeneeded = () => {
            const db = request.result;
            if (!db.objectStoreNames.contains('_ionickv')) db.createObjectStore('_ionickv');
            if (!db.objectStoreNames.contains('local-forage-detect-blob-support'))
              db.createObjectStore('local-forage-detect-blob-support');
          };
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const db = await open(2);
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('_ionickv', 'readwrite');
        tx.objectStore('_ionickv').put(
          {
            values: {
              firstName: 'Legacy',
              lastName: 'User',
              email: 'legacy@example.com',
              phone: '',
              cardCode: '',
              acceptedTerms: false,
            },
          },
          'signUp.draft',
        );
        tx.objectStore('_ionickv').put('fr', 'language');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    });
    await page.goto('/sign-up');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.locator('#signup-firstName')).toHaveValue('Legacy');
    await expect(page.locator('#signup-email')).toHaveValue('legacy@example.com');
  });

  test('without IndexedDB it falls back to localStorage with Ionic’s key layout', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(window, 'indexedDB', { value: undefined });
      if (!localStorage.getItem('_ionicstorage/_ionickv/language'))
        localStorage.setItem('_ionicstorage/_ionickv/language', '"ar"');
    });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await page.getByRole('button', { name: /اللغة/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(await page.evaluate(() => localStorage.getItem('_ionicstorage/_ionickv/language'))).toBe('"en"');
  });

  test('with no working storage at all the app still works (memory)', async ({ page }) => {
    expectConsoleErrors('storage is blocked on purpose');
    await page.addInitScript(() => {
      Object.defineProperty(window, 'indexedDB', { value: undefined });
      Object.defineProperty(window, 'localStorage', {
        get: () => {
          throw new DOMException('blocked', 'SecurityError');
        },
      });
    });
    await page.goto('/');
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(pageTitle(page)).toHaveText('Sign up');
  });
});

test.describe('navigation and back', () => {
  test('forward and back slide, browser back too; the back button falls back to defaultHref', async ({ page }) => {
    await page.goto('/');
    const shellPage = page.getByTestId('shell-page');
    await expect(shellPage).toHaveClass(/sg-shell-page--root/);
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(shellPage).toHaveClass(/sg-shell-page--forward/);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(pageTitle(page)).toHaveText('Special Gift');
    await expect(shellPage).toHaveClass(/sg-shell-page--back/);
    await page.goForward();
    await expect(shellPage).toHaveClass(/sg-shell-page--forward/);
    await page.goBack();
    await expect(shellPage).toHaveClass(/sg-shell-page--back/);

    // A deep link has nothing in-app behind it: Back goes to defaultHref ("/") with a back transition.
    await page.goto('/sign-up');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(pageTitle(page)).toHaveText('Special Gift');
    await expect(shellPage).toHaveClass(/sg-shell-page--back/);
  });

  test('transitions respect prefers-reduced-motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await waitForInteractive(page);
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(page).toHaveURL(/\/sign-up$/);
    const animation = await page.getByTestId('shell-page').evaluate((el) => getComputedStyle(el).animationName);
    expect(animation).toBe('none');
  });

  test('focus moves to the new page’s title after a navigation', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(pageTitle(page)).toBeFocused();
  });
});

test.describe('swipe back (iOS)', () => {
  // The iPhone's user agent, viewport and touch; the engine stays Chromium.
  const { defaultBrowserType: _engine, ...iPhone } = devices['iPhone 13'];
  test.use(iPhone);
  // No field telemetry from this Chromium in an iPhone's user agent: the report would count its
  // vitals (INP among them) as WebKit's, and the cross-engine suite checks that WebKit's row lacks
  // what WebKit does not measure. Under Global Privacy Control the collector does not run.
  test.beforeEach(({ context }) =>
    context.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    ),
  );

  /**
   * A real touch drag through the DevTools protocol. Event timestamps are set explicitly, `stepMs`
   * apart, so the gesture's velocity does not depend on how busy the machine is.
   * `releaseX` adds a last move just before lifting the finger.
   */
  async function swipe(page: Page, fromX: number, toX: number, steps: number, stepMs: number, releaseX?: number) {
    const cdp = await page.context().newCDPSession(page);
    const y = 400;
    let t = Date.now() / 1000;
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x?: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: x === undefined ? [] : [{ x, y }], timestamp: t });
    await touch('touchStart', fromX);
    for (let i = 1; i <= steps; i++) {
      t += stepMs / 1000;
      await touch('touchMove', fromX + ((toX - fromX) * i) / steps);
    }
    if (releaseX !== undefined) {
      t += stepMs / 1000;
      await touch('touchMove', releaseX);
    }
    t += stepMs / 1000;
    await touch('touchEnd');
  }

  test('a drag from the left edge past half the width goes back; a short slow drag cancels', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(pageTitle(page)).toHaveText('Sign up');

    await swipe(page, 10, 80, 10, 60); // short and slow: cancels
    await page.waitForTimeout(700);
    await expect(pageTitle(page)).toHaveText('Sign up');

    await swipe(page, 10, 300, 10, 40, 240); // past half the width, but moving back at release: cancels
    await page.waitForTimeout(700);
    await expect(pageTitle(page)).toHaveText('Sign up');

    await swipe(page, 120, 360, 10, 40); // not from the edge: ignored
    await page.waitForTimeout(700);
    await expect(pageTitle(page)).toHaveText('Sign up');

    await swipe(page, 8, 300, 12, 40); // past half the width: completes
    await expect(pageTitle(page)).toHaveText('Special Gift');
  });

  test('a quick flick from the edge completes at any distance', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(pageTitle(page)).toHaveText('Sign up');
    await swipe(page, 5, 150, 5, 8);
    await expect(pageTitle(page)).toHaveText('Special Gift');
  });
});

test.describe('overlays', () => {
  test('modal: labelled dialog, focus moved in and trapped by the platform, Escape closes and restores focus', async ({
    page,
  }) => {
    await page.goto('/sign-up');
    const opener = page.getByRole('button', { name: 'terms and conditions' });
    await opener.click();
    const modal = page.getByRole('dialog', { name: 'Terms and conditions' });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Close' })).toBeFocused();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
    expect(await modal.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('modal result: "I agree" ticks the consent box', async ({ page }) => {
    await page.goto('/sign-up');
    await page.getByRole('button', { name: 'terms and conditions' }).click();
    await page.getByRole('button', { name: 'I agree' }).click();
    await expect(page.locator('#signup-acceptedTerms')).toBeChecked();
  });

  test('popover anchored to its button; backdrop tap dismisses', async ({ page }) => {
    await page.goto('/sign-up');
    const link = page.getByRole('button', { name: 'Where is my card code?' });
    await link.click();
    const popover = page.getByRole('dialog', { name: 'Where is my card code?' });
    await expect(popover).toContainText('16-digit code');
    const anchor = await link.boundingBox();
    const box = await popover.boundingBox();
    // Next to its button: just below it, or just above when there is no room below.
    const gapBelow = anchor && box ? box.y - (anchor.y + anchor.height) : NaN;
    const gapAbove = anchor && box ? anchor.y - (box.y + box.height) : NaN;
    expect(Math.min(Math.abs(gapBelow), Math.abs(gapAbove))).toBeLessThan(24);
    await page.mouse.click(5, 5);
    await expect(popover).toBeHidden();
  });

  test('action sheet: cancel resolves with the cancel role and changes nothing', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: /Language/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Choose your language' });
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await expect(sheet).toBeHidden();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('alert stacks above the page and a toast is announced politely above it', async ({ page }) => {
    await page.goto('/sign-up');
    await waitForPreload(page); // the form's code is there: what is typed is saved as a draft
    await page.getByLabel('First name').fill('Toast');
    await page.waitForTimeout(500);
    await page.reload(); // draft restored → toast
    const toast = page.getByRole('status').filter({ hasText: 'We restored what you entered earlier.' });
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute('aria-live', 'polite');
    await expect(toast).toBeHidden({ timeout: 8000 }); // dismissed after its duration
  });
});
