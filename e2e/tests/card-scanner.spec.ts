import AxeBuilder from '@axe-core/playwright';
import { devices, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import { cameraTracks, launchWithFakeCamera, recordCameraStreams, writeQrVideo } from '../support/fake-camera';
import { expect, pageTitle, test, waitForPreload } from '../support/fixtures';
import { newCardCode } from '../support/sign-up';
import { E2E_PORTS, HOST_URL } from '../support/topology';

// The e2e host's config (tooling/serve/local-topology.ts).
const CARD_SCAN_BASE = 'https://www.special-gift.example/scan';
const SIGNUP_ORIGIN = `http://localhost:${E2E_PORTS.signup}`;
const SCANNER_CHUNK = /\/(card-scanner|qr-decoder)\.[0-9a-f]+\.(js|css)$/;

const { defaultBrowserType: _, ...pixel7 } = devices['Pixel 7'];

interface Opened {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors, page errors and CSP violations. */
  readonly errors: string[];
}

/** A phone-sized page of `browser` that records camera streams and every console error or CSP violation. */
async function openPage(
  browser: Browser,
  options: { language?: 'en' | 'ar'; bypassCSP?: boolean } = {},
): Promise<Opened> {
  // The language on the context: navigator.languages and Accept-Language agree (see useBrowserLanguage).
  const context = await browser.newContext({
    ...pixel7,
    baseURL: HOST_URL,
    bypassCSP: options.bypassCSP ?? false,
    locale: options.language,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`),
    ),
  );
  await page.addInitScript(recordCameraStreams);
  // When the preview has its first frame (the scanner may read it before the video plays): the QR
  // code is in view from then on.
  await page.addInitScript(() =>
    document.addEventListener(
      'loadeddata',
      () => ((window as unknown as { __inViewAt?: number }).__inViewAt ??= performance.now()),
      { capture: true },
    ),
  );
  return { context, page, errors };
}

const scanButton = (page: Page) => page.locator('.signup__scan button');
const cardField = (page: Page) => page.locator('#signup-cardCode');
const scanner = (page: Page) => page.getByRole('dialog');

async function expectNoAxeViolations(page: Page, what: string, include?: string) {
  const builder = new AxeBuilder({ page });
  const results = await (include ? builder.include(include) : builder).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe violations on ${what}`,
  ).toEqual([]);
}

async function expectCameraReleased(page: Page, opened: { atLeast: number }) {
  await expect.poll(() => page.evaluate(cameraTracks)).toEqual({ streams: expect.any(Number), live: 0 });
  expect((await page.evaluate(cameraTracks)).streams).toBeGreaterThanOrEqual(opened.atLeast);
}

test.describe('scan the card: a camera showing the card’s QR code', () => {
  const code = newCardCode();
  let browser: Browser;
  test.beforeAll(async () => {
    browser = await launchWithFakeCamera(writeQrVideo(`${CARD_SCAN_BASE}/sign-up?card=${code}`, 'card-scan-link'), {
      grantCamera: true,
    });
  });
  test.afterAll(() => browser.close());

  test('fills the card field with a valid code, moves on, announces it and releases the camera; the scanner loads only then', async () => {
    const { context, page, errors } = await openPage(browser);
    const scripts: Request[] = [];
    page.on('requestfinished', (request) => scripts.push(request));
    const response = await page.goto('/sign-up');
    // The page may use the camera itself, and only itself.
    expect(response?.headers()['permissions-policy']).toContain('camera=(self)');
    await page.locator('#signup-firstName').fill('Amira');
    await waitForPreload(page);
    expect(
      scripts.filter((request) => SCANNER_CHUNK.test(request.url())),
      'scanner code before it is opened',
    ).toEqual([]);

    // No assertion on the open scanner here: it may already have read the code and closed.
    await scanButton(page).click();
    const filledAt = await (
      await page.waitForFunction(
        () => (document.querySelector<HTMLInputElement>('#signup-cardCode')?.value ? performance.now() : false),
        undefined,
        { polling: 'raf', timeout: 15_000 },
      )
    ).jsonValue();
    // A figure, not an assertion: on a loaded machine the code can be read from a frame before the
    // preview reports its first one, or the scanner closed before the video element did.
    const inViewAt = await page.evaluate(() => (window as unknown as { __inViewAt?: number }).__inViewAt);
    console.log(
      inViewAt === undefined
        ? 'card scanner: the card field was filled before the preview reported its first frame'
        : `card scanner: QR code in view → card field filled in ${Math.round(Number(filledAt) - inViewAt)} ms (library decoder, fake camera)`,
    );

    await expect(scanner(page)).toBeHidden();
    await expect(cardField(page)).toHaveValue(code.replace(/(\d{4})(?=\d)/g, '$1 '));
    await expect(cardField(page)).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#signup-cardCode-error')).toHaveText('');
    await expect(page.locator('#signup-firstName')).toHaveValue('Amira');
    await expect(page.locator('#signup-acceptedTerms')).toBeFocused();
    await expect(page.locator('.sg-toast-region')).toContainText(`ending ${code.slice(-4)}`);
    await expectCameraReleased(page, { atLeast: 1 });

    const loaded = scripts.filter((request) => SCANNER_CHUNK.test(request.url()));
    expect(loaded.every((request) => request.url().startsWith(SIGNUP_ORIGIN))).toBe(true);
    expect(loaded.map((request) => request.url().match(SCANNER_CHUNK)?.[1]).sort()).toEqual([
      'card-scanner',
      'card-scanner',
      'qr-decoder',
    ]);
    const sizes = await Promise.all(
      loaded.map(async (request) => `${request.url().split('/').pop()} ${(await request.sizes()).responseBodySize} B`),
    );
    const total = (await Promise.all(loaded.map(async (request) => (await request.sizes()).responseBodySize))).reduce(
      (sum, bytes) => sum + bytes,
      0,
    );
    console.log(`card scanner: opening it loads ${total} B as transferred (gzip): ${sizes.join(', ')}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

test.describe('scan the card: a QR code that is not a card', () => {
  let browser: Browser;
  test.beforeAll(async () => {
    browser = await launchWithFakeCamera(writeQrVideo(`https://evil.example/scan/${newCardCode()}`, 'foreign-link'), {
      grantCamera: true,
    });
  });
  test.afterAll(() => browser.close());

  test('leaving the screen while scanning closes the scanner and releases the camera', async () => {
    const { context, page, errors } = await openPage(browser);
    // In-app navigation, so Back stays in the same document (whose streams the page records).
    await page.goto('/');
    await waitForPreload(page);
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(pageTitle(page)).toHaveText('Sign up');
    // By keyboard: after the in-app move Playwright's pointer hit-test misses the button in the
    // Pixel 7 emulation (an input above it "intercepts"), which a direct load of /sign-up does not show.
    await scanButton(page).focus();
    await page.keyboard.press('Enter');
    await expect(scanner(page)).toBeVisible();
    await expect.poll(() => page.evaluate(cameraTracks)).toEqual({ streams: 1, live: 1 });
    await page.goBack();
    await expect(page).not.toHaveURL(/\/sign-up/);
    await expect(pageTitle(page)).not.toHaveText('Sign up');
    await expect(scanner(page)).toBeHidden();
    await expectCameraReleased(page, { atLeast: 1 });
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const language of ['en', 'ar'] as const) {
    test(`the scanner has no axe violations (${language}), takes focus and gives it back on Escape, releasing the camera`, async () => {
      // axe injects its own script; the CSP is checked by the other tests.
      const { context, page, errors } = await openPage(browser, { language, bypassCSP: true });
      await page.goto('/sign-up');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(scanButton(page)).toBeVisible();
      await expectNoAxeViolations(page, `sign-up with Scan card (${language})`);
      await scanButton(page).click();
      await expect(scanner(page)).toBeVisible();
      await expect(scanner(page)).toHaveAccessibleName(language === 'en' ? 'Scan your card' : 'امسح بطاقتك');
      await expect(page.locator('.card-scanner__video')).toHaveJSProperty('paused', false);
      await expect(page.locator('.card-scanner__status--problem')).toBeVisible();
      expect(await scanner(page).evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
      await expectNoAxeViolations(page, `the scanner (${language})`, 'dialog');
      await page.keyboard.press('Escape');
      await expect(scanner(page)).toBeHidden();
      await expect(scanButton(page)).toBeFocused();
      await expectCameraReleased(page, { atLeast: 1 });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test('a link to another site shows a message and keeps scanning; Cancel releases the camera and keeps the field', async () => {
    const { context, page, errors } = await openPage(browser, { language: 'en' });
    await page.goto('/sign-up');
    await cardField(page).fill('4111');
    await scanButton(page).click();
    await expect(page.locator('.card-scanner__status')).toHaveText(
      'This QR code links to another site, not to a Special Gift card. Scan the code on the back of your card.',
    );
    await expect(page.locator('.card-scanner__status')).toHaveAttribute('role', 'status');
    await expect(scanner(page)).toBeVisible();
    await expect.poll(() => page.evaluate(cameraTracks)).toEqual({ streams: 1, live: 1 });

    await scanner(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(scanner(page)).toBeHidden();
    await expect(scanButton(page)).toBeFocused();
    await expect(cardField(page)).toHaveValue('4111');
    await expectCameraReleased(page, { atLeast: 1 });
    expect(errors).toEqual([]);
    await context.close();
  });
});

test.describe('scan the card: camera permission denied', () => {
  let browser: Browser;
  test.beforeAll(async () => {
    browser = await launchWithFakeCamera(writeQrVideo(`${CARD_SCAN_BASE}/${newCardCode()}`, 'denied'), {
      grantCamera: false,
    });
  });
  test.afterAll(() => browser.close());

  for (const [language, message] of [
    ['en', 'You didn’t allow the camera'],
    ['ar', 'لم تسمح باستخدام الكاميرا'],
  ] as const) {
    test(`says how to type the code instead (${language}), focuses the card field and keeps what was typed`, async () => {
      // axe injects its own script: CSP off here; the other tests run the scanner under the CSP.
      const { context, page, errors } = await openPage(browser, { language, bypassCSP: true });
      await page.goto('/sign-up');
      await page.locator('#signup-firstName').fill('Amira');
      await cardField(page).fill('4111 1111');
      await scanButton(page).click();
      await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
      await expect(scanner(page)).toBeHidden();
      await expect(cardField(page)).toBeFocused();
      await expect(cardField(page)).toHaveValue('4111 1111');
      await expect(page.locator('#signup-firstName')).toHaveValue('Amira');
      expect(await page.evaluate(cameraTracks)).toEqual({ streams: 0, live: 0 });
      await expectNoAxeViolations(page, `the camera message (${language})`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
