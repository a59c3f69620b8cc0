import { startApp, stopApp } from '../support/servers';
import { E2E_PORTS } from '../support/topology';
import { expect, expectConsoleErrors, pageTitle, test, waitForPreload } from '../support/fixtures';

test.describe('federated foundation', () => {
  test('each route renders its remote screen, loaded from the remote’s own origin', async ({ page }) => {
    const scriptOrigins = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scriptOrigins.add(new URL(response.url()).port);
    });

    await page.goto('/');
    await expect(pageTitle(page)).toHaveText('Special Gift');
    await expect(page.getByRole('heading', { name: 'A gift card that feels special' })).toBeVisible();

    await page.goto('/sign-up');
    await expect(pageTitle(page)).toHaveText('Sign up');
    await expect(page.getByLabel('First name')).toBeVisible();

    await page.goto('/thank-you');
    await expect(pageTitle(page)).toHaveText('Thank you');
    await expect(page.getByRole('heading', { name: 'Thank you for signing up!' })).toBeVisible();

    for (const port of [E2E_PORTS.host, E2E_PORTS.intro, E2E_PORTS.signup, E2E_PORTS.thankyou]) {
      expect([...scriptOrigins], `scripts from port ${port}`).toContain(String(port));
    }
  });

  test('the browser loads exactly one copy of react-dom', async ({ page }) => {
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script' && response.ok())
        bodies.push(await response.text().catch(() => ''));
    });
    await page.goto('/');
    await waitForPreload(page);
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(pageTitle(page)).toHaveText('Sign up');
    // A string only react-dom's client build contains.
    const copies = bodies.filter((body) => body.includes('__reactContainer$')).length;
    expect(copies).toBe(1);
  });

  test('after the preload, moving between screens requests no code and no translations', async ({ page }) => {
    await page.goto('/');
    await waitForPreload(page);
    const requests: string[] = [];
    page.on('request', (request) => {
      // Chromium re-requests the tab's favicon on history navigations; that is not app code.
      if (!request.url().endsWith('/favicon.svg')) requests.push(`${request.resourceType()} ${request.url()}`);
    });

    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(pageTitle(page)).toHaveText('Sign up');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(pageTitle(page)).toHaveText('Special Gift');
    await page.evaluate(() => window.history.pushState(null, '', '/thank-you'));
    await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
    await expect(pageTitle(page)).toHaveText('Thank you');

    expect(requests).toEqual([]);
  });

  test('an unknown path shows a not-found screen with a way home', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200); // the SPA answers; the app says "not found"
    await expect(page.getByRole('heading', { name: 'We can’t find that page' })).toBeVisible();
    await expect(page).toHaveTitle(/Page not found/);
    await page.getByRole('button', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(pageTitle(page)).toHaveText('Special Gift');
  });

  test('a remote whose server is down gets an error screen; Try again recovers without a reload', async ({ page }) => {
    expectConsoleErrors('the sign-up remote is stopped');
    await stopApp('signup');
    try {
      await page.goto('/');
      await expect(pageTitle(page)).toHaveText('Special Gift');
      await page.getByRole('button', { name: 'Get started' }).click();
      await expect(page.getByRole('heading', { name: 'This screen couldn’t be loaded' })).toBeVisible();

      // Every other route keeps working meanwhile.
      await page.getByRole('button', { name: 'Go to the home page' }).click();
      await expect(pageTitle(page)).toHaveText('Special Gift');
      await page.getByRole('button', { name: 'Get started' }).click();
      await expect(page.getByRole('alert')).toContainText('This screen couldn’t be loaded');

      await startApp('signup');
      const marker = await page.evaluate(
        () => ((window as unknown as { __noReload: number }).__noReload = Math.random()),
      );
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect(pageTitle(page)).toHaveText('Sign up');
      await expect(page.getByLabel('First name')).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { __noReload: number }).__noReload)).toBe(marker);
    } finally {
      await startApp('signup').catch(() => undefined);
    }
  });

  test('a start-up failure is shown to the user with a retry that works', async ({ page }) => {
    expectConsoleErrors('config.json answers 503, and the failure is logged');
    let failConfig = true;
    await page.route('**/config.json', (route) =>
      failConfig ? route.fulfill({ status: 503, body: 'down' }) : route.continue(),
    );
    const logged: string[] = [];
    page.on('console', (message) => message.type() === 'error' && logged.push(message.text()));

    await page.goto('/');
    await expect(page.getByRole('alert')).toContainText('Special Gift could not start');
    expect(logged.join('\n')).toContain('Special Gift failed to start');

    failConfig = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(pageTitle(page)).toHaveText('Special Gift');
  });

  test('a bad config.json is reported, not a blank page', async ({ page }) => {
    expectConsoleErrors('config.json is invalid, and the failure is logged');
    await page.route('**/config.json', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"apiBase": 42}' }),
    );
    await page.goto('/');
    await expect(page.getByRole('alert')).toContainText('Special Gift could not start');
  });
});
