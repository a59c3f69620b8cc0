import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { focusProblems as focusProblemsOf, onPage } from '../support/focus-obscured';
import {
  clippedOrOverlappingText,
  horizontalOverflow,
  TEXT_SPACING_CSS,
  undersizedTargets,
} from '../support/layout-checks';
import { binarize, inkShare, pixel, shapeDifference } from '../support/png';
import { fillSignUp, person } from '../support/sign-up';
import { expect, expectConsoleErrors, test, useBrowserLanguage, waitForPreload } from '../support/fixtures';

/*
 * WCAG 2.2 AA on a phone, where axe cannot look: focus not obscured by the sticky toolbar or footer
 * (2.4.11), reflow at 320 CSS px (1.4.10), target size (2.5.8), text spacing (1.4.12), zoom to 200 %
 * (1.4.4), errors told by more than colour (1.4.1, in forced-colours mode too) and the error
 * announcement order. Each check prints one line `check | screen | language | viewport | result`.
 */

// The text-spacing overrides are injected as a <style>, which the app's CSP would block (as it would
// a user's bookmarklet; a user style sheet is not subject to it). Every other spec checks the CSP.
test.use({ bypassCSP: true });

type Language = 'en' | 'ar';

interface Screen {
  name: string;
  /** Opens the screen or overlay; focus is where the app leaves it. */
  open: (page: Page) => Promise<void>;
}

const submitEmpty = async (page: Page) => {
  await page.locator('form button[type=submit]').scrollIntoViewIfNeeded();
  await page.locator('form button[type=submit]').click();
  await expect(page.locator('#signup-firstName')).toHaveAttribute('aria-invalid', 'true');
};

/**
 * The sign-up screen's controls settle once its code runs, Scan card once the browser has said
 * whether there is a camera: the walk then reaches exactly the controls a user has. (A walk that
 * listed Scan card before the answer removed it failed with the machine busy.)
 */
const untilSignUpSettled = async (page: Page) => {
  await expect(page.locator('form.signup__form')).not.toHaveAttribute('aria-busy');
  await waitForPreload(page);
  const hasCamera = await page.evaluate(async () =>
    (await navigator.mediaDevices.enumerateDevices()).some((device) => device.kind === 'videoinput'),
  );
  await expect(page.locator('.signup__scan button')).toHaveCount(hasCamera ? 1 : 0);
};

const openSignUp = async (page: Page) => {
  await page.goto('/sign-up');
  await untilSignUpSettled(page);
};

const SCREENS: Screen[] = [
  {
    name: 'intro',
    open: async (page) => {
      await page.goto('/');
      await expect(page.locator('.intro-hero')).toBeVisible();
      await waitForPreload(page);
    },
  },
  { name: 'sign-up', open: openSignUp },
  {
    // A forward move slides the new page in from the side: it must not leave the page wider.
    name: 'sign-up, from the intro',
    open: async (page) => {
      await page.goto('/');
      await page.locator('.sg-page__footer button').click();
      await untilSignUpSettled(page);
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getTiming().iterations !== Infinity)
            .map((a) => a.finished),
        ),
      );
    },
  },
  {
    name: 'sign-up, empty submit',
    open: async (page) => {
      await openSignUp(page);
      await submitEmpty(page);
    },
  },
  {
    name: 'thank-you',
    open: async (page) => {
      await page.goto('/thank-you');
      await expect(page.locator('.thankyou__headline')).toBeVisible();
      await waitForPreload(page);
    },
  },
  {
    name: 'not-found',
    open: async (page) => {
      await page.goto('/missing');
      await expect(page.locator('.sg-status-view')).toBeVisible();
    },
  },
  {
    name: 'action sheet',
    open: async (page) => {
      await page.goto('/');
      await page.locator('.intro-language').click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'modal',
    open: async (page) => {
      await openSignUp(page);
      await page.locator('.sg-checkbox__label .signup__help-link').click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'popover',
    open: async (page) => {
      await openSignUp(page);
      await page.locator('.sg-field__label-row .signup__help-link').click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'alert',
    open: async (page) => {
      await page.route('**/api/v1/sign-ups', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"error":{"code":"unavailable","message":"down"}}',
        }),
      );
      await openSignUp(page);
      await fillSignUp(page, person());
      await page.locator('form button[type=submit]').click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await page.unroute('**/api/v1/sign-ups');
    },
  },
];

const label = (viewport: { width: number; height: number }) => `${viewport.width}×${viewport.height}`;

/** One line of the results table the closing note is made of. */
function record(check: string, screen: string, language: Language, viewport: string, problems: string[]) {
  console.log(
    `${check} | ${screen} | ${language} | ${viewport} | ${problems.length === 0 ? 'pass' : `FAIL: ${problems.join('; ')}`}`,
  );
}

const focusProblems = (page: Page) => focusProblemsOf(onPage(page));

async function textSpacingProblems(page: Page): Promise<string[]> {
  const style = await page.addStyleTag({ content: TEXT_SPACING_CSS });
  const problems = [...(await clippedOrOverlappingText(page)), ...(await horizontalOverflow(page))];
  await style.evaluate((node) => (node as HTMLStyleElement).remove());
  return problems;
}

/** The card (the fieldset's white surface) reaches above its legend: the legend sits inside it. */
async function legendProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  const rtl = (await page.locator('html').getAttribute('dir')) === 'rtl';
  for (const group of await page.locator('fieldset.signup__group').all()) {
    // The card's top half-way down the viewport (or as far as the page scrolls): clear of the toolbar.
    await group.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2));
    const card = (await group.boundingBox())!;
    const legend = (await group.locator('legend').boundingBox())!;
    const shot = await page.screenshot({
      clip: { x: card.x, y: card.y, width: card.width, height: legend.y + legend.height - card.y + 8 },
      scale: 'css',
      animations: 'disabled',
    });
    // At the inline end of the legend's line, where its short text never reaches: just inside the
    // legend's top, and just under the legend (inside the card in any layout).
    const x = rtl ? 20 : card.width - 20;
    const above = pixel(shot, x, legend.y - card.y + 2);
    const surface = pixel(shot, x, legend.y + legend.height - card.y + 4);
    if (above.some((channel, i) => Math.abs(channel - surface[i]!) > 3)) {
      problems.push(
        `legend "${await group.locator('legend').textContent()}" sits outside its card (rgb ${above.join(',')} above it, card rgb ${surface.join(',')})`,
      );
    }
  }
  return problems;
}

const PHONES = [
  { width: 320, height: 568 },
  { width: 390, height: 844 },
];

for (const viewport of PHONES) {
  for (const language of ['en', 'ar'] as const) {
    test.describe(`phone ${label(viewport)}, ${language}`, () => {
      test.use({ viewport });
      useBrowserLanguage(language);

      test('focus is never hidden by a bar; reflow, target size and text spacing hold on every screen and overlay', async ({
        page,
      }) => {
        expectConsoleErrors('the sign-up POST answers 503 on purpose, to show the alert');
        for (const screen of SCREENS) {
          await test.step(screen.name, async () => {
            await screen.open(page);
            await expect(page.locator('html')).toHaveAttribute('lang', language);
            const checks: [string, () => Promise<string[]>][] = [
              ['reflow (1.4.10)', () => horizontalOverflow(page)],
              ['target size (2.5.8)', () => undersizedTargets(page)],
              ['focus not obscured (2.4.11)', () => focusProblems(page)],
              ['text spacing (1.4.12)', () => textSpacingProblems(page)],
            ];
            if (screen.name === 'sign-up') checks.push(['legend inside its card', () => legendProblems(page)]);
            for (const [check, run] of checks) {
              const problems = await run();
              record(check, screen.name, language, label(viewport), problems);
              expect.soft(problems, `${check} on ${screen.name}`).toEqual([]);
            }
          });
        }
      });
    });
  }
}

// Browser zoom at 200 % halves the CSS viewport and doubles the device pixel ratio (Pixel 7: 2.625).
const ZOOMED = { viewport: { width: 195, height: 422 }, deviceScaleFactor: 5.25 };

for (const language of ['en', 'ar'] as const) {
  test.describe(`zoom 200 % on 390×844, ${language}`, () => {
    test.use(ZOOMED);
    useBrowserLanguage(language);

    test('every control is reached by the keyboard and shown clear of the bars', async ({ page }) => {
      expectConsoleErrors('the sign-up POST answers 503 on purpose, to show the alert');
      for (const screen of SCREENS) {
        await test.step(screen.name, async () => {
          await screen.open(page);
          const problems = await focusProblems(page);
          record('zoom 200 % (1.4.4)', screen.name, language, '390×844 @200%', problems);
          expect.soft(problems, `zoom 200 % on ${screen.name}`).toEqual([]);
        });
      }
    });
  });
}

/** Where the before/after screenshots go when asked for (`A11Y_EVIDENCE_DIR`); never into the repo. */
const EVIDENCE_DIR = process.env.A11Y_EVIDENCE_DIR;

for (const language of ['en', 'ar'] as const) {
  test.describe(`errors without colour, ${language}`, () => {
    test.use({ viewport: { width: 390, height: 844 } });
    useBrowserLanguage(language);

    for (const forcedColors of ['none', 'active'] as const) {
      test(`an invalid field differs from a valid one in shape, forced colours ${forcedColors}`, async ({ page }) => {
        await page.emulateMedia({ forcedColors });
        await openSignUp(page);
        const field = page.locator('.sg-field').filter({ has: page.locator('#signup-cardCode') });
        const input = page.locator('#signup-cardCode');
        const shoot = async () => {
          const box = (await input.boundingBox())!;
          return page.screenshot({
            clip: { x: box.x - 2, y: box.y - 2, width: box.width + 4, height: box.height + 4 },
            scale: 'css',
            animations: 'disabled',
          });
        };
        // Ink is any line darker than the white field and card (normal mode), or the system text
        // colour (forced colours): a grey border and a red one are then the same ink.
        const threshold = forcedColors === 'active' ? 128 : 245;
        if (EVIDENCE_DIR) mkdirSync(EVIDENCE_DIR, { recursive: true });
        await input.scrollIntoViewIfNeeded();
        const hint = binarize(await shoot(), threshold);
        if (EVIDENCE_DIR)
          await field.screenshot({ path: join(EVIDENCE_DIR, `hint-${language}-forced-${forcedColors}.png`) });

        await submitEmpty(page);
        await expect(input).toHaveAttribute('aria-invalid', 'true');
        if (EVIDENCE_DIR) {
          // What the user sees right after the submit (focus on First name), then the whole form.
          await page.screenshot({
            path: join(EVIDENCE_DIR, `submitted-${language}-forced-${forcedColors}.png`),
            animations: 'disabled',
          });
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({
            path: join(EVIDENCE_DIR, `errors-${language}-forced-${forcedColors}.png`),
            fullPage: true,
            animations: 'disabled',
          });
        }
        await input.scrollIntoViewIfNeeded();
        const error = binarize(await shoot(), threshold);

        // The same field, empty and not focused in both: only the error styling differs.
        const difference = shapeDifference(hint, error);
        console.log(
          `input outline, hint vs error (${language}, forced ${forcedColors}): ink ${(inkShare(hint) * 100).toFixed(1)}% vs ${(inkShare(error) * 100).toFixed(1)}%, ${(difference * 100).toFixed(1)}% of pixels differ`,
        );
        expect(difference, 'binarized input, hint state vs error state').toBeGreaterThan(0.02);

        // Every error message starts with a warning icon drawn in the text colour.
        const messages = page.locator('.sg-field__error:not(:empty)');
        expect(await messages.count()).toBe(5);
        for (const message of await messages.all()) {
          const icon = message.locator('.sg-field__error-icon');
          await expect(icon).toBeVisible();
          await icon.scrollIntoViewIfNeeded();
          const ink = inkShare(
            binarize(
              await icon.screenshot({ scale: 'css', animations: 'disabled' }),
              forcedColors === 'active' ? 128 : 200,
            ),
          );
          expect(ink, `ink of the icon of "${await message.textContent()}"`).toBeGreaterThan(0.15);
        }
        // The hint has none: the icon is what marks a message as an error.
        await expect(page.locator('.sg-field__hint .sg-field__error-icon')).toHaveCount(0);
      });
    }
  });
}

/**
 * Error summary (GOV.UK: a list of links at the top of the form, focused on submit) or inline
 * messages only (focus on the first invalid field)? Both measured on the real form after an empty
 * submit: keystrokes from the submit to each invalid field, and how often each message is heard.
 * The summary is built in the page for the measurement only, the way GOV.UK builds it.
 */
test.describe('error summary or inline messages', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('inline messages reach the invalid fields in fewer keystrokes, each message heard once', async ({ page }) => {
    await openSignUp(page);
    await submitEmpty(page);
    const invalid = await page
      .locator('[aria-invalid="true"]')
      .evaluateAll((inputs) => inputs.map((input) => input.id));
    expect(invalid).toEqual([
      'signup-firstName',
      'signup-lastName',
      'signup-email',
      'signup-cardCode',
      'signup-acceptedTerms',
    ]);

    // Messages a live region would announce at the submit, on top of each field's own description.
    const liveAtSubmit = await page
      .locator('.sg-field__error:not(:empty)')
      .evaluateAll((nodes) => nodes.filter((node) => node.getAttribute('aria-live') !== 'off').length);
    const focusedDescription = await page.evaluate(() => {
      const ids = document.activeElement?.getAttribute('aria-describedby')?.split(' ') ?? [];
      return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    });
    expect(focusedDescription, 'the first invalid field is read with its message').toContain('Enter your first name.');

    const activeId = () => page.evaluate(() => document.activeElement?.id ?? '');
    const activeHref = () => page.evaluate(() => document.activeElement?.getAttribute('href') ?? '');
    /**
     * Keystrokes from `start` (focused by script, as the submit does) until `target` has focus:
     * Tab until it, or (through a summary) Tab until its link and Enter.
     */
    const keystrokesTo = async (start: string, target: string, through: 'fields' | 'summary') => {
      await page.locator(`#${start}`).focus();
      for (let keys = 0; keys <= 20; keys++) {
        if ((await activeId()) === target) return keys;
        if (through === 'summary' && (await activeHref()) === `#${target}`) {
          await page.keyboard.press('Enter');
          return (await activeId()) === target ? keys + 1 : Number.NaN;
        }
        await page.keyboard.press('Tab');
      }
      return Number.NaN;
    };

    const inline: number[] = [];
    for (const id of invalid) inline.push(await keystrokesTo(invalid[0]!, id, 'fields'));

    await page.evaluate((ids) => {
      const summary = Object.assign(document.createElement('div'), { id: 'measured-summary', tabIndex: -1 });
      summary.setAttribute('role', 'alert');
      const list = document.createElement('ul');
      for (const id of ids) {
        const link = Object.assign(document.createElement('a'), {
          href: `#${id}`,
          textContent: document.getElementById(`${id}-error`)?.textContent ?? id,
        });
        link.addEventListener('click', (event) => {
          event.preventDefault();
          document.getElementById(id)?.focus();
        });
        const item = document.createElement('li');
        item.append(link);
        list.append(item);
      }
      summary.append(Object.assign(document.createElement('h2'), { textContent: 'There is a problem' }), list);
      document.querySelector('form')?.prepend(summary);
    }, invalid);
    const summary: number[] = [];
    for (const id of invalid) summary.push(await keystrokesTo('measured-summary', id, 'summary'));

    const heardInline = liveAtSubmit / invalid.length + 1; // live regions at the submit, then with its field
    const heardSummary = 1 + 1; // the summary (role=alert) lists it, then its field's description reads it
    console.log('keystrokes from the submit to each invalid field (inline | summary):');
    invalid.forEach((id, i) => console.log(`  ${id}: ${inline[i]} | ${summary[i]}`));
    console.log(
      `  total: ${inline.reduce((a, b) => a + b, 0)} | ${summary.reduce((a, b) => a + b, 0)}; each message heard ${heardInline} | ${heardSummary} time(s)`,
    );

    expect(summary.every(Number.isFinite), 'every summary link leads to its field').toBe(true);
    const total = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
    expect(inline[0], 'the first message is heard without a keystroke').toBe(0);
    expect(total(inline), 'keystrokes to reach every invalid field, one after the other from the submit').toBeLessThan(
      total(summary),
    );
    expect(heardInline, 'each message is heard once').toBe(1);
  });
});
