import { readFileSync } from 'node:fs';
import { expect, test } from '../support/engines/fixtures';
import type { Driver } from '../support/engines/driver';
import {
  ARABIC,
  chooseLanguage,
  fillSignUp,
  until,
  untilPreloaded,
  untilOverlayOpen,
  untilVisible,
} from '../support/engines/page';
import { startApp, stopApp } from '../support/servers';
import { person } from '../support/sign-up';

/** axe-core's browser build, injected as a script: the same rules in every engine. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function expectNoViolations(driver: Driver, what: string) {
  const violations = await driver.evaluateWithLibrary(AXE_SOURCE, async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
    }
    const results = await axe.run(document);
    return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `${driver.engine}: axe violations on ${what}`).toEqual([]);
}

/** The pages and overlays the Chromium suite checks (e2e/tests/accessibility.spec.ts), in each engine. */
for (const language of ['en', 'ar'] as const) {
  test(`axe (${language}): every screen and overlay has no violations`, async ({ driver }) => {
    if (language === 'ar') await chooseLanguage(driver, ARABIC);
    for (const [path, ready] of [
      ['/', '.intro-hero'],
      ['/sign-up', '#signup-firstName'],
      ['/thank-you', '.thankyou__headline'],
      ['/missing', '.sg-status-view'],
    ] as const) {
      await driver.goto(path);
      await untilPreloaded(driver);
      await untilVisible(driver, ready);
      expect(await driver.evaluate(() => document.documentElement.lang)).toBe(language);
      await expectNoViolations(driver, path);
    }

    await driver.goto('/sign-up');
    await untilPreloaded(driver);
    await driver.click('form button[type=submit]'); // every inline error shown
    await until(
      driver,
      'inline errors',
      () => document.querySelector('#signup-firstName')?.getAttribute('aria-invalid') === 'true',
    );
    await expectNoViolations(driver, 'sign-up with errors');

    for (const [opener, what] of [
      ['.sg-checkbox__label .signup__help-link', 'modal'],
      ['.sg-field__label-row .signup__help-link', 'popover'],
    ] as const) {
      await driver.click(opener);
      await untilOverlayOpen(driver);
      await expectNoViolations(driver, what);
      await driver.press('Escape');
      await until(driver, `${what} closed`, () => document.querySelector('dialog[open]') === null);
    }

    // The alert (the API is down when the form is sent), then the draft's toast after a reload.
    await fillSignUp(driver, person());
    await stopApp('api');
    try {
      await driver.click('form button[type=submit]');
      await untilVisible(driver, 'dialog[open][role=alertdialog]');
      await untilOverlayOpen(driver);
      await expectNoViolations(driver, 'alert');
      await driver.press('Escape');
      await until(driver, 'alert closed', () => document.querySelector('dialog[open]') === null);
    } finally {
      await startApp('api');
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // the draft is saved after a pause
    await driver.reload();
    await untilPreloaded(driver);
    await until(driver, 'draft toast', () =>
      [...document.querySelectorAll('.sg-toast__message')].some(
        (toast) => (toast.textContent ?? '').trim() !== '' && toast.getClientRects().length > 0,
      ),
    );
    await expectNoViolations(driver, 'draft toast');

    await driver.goto('/');
    await untilPreloaded(driver);
    await driver.click('.intro-language');
    await untilOverlayOpen(driver);
    await expectNoViolations(driver, 'action sheet');
  });
}
