import type { BrowserContext, Page } from '@playwright/test';
import signupAr from '../../remote-signup/public/assets/i18n/ar.json';
import signupEn from '../../remote-signup/public/assets/i18n/en.json';
import signupFr from '../../remote-signup/public/assets/i18n/fr.json';
import { expectNoViolations } from '../support/axe';
import { expect, expectConsoleErrors, pageTitle, test, waitForPreload } from '../support/fixtures';
import { expectCardTaken, fillSignUp, person, postSignUp, type Person } from '../support/sign-up';

/**
 * A sign-up made with no network (docs/offline.md, "The queue"): kept on the device with its
 * idempotency key, sent once when the network returns, with the page open or on the next start.
 */
test.use({ bypassCSP: true }); // axe's script on the queued message (the CSP is checked by every other spec)

const isSignUpPost = (url: string, method: string) => method === 'POST' && url.endsWith('/api/v1/sign-ups');

/** Every sign-up POST the context's pages make, and their answers. */
function recordSignUps(context: BrowserContext) {
  const sent: string[] = [];
  const answers: number[] = [];
  context.on('request', (request) => isSignUpPost(request.url(), request.method()) && sent.push(request.url()));
  context.on('response', (response) => {
    if (isSignUpPost(response.url(), response.request().method())) answers.push(response.status());
  });
  return { sent, answers };
}

/** Fills the form online, then submits it with no network: the sign-up is kept and the user told. */
async function submitOffline(page: Page, context: BrowserContext, who: Person, texts = signupEn) {
  await page.goto('/sign-up');
  await waitForPreload(page);
  await fillSignUp(page, who);
  await context.setOffline(true);
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
  const status = page.getByRole('status').filter({ hasText: texts.queue.title });
  await expect(status).toContainText(texts.queue.message);
}

test.beforeEach(() => expectConsoleErrors('offline: the browser logs each request that cannot leave'));

test('submitted offline, then the network back with the page open: sent once, the user thanked', async ({
  page,
  context,
  request,
}) => {
  const who = person({ firstName: 'Léa' });
  const signUps = recordSignUps(context);
  await submitOffline(page, context, who);
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: 'Thank you, Léa!' })).toBeVisible();
  expect(signUps.answers).toEqual([201]);
  await expectCardTaken(request, who);
  // Acknowledged: nothing is kept of it but the thank-you screen's greeting.
  expect(await page.evaluate(() => document.body.innerText)).not.toContain(signupEn.queue.title);
});

test('submitted offline, the tab closed: sent on the next start of the app', async ({ page, context, request }) => {
  const who = person({ firstName: 'Omar' });
  const signUps = recordSignUps(context);
  await submitOffline(page, context, who);
  await page.close();
  await context.setOffline(false);
  const next = await context.newPage();
  await next.goto('/');
  await expect.poll(() => signUps.answers, { timeout: 20_000 }).toEqual([201]);
  await next.goto('/thank-you');
  await expect(next.getByRole('heading', { name: 'Thank you, Omar!' })).toBeVisible();
  await expectCardTaken(request, who);
});

test('two tabs back online at once: sent once', async ({ page, context, request }) => {
  const who = person({ firstName: 'Inès' });
  const signUps = recordSignUps(context);
  const other = await context.newPage();
  await other.goto('/');
  await waitForPreload(other);
  await submitOffline(page, context, who);
  await context.setOffline(false); // both tabs get `online` together
  await expect(page.getByRole('heading', { name: 'Thank you, Inès!' })).toBeVisible();
  await other.waitForTimeout(1_000); // the other tab's sender has had its turn at the lock
  expect(signUps.sent).toHaveLength(1);
  expect(signUps.answers).toEqual([201]);
  await expectCardTaken(request, who);
});

test('refused when sent (the card was registered meanwhile): the details come back with the reason, never dropped', async ({
  page,
  context,
  request,
}) => {
  const who = person();
  await submitOffline(page, context, who);
  // Someone registers the card before the phone is back online.
  expect(await postSignUp(request, who)).toBe(201);
  const answer = page.waitForResponse((response) => isSignUpPost(response.url(), response.request().method()));
  await context.setOffline(false);
  expect((await answer).status()).toBe(409);
  const alert = page.getByRole('alertdialog');
  await expect(alert).toContainText(signupEn.queue.refused);
  await alert.getByRole('button', { name: signupEn.queue.ok }).click();
  await expect(page.locator('#signup-firstName')).toHaveValue(who.firstName);
  await expect(page.locator('#signup-cardCode')).toHaveValue(/\d{4} \d{4} \d{4} \d{4}/);
  await expect(page.getByText(signupEn.errors.cardCode.already_registered)).toBeVisible();
});

for (const [language, texts] of [
  ['en', signupEn],
  ['fr', signupFr],
  ['ar', signupAr],
] as const) {
  test.describe(`the queued message in ${language}`, () => {
    test.use({ locale: language });
    test('is plain, and has no axe violation', async ({ page, context }) => {
      await submitOffline(page, context, person(), texts);
      await expect(pageTitle(page)).toHaveText(texts.title);
      await expectNoViolations(page, `the queued sign-up (${language})`);
      await context.setOffline(false); // it is sent: the card does not linger for the next test
      await expect(page).toHaveURL(/\/thank-you$/);
    });
  });
}
