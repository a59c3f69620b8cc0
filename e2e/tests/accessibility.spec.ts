import { expectNoViolations } from '../support/axe';
import { fillSignUp, person } from '../support/sign-up';
import { expect, expectConsoleErrors, test, useBrowserLanguage } from '../support/fixtures';

// axe-core injects its own script and styles into the page; the app's CSP would block them.
// (The CSP itself is checked by every other spec, which fails on any violation.)
test.use({ bypassCSP: true });

for (const language of ['en', 'ar'] as const) {
  test.describe(`axe, ${language}`, () => {
    useBrowserLanguage(language);

    test('every screen has no violations', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator('.intro-hero')).toBeVisible();
      await expectNoViolations(page, 'intro');

      await page.goto('/sign-up');
      await expect(page.locator('#signup-firstName')).toBeVisible();
      await expectNoViolations(page, 'sign-up');
      await page.locator('form button[type=submit]').click(); // every inline error shown
      await expect(page.locator('#signup-firstName')).toHaveAttribute('aria-invalid', 'true');
      await expectNoViolations(page, 'sign-up with errors');

      await page.goto('/thank-you');
      await expect(page.locator('.thankyou__headline')).toBeVisible();
      await expectNoViolations(page, 'thank-you');

      await page.goto('/missing');
      await expect(page.locator('.sg-status-view')).toBeVisible();
      await expectNoViolations(page, 'not-found');
    });

    test('every overlay has no violations', async ({ page }) => {
      expectConsoleErrors('the sign-up POST answers 503 on purpose, to show the alert');
      await page.goto('/');
      await page.locator('.intro-language').click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, 'action sheet');
      await page.keyboard.press('Escape');

      await page.goto('/sign-up');
      await page.locator('.sg-checkbox__label .signup__help-link').click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, 'modal');
      await page.keyboard.press('Escape');

      await page.locator('.sg-field__label-row .signup__help-link').click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, 'popover');
      await page.keyboard.press('Escape');

      await page.route('**/api/v1/sign-ups', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"error":{"code":"unavailable","message":"down"}}',
        }),
      );
      await fillSignUp(page, person());
      await page.locator('form button[type=submit]').click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await expectNoViolations(page, 'alert');
      await page.keyboard.press('Escape');

      await page.waitForTimeout(500);
      await page.reload();
      await expect(page.locator('#signup-firstName')).toBeVisible();
      await expect(page.locator('.sg-toast-region').filter({ hasText: /\S/ })).toBeVisible();
      await expectNoViolations(page, 'toast');
    });
  });
}

test.describe('axe, dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('screens and the modal keep their contrast in the dark theme', async ({ page }) => {
    for (const path of ['/', '/sign-up', '/thank-you', '/missing']) {
      await page.goto(path);
      await expect(page.locator('[data-page-title]')).toBeVisible();
      await expectNoViolations(page, `${path} (dark)`);
    }
    await page.goto('/sign-up');
    await page.locator('form button[type=submit]').click();
    await expect(page.locator('#signup-firstName')).toHaveAttribute('aria-invalid', 'true');
    await expectNoViolations(page, 'sign-up with errors (dark)');
    await page.locator('.sg-checkbox__label .signup__help-link').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page, 'modal (dark)');
  });
});
