import { expect, test } from '../support/engines/fixtures';
import type { Driver } from '../support/engines/driver';
import { ARABIC, chooseLanguage, until, untilPreloaded, untilOverlayOpen } from '../support/engines/page';
import { focusProblems } from '../support/focus-obscured';

/**
 * The phone checks of e2e/tests/phone-accessibility.spec.ts that keyboard focus makes (WCAG 2.2
 * 2.4.11, focus not obscured by the sticky toolbar or footer), at 390 × 844, in each engine: the
 * same page-side measurement (support/focus-obscured.ts), run through the engine's driver.
 */
const openSignUp = async (driver: Driver) => {
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  await until(driver, 'form ready', () => !document.querySelector('form.signup__form')?.hasAttribute('aria-busy'));
  // The prerendered page shows Scan card; once hydrated, the screen asks the browser for its camera
  // list and drops the button if there is none. The focus walk starts after that answer, or it
  // counts a button that goes away under it.
  await driver.evaluate(() => {
    const flag = window as unknown as { __sgHasCamera?: boolean };
    if (!navigator.mediaDevices?.enumerateDevices)
      flag.__sgHasCamera = typeof navigator.mediaDevices?.getUserMedia === 'function';
    else
      void navigator.mediaDevices
        .enumerateDevices()
        .then((list) => (flag.__sgHasCamera = list.some((device) => device.kind === 'videoinput')));
  });
  await until(driver, 'the camera answer applied', () => {
    const hasCamera = (window as unknown as { __sgHasCamera?: boolean }).__sgHasCamera;
    return hasCamera !== undefined && hasCamera === (document.querySelector('.signup__scan button') !== null);
  });
};

const SCREENS: Array<{ name: string; open: (driver: Driver) => Promise<void> }> = [
  {
    name: 'intro',
    open: async (driver) => {
      await driver.goto('/');
      await untilPreloaded(driver);
    },
  },
  { name: 'sign-up', open: openSignUp },
  {
    name: 'sign-up, empty submit',
    open: async (driver) => {
      await openSignUp(driver);
      await driver.click('form button[type=submit]');
      await until(driver, 'errors shown', () => document.activeElement?.id === 'signup-firstName');
    },
  },
  {
    name: 'thank-you',
    open: async (driver) => {
      await driver.goto('/thank-you');
      await untilPreloaded(driver);
    },
  },
  {
    name: 'action sheet',
    open: async (driver) => {
      await driver.goto('/');
      await untilPreloaded(driver);
      await driver.click('.intro-language');
      await untilOverlayOpen(driver);
    },
  },
  {
    name: 'modal',
    open: async (driver) => {
      await openSignUp(driver);
      await driver.click('.sg-checkbox__label .signup__help-link');
      await untilOverlayOpen(driver);
    },
  },
  {
    name: 'popover',
    open: async (driver) => {
      await openSignUp(driver);
      await driver.click('.sg-field__label-row .signup__help-link');
      await untilOverlayOpen(driver);
    },
  },
];

for (const language of ['en', 'ar'] as const) {
  test(`phone 390×844 (${language}): focus is never hidden by a bar, and Tab reaches every control`, async ({
    driver,
  }) => {
    test.setTimeout(120_000);
    if (language === 'ar') await chooseLanguage(driver, ARABIC);
    await driver.setViewport(390, 844);
    for (const screen of SCREENS) {
      await screen.open(driver);
      const problems = await focusProblems(driver);
      console.log(
        `focus not obscured (2.4.11) | ${screen.name} | ${language} | 390×844 | ${driver.engine} | ${problems.length ? `FAIL: ${problems.join('; ')}` : 'pass'}`,
      );
      expect.soft(problems, `${driver.engine}: ${screen.name}`).toEqual([]);
    }
  });
}
