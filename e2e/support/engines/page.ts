import { expect } from '@playwright/test';
import type { Person } from '../sign-up';
import type { Driver } from './driver';

/**
 * What the cross-engine checks read and do in a page, written once as DOM code (each function is
 * sent to the page as source, so it is self-contained).
 */

/** How long one attempt of a poll's check may go unanswered before it is abandoned (a DOM read). */
const ATTEMPT_MS = 5_000;

/**
 * One attempt of a polled page-side check: `fallback` when the page cannot answer now. A page that
 * navigates by itself (a reload from the service worker, the app's own) destroys the script's
 * document: Playwright and puppeteer then throw, but WebKitGTK's driver never answers the script
 * sent while the new document loads (the next one it answers), so the attempt is abandoned after
 * ATTEMPT_MS and the poll asks again.
 */
export function attempt<R, A, F>(
  driver: Driver,
  check: (arg: A) => R | Promise<R>,
  arg: A,
  fallback: F,
): Promise<R | F> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    driver.evaluate(check, arg).catch(() => fallback),
    new Promise<F>((resolve) => {
      timer = setTimeout(() => resolve(fallback), ATTEMPT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * What a page showed, read when a test fails (fixtures.ts): where it was, whether it was the
 * visible tab, its title, the live regions and open dialog's text, and each video's state (the
 * card scanner's camera). The engines' failures otherwise name only the check that timed out.
 */
export const pageSummary = () => ({
  url: location.href,
  visibility: document.visibilityState,
  focused: document.hasFocus(),
  title: document.querySelector('h1')?.textContent ?? null,
  liveRegions: Array.from(document.querySelectorAll('[role=status],[role=alert]'), (region) =>
    (region.textContent ?? '').trim(),
  ).filter(Boolean),
  dialog: document.querySelector('dialog[open]')?.textContent?.trim().slice(0, 300) ?? null,
  videos: Array.from(document.querySelectorAll('video'), (video) => ({
    readyState: video.readyState,
    paused: video.paused,
    size: `${video.videoWidth}x${video.videoHeight}`,
    tracks:
      video.srcObject instanceof MediaStream
        ? video.srcObject
            .getTracks()
            .map((track) => `${track.kind}:${track.readyState}:${track.muted ? 'muted' : 'live'}`)
        : [],
  })),
});

/** Polls a page-side check until it returns true (the suite's `expect.poll`, for any engine). */
export async function until<A>(
  driver: Driver,
  what: string,
  check: (arg: A) => boolean,
  arg?: A,
  timeout = 15_000,
): Promise<void> {
  await expect
    .poll(() => attempt(driver, check, arg as A, false), {
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
 * Where focus is while a modal overlay is open, read against the topmost open dialog's own Tab
 * stops (its buttons, links and fields that are enabled, shown and not tabindex=-1, in document
 * order: the app sets no positive tabindex). `stop` is the focused stop's index, -1 for the
 * dialog element itself, -2 for anything else (the page behind, `<body>`).
 */
export const overlayFocus = (driver: Driver) =>
  driver.evaluate(() => {
    const dialog = [...document.querySelectorAll('dialog[open]')].at(-1) ?? null;
    const selector = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"]), summary';
    const stops = dialog
      ? [...dialog.querySelectorAll<HTMLElement>(selector)].filter(
          (element) =>
            !element.matches(':disabled') &&
            element.tabIndex >= 0 &&
            element.checkVisibility({ visibilityProperty: true }) &&
            element.getClientRects().length > 0,
        )
      : [];
    const active = document.activeElement;
    const text = (active?.textContent ?? '').trim().slice(0, 30);
    return {
      documentFocused: document.hasFocus(),
      element:
        !active || active === document.body
          ? 'body'
          : `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : text ? ` "${text}"` : ''}`,
      stops: stops.length,
      stop:
        active === dialog ? -1 : stops.indexOf(active as HTMLElement) >= 0 ? stops.indexOf(active as HTMLElement) : -2,
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
