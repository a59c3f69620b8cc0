import { test as base, expect } from '@playwright/test';
import { launchChromium } from './chromium';
import type { Driver, Engine } from './driver';
import { launchFirefox } from './firefox';
import { attempt, pageSummary } from './page';
import { launchWebKit } from './webkit';
import { suiteBaseline } from '../suite-state';

const LAUNCHERS = { chromium: launchChromium, firefox: launchFirefox, webkit: launchWebKit } as const;

export interface EngineOptions {
  /** Which engine the project's tests drive (one project per engine, see e2e/playwright.config.ts). */
  engine: Engine;
}

interface EngineWorker extends EngineOptions {
  suiteBaseline: void;
  engineBrowser: Awaited<ReturnType<(typeof LAUNCHERS)[Engine]>>;
}

/**
 * The cross-engine suite's test: `driver` is a fresh page (its own cookies and storage) in the
 * project's engine; the browser is launched once per worker.
 */
export const test = base.extend<{ driver: Driver }, EngineWorker>({
  engine: ['chromium', { option: true, scope: 'worker' }],
  suiteBaseline,
  engineBrowser: [
    async ({ engine }, provide) => {
      const browser = await LAUNCHERS[engine]();
      await provide(browser);
      await browser.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  driver: async ({ engineBrowser }, provide, testInfo) => {
    const driver = await engineBrowser.open();
    await provide(driver);
    if (testInfo.status !== testInfo.expectedStatus) {
      // Printed with the failure: a flake seen once in a full run is then read, not guessed.
      const seen = await attempt(driver, pageSummary, undefined, 'no answer from the page within 5 s');
      await testInfo.attach('what the page showed', { body: JSON.stringify(seen, null, 2), contentType: 'text/plain' });
    }
    await driver.close();
  },
});

export { expect };
