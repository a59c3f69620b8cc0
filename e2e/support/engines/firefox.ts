import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { HOST_URL } from '../topology';
import { PHONE, type Driver, type Key } from './driver';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Firefox ESR over WebDriver BiDi (puppeteer-core). Its fake camera (`media.navigator.streams.fake`)
 * stands in for a phone's: getUserMedia answers without a prompt with a generated picture.
 */
export async function launchFirefox(): Promise<{ open: () => Promise<Driver>; close: () => Promise<void> }> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: {
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
    },
  });
  return {
    open: async () => {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ ...PHONE });
      return bidiDriver(page, () => context.close().catch(() => undefined));
    },
    close: () => browser.close(),
  };
}

const KEYS: Record<Key, string[]> = {
  Tab: ['Tab'],
  'Shift+Tab': ['Shift', 'Tab'],
  Enter: ['Enter'],
  Escape: ['Escape'],
  Space: [' '],
};

function bidiDriver(page: Page, closeContext: () => Promise<void>): Driver {
  const url = (path: string) => new URL(path, HOST_URL).href;
  return {
    engine: 'firefox',
    goto: async (path) => {
      await page.goto(url(path), { waitUntil: 'domcontentloaded' });
    },
    reload: async () => {
      await page.reload({ waitUntil: 'domcontentloaded' });
    },
    back: async () => {
      await page.goBack({ waitUntil: 'domcontentloaded' });
    },
    click: (selector) => page.click(selector),
    type: async (selector, text) => {
      await page.$eval(selector, (field) => {
        (field as HTMLInputElement).value = '';
      });
      await page.type(selector, text);
    },
    press: async (key) => {
      const keys = KEYS[key];
      for (const down of keys.slice(0, -1)) await page.keyboard.down(down as never);
      await page.keyboard.press(keys.at(-1) as never);
      for (const up of keys.slice(0, -1).reverse()) await page.keyboard.up(up as never);
    },
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) =>
      page.evaluate(fn as (arg: unknown) => R, arg) as Promise<R>,
    evaluateWithLibrary: async <R>(library: string, fn: () => R | Promise<R>) => {
      await page.evaluate(library);
      return page.evaluate(fn) as Promise<R>;
    },
    setViewport: (width, height) => page.setViewport({ width, height }),
    close: closeContext,
  };
}
