import { expect } from '@playwright/test';
import type { Person } from '../sign-up';
import type { Driver } from './driver';

/**
 * What the cross-engine checks read and do in a page, written once as DOM code (each function is
 * sent to the page as source, so it is self-contained).
 */

/** Polls a page-side check until it returns true (the suite's `expect.poll`, for any engine). */
export async function until<A>(
  driver: Driver,
  what: string,
  check: (arg: A) => boolean,
  arg?: A,
  timeout = 15_000,
): Promise<void> {
  await expect
    .poll(() => driver.evaluate(check, arg).catch(() => false), {
      message: `${driver.engine}: ${what}`,
      timeout,
      intervals: [100, 200, 250],
    })
    .toBe(true);
}

/** The toolbar's h1 (the page title) equals `title`. */
export const untilTitle = (driver: Driver, title: string) =>
  until(
    driver,
    `page title "${title}"`,
    (expected) => document.querySelector('[data-page-title]')?.textContent === expected,
    title,
  );

/** Some element matching `selector` shows `text` (trimmed, exact). */
export const untilText = (driver: Driver, selector: string, text: string) =>
  until(
    driver,
    `${selector} shows "${text}"`,
    ({ selector: css, text: wanted }) =>
      [...document.querySelectorAll(css)].some(
        (element) => element.textContent?.trim() === wanted && element.getClientRects().length > 0,
      ),
    { selector, text },
  );

export const untilVisible = (driver: Driver, selector: string) =>
  until(
    driver,
    `${selector} visible`,
    (css) => [...document.querySelectorAll<HTMLElement>(css)].some((element) => element.getClientRects().length > 0),
    selector,
  );

/** The host has preloaded every remote (it marks `<html data-preloaded>`). */
export const untilPreloaded = (driver: Driver) =>
  until(driver, 'remotes preloaded', () => document.documentElement.dataset.preloaded === 'true', undefined, 25_000);

/**
 * Clicks, with the engine's real pointer, the visible element matching `selector` whose text
 * (trimmed) is `text`: the element is marked first, so any driver can find it by a selector.
 */
export async function clickText(driver: Driver, selector: string, text: string): Promise<void> {
  await until(
    driver,
    `${selector} "${text}" to click`,
    ({ selector: css, text: wanted }) => {
      for (const old of document.querySelectorAll('[data-e2e-target]')) old.removeAttribute('data-e2e-target');
      const target = [...document.querySelectorAll<HTMLElement>(css)].find(
        (element) => element.textContent?.trim() === wanted && element.getClientRects().length > 0,
      );
      target?.setAttribute('data-e2e-target', '');
      return Boolean(target);
    },
    { selector, text },
  );
  await driver.click('[data-e2e-target]');
}

/**
 * The focused element, described (`tag#id` or `tag "text"`): inside an open dialog or not, and
 * whether the page has focus at all (not when it is in the browser's own UI).
 */
export const focused = (driver: Driver) =>
  driver.evaluate(() => {
    const element = document.activeElement;
    const inDocument = document.hasFocus() && element !== null && element !== document.body;
    if (!element || element === document.body) return { element: 'body', inDialog: false, inDocument };
    const text = (element.textContent ?? '').trim().slice(0, 40);
    return {
      element: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : text ? ` "${text}"` : ''}`,
      inDialog: element.closest('dialog[open]') !== null,
      inDocument,
    };
  });

export const fieldValue = (driver: Driver, selector: string) =>
  driver.evaluate((css) => document.querySelector<HTMLInputElement>(css)?.value ?? null, selector);

export const pathname = (driver: Driver) => driver.evaluate(() => location.pathname);

/** Waits until the first screen's code runs (the host marks `<html data-interactive>`). */
export const untilInteractive = (driver: Driver) =>
  until(driver, 'interactive', () => document.documentElement.dataset.interactive === 'true', undefined, 25_000);

/** Every finite animation (a page or an overlay sliding in) has finished: things are where they stay. */
export const untilStill = (driver: Driver) =>
  until(driver, 'animations finished', () =>
    document
      .getAnimations()
      .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
      .every((animation) => animation.playState === 'finished'),
  );

/**
 * An overlay is open and has finished sliding in: where it will stay. WebDriver refuses, and a
 * pointer misses, a button that is still moving.
 */
export async function untilOverlayOpen(driver: Driver) {
  await untilVisible(driver, 'dialog[open]');
  await untilStill(driver);
}

/** Chooses the app's language through the intro's language sheet, as a user does (the choice is stored). */
export async function chooseLanguage(driver: Driver, language: { code: string; name: string; dir: string }) {
  await driver.goto('/');
  await untilPreloaded(driver);
  await driver.click('.intro-language');
  await untilOverlayOpen(driver);
  await clickText(driver, 'dialog[open] button', language.name);
  await until(
    driver,
    `lang ${language.code}`,
    ({ code, dir }) => document.documentElement.lang === code && document.documentElement.dir === dir,
    language,
  );
}

export const ARABIC = { code: 'ar', name: 'العربية', dir: 'rtl' } as const;

/** Fills the sign-up form as a user does (and accepts the terms). */
export async function fillSignUp(driver: Driver, who: Person) {
  await driver.type('#signup-firstName', who.firstName);
  await driver.type('#signup-lastName', who.lastName);
  await driver.type('#signup-email', who.email);
  if (who.phone) await driver.type('#signup-phone', who.phone);
  await driver.type('#signup-cardCode', who.cardCode);
  await driver.click('#signup-acceptedTerms');
}
