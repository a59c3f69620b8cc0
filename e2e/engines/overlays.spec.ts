import { expect, test } from '../support/engines/fixtures';
import type { Driver } from '../support/engines/driver';
import {
  ARABIC,
  chooseLanguage,
  focused,
  until,
  untilPreloaded,
  untilOverlayOpen,
  untilVisible,
} from '../support/engines/page';
import { startApp, stopApp } from '../support/servers';
import { person } from '../support/sign-up';

/**
 * Each overlay kind in each engine: it opens as a modal <dialog> in the top layer, takes focus,
 * keeps it while the user tabs, closes on Escape and gives focus back to what opened it.
 */
async function checkOverlay(driver: Driver, { opener, kind }: { opener: string; kind: string }) {
  await driver.evaluate((css) => document.querySelector<HTMLElement>(css)?.setAttribute('data-e2e-opener', ''), opener);
  await driver.click(opener);
  await untilOverlayOpen(driver);
  expect(await driver.evaluate(() => document.querySelector('dialog[open]')?.matches(':modal') ?? false), kind).toBe(
    true,
  );
  await until(driver, `${kind}: focus moved in`, () => document.activeElement?.closest('dialog[open]') !== null);
  // Tab never reaches the page behind: focus stays in the dialog, or leaves for the browser's own
  // UI when it wraps (as a modal dialog allows: one stop in Chromium, the toolbar's in Firefox).
  const stops: string[] = [];
  for (let i = 0; i < 8; i++) {
    await driver.press('Tab');
    const now = await focused(driver);
    stops.push(now.inDialog ? 'dialog' : now.inDocument ? `page behind: ${now.element}` : 'browser UI');
  }
  expect(
    stops.filter((stop) => stop.startsWith('page behind')),
    `${kind}: focus after each Tab`,
  ).toEqual([]);
  await driver.press('Escape');
  await until(driver, `${kind}: closed`, () => document.querySelector('dialog[open]') === null);
  await until(
    driver,
    `${kind}: focus back on the opener`,
    () => document.activeElement?.hasAttribute('data-e2e-opener') ?? false,
  );
}

test('action sheet, modal and popover open, hold focus, close on Escape and give focus back', async ({ driver }) => {
  await driver.goto('/');
  await untilPreloaded(driver);
  await checkOverlay(driver, { opener: '.intro-language', kind: 'action sheet' });
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  await checkOverlay(driver, { opener: '.sg-checkbox__label .signup__help-link', kind: 'modal' });
  await checkOverlay(driver, { opener: '.sg-field__label-row .signup__help-link', kind: 'popover' });
});

test('the alert when the API is down: focus on its buttons, Escape keeps the form', async ({ driver }) => {
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  const who = person();
  for (const [field, value] of [
    ['firstName', who.firstName],
    ['lastName', who.lastName],
    ['email', who.email],
    ['cardCode', who.cardCode],
  ] as const)
    await driver.type(`#signup-${field}`, value);
  await driver.click('#signup-acceptedTerms');
  await stopApp('api');
  try {
    await checkOverlay(driver, { opener: 'form button[type=submit]', kind: 'alert' });
    expect(await driver.evaluate(() => document.querySelector<HTMLInputElement>('#signup-firstName')?.value)).toBe(
      who.firstName,
    );
  } finally {
    await startApp('api');
  }
});

for (const dir of ['ltr', 'rtl'] as const) {
  test(`on a 390 px wide phone the card-help popover stays inside the viewport's margin (${dir})`, async ({
    driver,
  }) => {
    await driver.setViewport(390, 844);
    if (dir === 'rtl') await chooseLanguage(driver, ARABIC);
    await driver.goto('/sign-up');
    await untilPreloaded(driver);
    await driver.click('.sg-field__label-row .signup__help-link');
    await untilVisible(driver, 'dialog[open].sg-popover');
    // Measured once its entry animation has ended: the box then is the one the user sees.
    await until(driver, 'popover settled', () => {
      const dialog = document.querySelector('dialog[open].sg-popover');
      return dialog !== null && dialog.getAnimations().every((animation) => animation.playState === 'finished');
    });
    const box = await driver.evaluate(() => {
      const rect = document.querySelector('dialog[open].sg-popover')!.getBoundingClientRect();
      return { left: rect.left, right: rect.right, width: innerWidth };
    });
    expect(box.width).toBe(390);
    expect(box.left, 'space at the left edge').toBeGreaterThanOrEqual(8 - 0.5);
    expect(box.right, 'space at the right edge').toBeLessThanOrEqual(390 - 8 + 0.5);
  });
}
