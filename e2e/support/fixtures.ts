import { test as base, expect, type Page } from '@playwright/test';
import { suiteBaseline } from './suite-state';

export interface AppFixtures {
  /** Console errors, page errors and CSP violations seen during the test. */
  consoleErrors: string[];
}

const EXPECTS_ERRORS = 'expects-console-errors';

/**
 * Every test fails on any console error, uncaught page error or Content-Security-Policy violation,
 * unless it declares with `expectConsoleErrors()` that it provokes failures on purpose (a server
 * stopped, a 404 injected).
 */
export const test = base.extend<AppFixtures, { suiteBaseline: void }>({
  suiteBaseline,
  consoleErrors: [
    async ({ page }, provide, testInfo) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) =>
          console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`),
        );
      });
      await provide(errors);
      if (!testInfo.annotations.some((annotation) => annotation.type === EXPECTS_ERRORS)) {
        expect(errors, 'console errors, page errors or CSP violations').toEqual([]);
      }
    },
    { auto: true },
  ],
});

/** This test provokes failures on purpose; its console errors are expected, not a defect. */
export function expectConsoleErrors(why: string): void {
  test.info().annotations.push({ type: EXPECTS_ERRORS, description: why });
}

export { expect };

/** Waits until the host has preloaded every remote (it marks `<html data-preloaded>`). */
export async function waitForPreload(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-preloaded', 'true', { timeout: 20_000 });
}

/** The visible page title (the toolbar's h1). */
export const pageTitle = (page: Page) => page.locator('[data-page-title]');

/**
 * The browser's language for a test's contexts: `navigator.languages` and the Accept-Language
 * header agree, as in a real browser (the server composes the page in the language the app then
 * chooses). Set on the context: a page's own extra headers were seen missing from its first
 * navigation, which then got a page in another language.
 */
export const useBrowserLanguage = (locale: string) => test.use({ locale });

/**
 * Waits until the first screen's code runs (the host marks `<html data-interactive>`). A
 * prerendered screen shows before that; a tap on it before the host's code has loaded does nothing.
 */
export async function waitForInteractive(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true', { timeout: 20_000 });
}

/**
 * The notice Playwright prints where it blocks a page's service worker (the suite blocks them but in
 * offline.spec.ts: playwright.config.ts): the app registering its worker, not a warning of the app.
 */
export const isBlockedWorkerNotice = (text: string) => text === 'Service Worker registration blocked by Playwright';
