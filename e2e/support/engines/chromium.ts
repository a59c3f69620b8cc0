import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../tooling/chromium';
import { HOST_URL } from '../topology';
import { PHONE, type Driver, type Key } from './driver';

/** Chromium through Playwright, as the rest of the suite drives it. */
export async function launchChromium(): Promise<{ open: () => Promise<Driver>; close: () => Promise<void> }> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return {
    open: async () => {
      // Workers allowed, as in the other engines' drivers and in a real browser: the suite's config
      // blocks them for its own Playwright pages, and the runner applies that to every new context.
      const context = await browser.newContext({
        viewport: PHONE,
        baseURL: HOST_URL,
        hasTouch: true,
        serviceWorkers: 'allow',
      });
      return playwrightDriver(await context.newPage());
    },
    close: () => browser.close(),
  };
}

function playwrightDriver(page: Page): Driver {
  return {
    engine: 'chromium',
    goto: async (path) => {
      await page.goto(path, { waitUntil: 'domcontentloaded' });
    },
    reload: async () => {
      await page.reload({ waitUntil: 'domcontentloaded' });
    },
    back: async () => {
      await page.goBack({ waitUntil: 'domcontentloaded' });
    },
    click: (selector) => page.locator(selector).first().click(),
    type: async (selector, text) => {
      const field = page.locator(selector).first();
      await field.fill('');
      await field.pressSequentially(text);
    },
    press: (key: Key) => page.keyboard.press(key),
    // Playwright's own typing unboxes handles; the driver's arguments are plain JSON.
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) =>
      page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown) as Promise<R>,
    evaluateWithLibrary: async <R>(library: string, fn: () => R | Promise<R>) => {
      await page.evaluate(library);
      return page.evaluate(fn) as Promise<R>;
    },
    setViewport: (width, height) => page.setViewportSize({ width, height }),
    close: () => page.context().close(),
  };
}
