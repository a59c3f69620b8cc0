import { expect, test } from '@playwright/test';
import { HOST_URL, apiRequests, containers, psql, signUp } from './stack';

test.describe('the whole journey at the host container', () => {
  test("the host composes each route's page from the remote containers' prerendered screens", async ({ request }) => {
    for (const [path, remote] of [
      ['/', 'intro'],
      ['/sign-up', 'signup'],
      ['/thank-you', 'thankyou'],
    ] as const) {
      const html = await (await request.get(`${HOST_URL}${path}`, { headers: { 'Accept-Language': 'en' } })).text();
      expect(html, path).toContain(`data-sg-screen="${remote}" data-sg-lang="en"`);
      expect(html, path).not.toMatch(/<!--#/);
    }
  });

  test('a person signs up in the browser: the page hydrates, the sign-up is stored in the PostgreSQL container', async ({
    page,
  }) => {
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
    const { makeTestCardCode } = await import('@special-gift/shared/testing/cards');
    await page.locator('#signup-cardCode').fill(makeTestCardCode(Math.floor(Math.random() * 1e15)));
    await page.locator('#signup-acceptedTerms').check();
    const created = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/sign-ups') && response.status() === 201,
    );
    await page.getByRole('button', { name: 'Sign up' }).click();
    const { id } = (await (await created).json()) as { id: string };
    await expect(page.getByRole('heading', { name: 'Thank you, Maren!' })).toBeVisible();

    expect(await psql(`SELECT first_name || ' ' || last_name FROM sign_ups WHERE id = '${id}'`)).toBe(
      'Maren Container',
    );
  });

  test('sign-ups through the host are served by both API replicas', async () => {
    const since = new Date().toISOString();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await signUp()).status);
    expect(
      statuses.every((status) => status === 201),
      statuses.join(' '),
    ).toBe(true);
    const replicas = await containers('api');
    const served = await Promise.all(
      replicas.map(
        async (name) => (await apiRequests(name, since)).filter((r) => r.method === 'POST' && r.status === 201).length,
      ),
    );
    console.log(`20 sign-ups through the host: ${replicas.map((name, i) => `${name} ${served[i]}`).join(', ')}`);
    for (const [i, count] of served.entries()) expect(count, replicas[i]).toBeGreaterThan(0);
  });
});
