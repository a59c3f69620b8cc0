import introAr from '../../remote-intro/public/assets/i18n/ar.json';
import introFr from '../../remote-intro/public/assets/i18n/fr.json';
import signupAr from '../../remote-signup/public/assets/i18n/ar.json';
import signupFr from '../../remote-signup/public/assets/i18n/fr.json';
import thankyouAr from '../../remote-thankyou/public/assets/i18n/ar.json';
import thankyouFr from '../../remote-thankyou/public/assets/i18n/fr.json';
import { DEVICE_STORAGE, readStored, STORED } from '../support/device-storage';
import { startApp, stopApp } from '../support/servers';
import { expectCardTaken, fillSignUp, newCardCode, person } from '../support/sign-up';
import { expect, expectConsoleErrors, pageTitle, test, waitForPreload } from '../support/fixtures';

const LANGUAGES = [
  { code: 'fr', name: 'Français', dir: 'ltr', intro: introFr, signup: signupFr, thankyou: thankyouFr },
  { code: 'ar', name: 'العربية', dir: 'rtl', intro: introAr, signup: signupAr, thankyou: thankyouAr },
] as const;

test.describe('sign-up journey', () => {
  test('the full journey in English stores a real sign-up and thanks the user by name, also after a reload', async ({
    page,
  }) => {
    const who = person({ firstName: 'Élodie' });
    await page.goto('/');
    await waitForPreload(page); // the preload also fetches the XSRF cookie
    await page.getByRole('button', { name: 'Get started' }).click();
    await expect(pageTitle(page)).toHaveText('Sign up');
    await fillSignUp(page, who);
    const statuses: number[] = [];
    page.on('response', (response) => response.url().endsWith('/api/v1/sign-ups') && statuses.push(response.status()));
    const created = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/sign-ups') && response.status() === 201,
    );
    await page.getByRole('button', { name: 'Sign up' }).click();
    const request = (await created).request();

    await expect(page.getByRole('heading', { name: 'Thank you, Élodie!' })).toBeVisible();
    await expect(page).toHaveURL(/\/thank-you$/);
    // XSRF double-submit: the header carries the API's cookie; the API accepted it.
    const cookies = await page.context().cookies();
    const xsrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN');
    expect(xsrf?.sameSite).toBe('Strict');
    expect(request.headers()['x-xsrf-token']).toBe(xsrf?.value);
    expect(request.headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(statuses).toEqual([201]);

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Thank you, Élodie!' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Visit the Special Gift website/ })).toHaveAttribute(
      'href',
      'https://www.special-gift.example',
    );

    // Root navigation: Back cannot return into the finished sign-up.
    await page.goBack();
    await expect(page, 'Back from the thank-you screen lands on the intro').toHaveURL(/^[^?#]*:\d+\/$/);
    await page.goForward();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(pageTitle(page)).toHaveText('Special Gift');
  });

  for (const language of LANGUAGES) {
    test(`the full journey in ${language.code} is translated on every screen (${language.dir})`, async ({ page }) => {
      await page.goto('/');
      await page.getByRole('button', { name: /Language/ }).click();
      const sheet = page.getByRole('dialog', { name: 'Choose your language' });
      await sheet.getByRole('button', { name: language.name }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', language.code);
      await expect(page.locator('html')).toHaveAttribute('dir', language.dir);
      await expect(page.getByRole('heading', { name: language.intro.headline })).toBeVisible();

      await page.getByRole('button', { name: language.intro.getStarted }).click();
      await expect(pageTitle(page)).toHaveText(language.signup.title);
      await fillSignUp(page, person({ firstName: 'Nour' }));
      await page.getByRole('button', { name: language.signup.submit, exact: true }).click();
      await expect(pageTitle(page)).toHaveText(language.thankyou.title);
      await expect(
        page.getByRole('heading', { name: language.thankyou.headlineNamed.replace('{{name}}', 'Nour') }),
      ).toBeVisible();

      // The choice is stored: a reload keeps the language.
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', language.code);
      await expect(page.getByRole('button', { name: language.thankyou.done })).toBeVisible();
    });
  }

  test('a scanned-card link prefills the card code, grouped in fours', async ({ page }) => {
    const card = newCardCode();
    await page.goto(`/sign-up?card=${card}`);
    await expect(page.getByLabel('Card code')).toHaveValue(card.replace(/(\d{4})(?=\d)/g, '$1 '));
  });

  test('what was typed survives a reload and is restored with a toast', async ({ page }) => {
    await page.goto('/sign-up');
    await page.getByLabel('First name').fill('Hana');
    await page.getByLabel('Email').fill('hana@example.com');
    // The draft is saved 300 ms after typing stops, by the form's code (once it has hydrated):
    // reloaded once it is kept, however long that takes on this machine.
    await expect
      .poll(() => page.evaluate(readStored, { ...DEVICE_STORAGE, key: STORED.draft }))
      .toMatchObject({ values: { firstName: 'Hana', email: 'hana@example.com' } });
    await page.reload();
    await expect(page.getByLabel('First name')).toHaveValue('Hana');
    await expect(page.getByLabel('Email')).toHaveValue('hana@example.com');
    await expect(page.getByRole('status').filter({ hasText: 'We restored what you entered earlier.' })).toBeVisible();
  });

  test('inline errors: on leaving a field, on submit (focus moves to the first invalid field)', async ({ page }) => {
    await page.goto('/sign-up');
    await waitForPreload(page); // leaving a field is checked by the form's code, once it is there
    await page.getByLabel('First name').focus();
    await page.getByLabel('Last name').focus();
    await expect(page.getByText('Enter your first name.')).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('First name').fill('Sam');
    await page.getByLabel('Card code').fill('4111 1111 1111 1112');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByLabel('Last name')).toBeFocused();
    await expect(page.getByText('This card code isn’t valid. Check the digits on your card.')).toBeVisible();
    await expect(page.getByText('Please accept the terms and conditions to continue.')).toBeVisible();
  });

  test('the server’s field error is shown on its field: a card already registered', async ({ page }) => {
    expectConsoleErrors('the API answers 409 on purpose');
    const card = newCardCode();
    await page.goto('/sign-up');
    await fillSignUp(page, person({ cardCode: card }));
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(pageTitle(page)).toHaveText('Thank you');
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Get started' }).click();
    await fillSignUp(page, person({ cardCode: card, email: 'someone.else@example.com' }));
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByText('This card is already registered.')).toBeVisible();
    await expect(page.getByLabel('Card code')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveValue('someone.else@example.com');
  });

  test('a double click submits once', async ({ page }) => {
    const statuses: number[] = [];
    page.on(
      'response',
      (response) =>
        response.request().method() === 'POST' &&
        response.url().endsWith('/sign-ups') &&
        statuses.push(response.status()),
    );
    await page.goto('/sign-up');
    await fillSignUp(page, person());
    await page.getByRole('button', { name: 'Sign up' }).dblclick();
    await expect(pageTitle(page)).toHaveText('Thank you');
    // One submission: the client's single XSRF retry aside (a 403 that sets the cookie), one POST.
    expect(statuses.filter((status) => status !== 403)).toEqual([201]);
    expect(statuses.filter((status) => status === 403).length).toBeLessThanOrEqual(1);
  });

  test('API down: the alert keeps the form; after the API is back, Retry creates exactly one sign-up', async ({
    page,
    request,
  }) => {
    expectConsoleErrors('the API is stopped');
    const who = person();
    await page.goto('/sign-up');
    await fillSignUp(page, who);
    await stopApp('api');
    try {
      await page.getByRole('button', { name: 'Sign up' }).click();
      const alert = page.getByRole('alertdialog', { name: 'We couldn’t sign you up' });
      await expect(alert).toBeVisible();
      await alert.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByLabel('First name')).toHaveValue(who.firstName);
      await expect(page.getByLabel('Card code')).toHaveValue(who.cardCode.replace(/(\d{4})(?=\d)/g, '$1 '));

      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(alert).toBeVisible();
      await startApp('api');
      await alert.getByRole('button', { name: 'Retry' }).click();
      await expect(pageTitle(page)).toHaveText('Thank you');
    } finally {
      await startApp('api');
    }
    // Exactly one: the card is now taken, so any other submission for it is refused.
    await expectCardTaken(request, who);
  });

  test('after the preload a full sign-up makes no code or translation request', async ({ page }) => {
    await page.goto('/');
    await waitForPreload(page);
    const fetched: string[] = [];
    page.on('request', (request) => {
      const type = request.resourceType();
      if (type === 'script' || type === 'stylesheet' || request.url().includes('/assets/i18n/'))
        fetched.push(request.url());
    });
    await page.getByRole('button', { name: 'Get started' }).click();
    await fillSignUp(page, person());
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(pageTitle(page)).toHaveText('Thank you');
    expect(fetched).toEqual([]);
  });
});

test('the whole journey works by keyboard alone', async ({ page }) => {
  await page.goto('/');
  await expect(pageTitle(page)).toHaveText('Special Gift');
  const tabTo = async (name: RegExp | string, role: 'button' | 'textbox' | 'checkbox' = 'button') => {
    const target = page.getByRole(role, { name });
    for (let i = 0; i < 30; i++) {
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`could not reach ${String(name)} with Tab`);
  };
  await tabTo('Get started');
  await page.keyboard.press('Enter');
  await expect(pageTitle(page)).toHaveText('Sign up');

  const who = person();
  await tabTo('First name', 'textbox');
  await page.keyboard.type(who.firstName);
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.lastName);
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.phone ?? '');
  await tabTo('Card code', 'textbox');
  await page.keyboard.type(who.cardCode);
  await tabTo('terms and conditions');
  await page.keyboard.press('Enter'); // opens the terms
  await tabTo('I agree');
  await page.keyboard.press('Enter');
  await expect(page.locator('#signup-acceptedTerms')).toBeChecked();
  await tabTo('Sign up');
  await page.keyboard.press('Enter');
  await expect(pageTitle(page)).toHaveText('Thank you');
  await tabTo('Done');
  await page.keyboard.press('Enter');
  await expect(pageTitle(page)).toHaveText('Special Gift');
});
