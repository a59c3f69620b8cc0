import type { BrowserContext, Page } from '@playwright/test';
import hostAr from '../../host/public/assets/i18n/ar.json';
import hostEn from '../../host/public/assets/i18n/en.json';
import hostFr from '../../host/public/assets/i18n/fr.json';
import signupAr from '../../remote-signup/public/assets/i18n/ar.json';
import signupEn from '../../remote-signup/public/assets/i18n/en.json';
import signupFr from '../../remote-signup/public/assets/i18n/fr.json';
import { expectNoViolations } from '../support/axe';
import introEn from '../../remote-intro/public/assets/i18n/en.json';
import { expect, expectConsoleErrors, pageTitle, test, waitForInteractive, waitForPreload } from '../support/fixtures';
import { DEVICE_STORAGE, readStored, STORED, writeStored } from '../support/device-storage';
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

/**
 * Fills the form online, then submits it with no network: the sign-up is kept and the user told.
 * Workers are blocked in this spec, so no Background Sync: the message must not say the page can
 * be closed (offline.spec.ts checks the other text, with the worker).
 */
async function submitOffline(page: Page, context: BrowserContext, who: Person, texts = signupEn) {
  await page.goto('/sign-up');
  await waitForPreload(page);
  await fillSignUp(page, who);
  await context.setOffline(true);
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
  const status = page.getByRole('status').filter({ hasText: texts.queue.title });
  await expect(status).toContainText(texts.queue.messageWhenOpen);
}

/**
 * Writes the kept sign-up where the app keeps it, from a page of the app that has created the
 * database: for the checks of what is shown, without a round trip per language.
 */
const keepOnDevice = (page: Page, entry: Record<string, unknown>) =>
  page.evaluate(writeStored, { ...DEVICE_STORAGE, key: STORED.outbox, value: entry });

/** The shell's notice of a refused kept sign-up (a dialog named by its title). */
const refusedNotice = (page: Page, texts = hostEn) => page.getByRole('dialog', { name: texts.keptSignUp.refusedTitle });

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

test('refused when sent with the sign-up screen open: the details shown by the shell, then back in the form with the reason', async ({
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
  const notice = refusedNotice(page);
  await expect(notice).toContainText(hostEn.keptSignUp.cardTaken);
  await expect(notice).toContainText(who.email);
  await notice.getByRole('button', { name: hostEn.keptSignUp.review }).click();
  await expect(page.locator('#signup-firstName')).toHaveValue(who.firstName);
  await expect(page.locator('#signup-cardCode')).toHaveValue(/\d{4} \d{4} \d{4} \d{4}/);
  await expect(page.getByText(signupEn.errors.cardCode.already_registered)).toBeVisible();
  await expect(page.locator('#signup-cardCode')).toBeFocused();
});

test('refused with every tab closed: the next time the app opens, on /, the shell shows it with the details, until acted on', async ({
  page,
  context,
  request,
}) => {
  const who = person({ firstName: 'Noor', email: 'noor.offline@example.com' });
  await submitOffline(page, context, who);
  expect(await postSignUp(request, who)).toBe(201); // the card is taken meanwhile
  await page.close();
  await context.setOffline(false);
  const next = await context.newPage();
  const answer = next.waitForResponse((response) => isSignUpPost(response.url(), response.request().method()));
  await next.goto('/');
  expect((await answer).status()).toBe(409); // sent at the start, refused
  const notice = refusedNotice(next);
  await expect(notice).toContainText(hostEn.keptSignUp.cardTaken);
  for (const detail of [who.firstName, who.lastName, who.email, who.phone ?? ''])
    await expect(notice).toContainText(detail);
  await expect(notice).toContainText(who.cardCode.replace(/(\d{4})(?=\d)/g, '$1 '));
  await expect(next.getByRole('heading', { name: introEn.headline })).toBeVisible(); // on /, over the intro

  // "Later": nothing is lost; the next start shows it again.
  await notice.getByRole('button', { name: hostEn.keptSignUp.later }).click();
  await expect(notice).toBeHidden();
  await next.reload();
  await expect(refusedNotice(next)).toContainText(who.email);

  // Acted on: the form, filled, the card at fault; the notice does not come back.
  await refusedNotice(next).getByRole('button', { name: hostEn.keptSignUp.review }).click();
  await expect(pageTitle(next)).toHaveText(signupEn.title);
  await expect(next.locator('#signup-email')).toHaveValue(who.email);
  await expect(next.getByText(signupEn.errors.cardCode.already_registered)).toBeVisible();
  // The form holds it now: nothing is kept that could bring the notice back (else the check below
  // could pass before the notice had had the time to open).
  await expect.poll(() => next.evaluate(readStored, { ...DEVICE_STORAGE, key: STORED.outbox })).toBeNull();
  await next.goto('/thank-you');
  await waitForInteractive(next);
  await expect(refusedNotice(next)).toHaveCount(0);
});

for (const [language, texts, host] of [
  ['en', signupEn, hostEn],
  ['fr', signupFr, hostFr],
  ['ar', signupAr, hostAr],
] as const) {
  test.describe(`the offline messages in ${language}`, () => {
    test.use({ locale: language });
    test('is plain, and has no axe violation', async ({ page, context }) => {
      await submitOffline(page, context, person(), texts);
      await expect(pageTitle(page)).toHaveText(texts.title);
      await expectNoViolations(page, `the queued sign-up (${language})`);
      await context.setOffline(false); // it is sent: the card does not linger for the next test
      await expect(page).toHaveURL(/\/thank-you$/);
    });

    test("the shell's notices of a refused and of an expired kept sign-up are plain, and have no axe violation", async ({
      page,
    }) => {
      const who = person();
      await page.goto('/thank-you');
      await waitForInteractive(page);
      const queuedAt = new Date().toISOString();
      const body = { ...who, acceptedTerms: true };
      await keepOnDevice(page, { state: 'refused', body, queuedAt, fields: { cardCode: 'already_registered' } });
      await page.reload();
      const notice = refusedNotice(page, host);
      await expect(notice).toContainText(host.keptSignUp.cardTaken);
      await expect(notice).toContainText(host.keptSignUp.notAccepted);
      await expect(notice.getByRole('button', { name: host.keptSignUp.review })).toBeVisible();
      await expectNoViolations(page, `the refused kept sign-up (${language})`);
      await notice.getByRole('button', { name: host.keptSignUp.later }).click();

      await keepOnDevice(page, { state: 'expired', queuedAt });
      await page.goto('/');
      const alert = page.getByRole('alertdialog', { name: host.keptSignUp.expiredTitle });
      await expect(alert).toContainText(host.keptSignUp.expired);
      await expectNoViolations(page, `the expired kept sign-up (${language})`);
      await alert.getByRole('button', { name: host.keptSignUp.signUpAgain }).click();
      await expect(pageTitle(page)).toHaveText(texts.title);
    });
  });
}
