import { test as base, expect, type Page } from '@playwright/test';

export interface AppFixtures {
  /** Console errors and page errors seen during the test; most tests assert there are none. */
  consoleErrors: string[];
}

export const test = base.extend<AppFixtures>({
  consoleErrors: async ({ page }, provide) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await provide(errors);
  },
});

export { expect };

/** Waits until the host has preloaded every remote (it marks `<html data-preloaded>`). */
export async function waitForPreload(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-preloaded', 'true', { timeout: 20_000 });
}

/** The visible page title (the toolbar's h1). */
export const pageTitle = (page: Page) => page.locator('[data-page-title]');
