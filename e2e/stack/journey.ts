import { expect, type Page } from '@playwright/test';
import { makeTestCardCode } from '@special-gift/shared/testing/cards';

/**
 * The sign-up journey in the browser, at the page's base URL: the server-composed first screen
 * hydrates (not re-rendered), the person signs up, the thank-you screen greets them. Returns the
 * id the API gave the sign-up. The compose stack and the played Kubernetes overlay both run it.
 */
export async function signUpInBrowser(page: Page): Promise<string> {
  // Marks the server's DOM before any script runs: the mark surviving shows hydration, not a re-render.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      for (const element of Array.from(document.querySelectorAll('[data-sg-screen] *')))
        (element as HTMLElement).dataset.fromServer = '';
    });
  });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-preloaded', 'true', { timeout: 30_000 });
  await expect(page.locator('[data-page-title]')).toHaveAttribute('data-from-server', '');
  await page.getByRole('button', { name: 'Get started' }).click();
  await expect(page.locator('[data-page-title]')).toHaveText('Sign up');

  await page.locator('#signup-firstName').fill('Maren');
  await page.locator('#signup-lastName').fill('Container');
  await page.locator('#signup-email').fill('maren@example.com');
  await page.locator('#signup-cardCode').fill(makeTestCardCode(Math.floor(Math.random() * 1e15)));
  await page.locator('#signup-acceptedTerms').check();
  const created = page.waitForResponse(
    (response) => response.url().endsWith('/api/v1/sign-ups') && response.status() === 201,
  );
  await page.getByRole('button', { name: 'Sign up' }).click();
  const { id } = (await (await created).json()) as { id: string };
  await expect(page.getByRole('heading', { name: 'Thank you, Maren!' })).toBeVisible();
  return id;
}
