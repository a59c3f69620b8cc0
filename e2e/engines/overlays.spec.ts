import { expect, test } from '../support/engines/fixtures';
import type { Driver } from '../support/engines/driver';
import {
  ARABIC,
  chooseLanguage,
  overlayFocus,
  until,
  untilPreloaded,
  untilOverlayOpen,
  untilText,
  untilVisible,
} from '../support/engines/page';
import { DEVICE_STORAGE, readStored, STORED } from '../support/device-storage';
import { startApp, stopApp } from '../support/servers';
import { person } from '../support/sign-up';

/**
 * The focus trap, walked strictly: the window has focus, then Tab and Shift+Tab each go round the
 * dialog's stops more than twice. After every key focus must be on the next stop (the previous one
 * for Shift+Tab), wrapping at the ends, with the document focused: `<body>`, the page behind, the
 * browser's own UI (the document losing focus) all fail. A dialog with no stop keeps focus on
 * itself.
 */
async function expectFocusTrapped(driver: Driver, kind: string) {
  const start = await overlayFocus(driver);
  expect(start.documentFocused, `${kind}: the window has focus before the walk`).toBe(true);
  expect(
    start.stop,
    `${kind}: focus starts on the dialog or one of its stops (${start.element})`,
  ).toBeGreaterThanOrEqual(-1);
  const { stops } = start;
  const wrong: string[] = [];
  for (const key of ['Tab', 'Shift+Tab'] as const) {
    let at = (await overlayFocus(driver)).stop;
    for (let pressed = 0; pressed < 2 * stops + 3; pressed++) {
      await driver.press(key);
      const now = await overlayFocus(driver);
      const step = key === 'Tab' ? 1 : -1;
      const expected = stops === 0 ? -1 : at < 0 ? (key === 'Tab' ? 0 : stops - 1) : (at + step + stops) % stops;
      if (now.stop !== expected || !now.documentFocused)
        wrong.push(
          `${key} ${pressed + 1}: ${now.element} (stop ${now.stop}, expected ${expected})${now.documentFocused ? '' : ', the document has lost focus'}`,
        );
      at = now.stop;
    }
  }
  expect(wrong, `${kind}: focus after each key (${stops} stops)`).toEqual([]);
}

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
  await expectFocusTrapped(driver, kind);
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

test('the draft toast is a status, not a trap: it takes no focus and has no Tab stop, the page keeps focus', async ({
  driver,
}) => {
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  await driver.type('#signup-firstName', 'Hana');
  // The draft is saved 300 ms after typing stops: reloaded once it is kept.
  await expect
    .poll(() => driver.evaluate(readStored, { ...DEVICE_STORAGE, key: STORED.draft }), {
      message: `${driver.engine}: the draft kept`,
    })
    .toMatchObject({ values: { firstName: 'Hana' } });
  await driver.reload();
  await untilText(driver, '.sg-toast__message', 'We restored what you entered earlier.');
  const toastFocus = () =>
    driver.evaluate(() => ({
      documentFocused: document.hasFocus(),
      onPage: document.activeElement !== null && document.activeElement !== document.body,
      inToast: document.activeElement?.closest('.sg-toast-region') !== null,
      toastStops: document.querySelectorAll('.sg-toast-region :is(a[href], button, input, [tabindex])').length,
    }));
  // A freshly loaded page has focus on <body>; the toast must not move it into itself.
  expect(await toastFocus(), 'as the toast shows').toEqual({
    documentFocused: true,
    onPage: false,
    inToast: false,
    toastStops: 0,
  });
  await driver.press('Tab');
  expect(await toastFocus(), 'after Tab: on the page, not in the toast').toEqual({
    documentFocused: true,
    onPage: true,
    inToast: false,
    toastStops: 0,
  });
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
