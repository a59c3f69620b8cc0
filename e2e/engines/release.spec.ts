import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAGE_BUILDS_ATTRIBUTE, parsePageBuilds } from '@special-gift/shared/composition';
import introEn from '../../remote-intro/public/assets/i18n/en.json';
import signupEn from '../../remote-signup/public/assets/i18n/en.json';
import { cameraShowsQr } from '../support/engines/camera';
import { expect, test } from '../support/engines/fixtures';
import type { Driver } from '../support/engines/driver';
import { clickText, fieldValue, until, untilPreloaded, untilTitle } from '../support/engines/page';
import { deployBuild, distOf, wwwRoot } from '../support/nginx';
import { publish, release } from '../support/releases';
import { newCardCode } from '../support/sign-up';
import { E2E_PORTS, STATE_DIR } from '../support/topology';

const CARD_SCAN_BASE = 'https://www.special-gift.example/scan';
const SIGNUP_ORIGIN = `http://localhost:${E2E_PORTS.signup}`;

const pageBuilds = async (driver: Driver) =>
  parsePageBuilds(
    await driver.evaluate((attribute) => document.documentElement.getAttribute(attribute), PAGE_BUILDS_ATTRIBUTE),
  );

/**
 * B: this checkout's sign-up build with one text file changed, as a team's next build (another
 * build id, other files), without a second webpack run.
 */
function variantOfSignup(): string {
  const dir = join(STATE_DIR, 'engines-release-b');
  rmSync(dir, { recursive: true, force: true });
  cpSync(distOf('signup'), dir, { recursive: true });
  const texts = join(dir, 'assets', 'i18n', 'en.json');
  writeFileSync(texts, JSON.stringify({ ...JSON.parse(readFileSync(texts, 'utf8')), releaseNote: 'build B' }));
  return dir;
}

test('an open tab across a release keeps its build (its files gone from the root), a new tab gets the new one', async ({
  driver,
  engineBrowser,
}) => {
  test.setTimeout(120_000);
  const variant = variantOfSignup();
  const buildA = publish('signup', distOf('signup'));
  const buildB = publish('signup', variant);
  expect(buildB).not.toBe(buildA);
  release('release', 'signup', buildA, '--reason', 'e2e engines: start from A');
  try {
    await driver.goto('/');
    await untilPreloaded(driver);
    expect((await pageBuilds(driver)).signup).toBe(buildA);

    // The team releases B, and its image (B) replaces A's files at the remote's root.
    release('release', 'signup', buildB, '--reason', 'e2e engines: ship B');
    rmSync(wwwRoot('signup'), { recursive: true, force: true });
    deployBuild('signup', variant);

    // The open tab goes on to the sign-up screen and scans a card: the scanner's code, fetched
    // only now, comes from A's folder of the build store.
    const code = newCardCode();
    await cameraShowsQr(driver, `${CARD_SCAN_BASE}/sign-up?card=${code}`);
    await clickText(driver, 'button', introEn.getStarted);
    await untilTitle(driver, signupEn.title);
    await driver.click('.signup__scan button');
    await until(
      driver,
      'card read by the scanner of build A',
      (expected) => document.querySelector<HTMLInputElement>('#signup-cardCode')?.value === expected,
      code.replace(/(\d{4})(?=\d)/g, '$1 '),
      20_000,
    );
    const fetched = await driver.evaluate(
      (origin) =>
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => name.startsWith(origin)),
      SIGNUP_ORIGIN,
    );
    expect(fetched.some((url) => /card-scanner\.[0-9a-f]+\.js$/.test(url))).toBe(true);
    expect(fetched.filter((url) => !url.startsWith(`${SIGNUP_ORIGIN}/builds/${buildA}/`))).toEqual([]);

    // The old tab closes first: WebKitGTK's driver runs one browser session at a time.
    await driver.close();
    const newTab = await engineBrowser.open();
    try {
      await newTab.goto('/sign-up');
      await untilPreloaded(newTab);
      expect((await pageBuilds(newTab)).signup).toBe(buildB);
      expect(await fieldValue(newTab, '#signup-cardCode')).toBe('');
    } finally {
      await newTab.close();
    }
  } finally {
    release('detach', 'signup', '--reason', 'e2e engines: back to the image build');
    rmSync(wwwRoot('signup'), { recursive: true, force: true });
    deployBuild('signup', distOf('signup'));
    rmSync(variant, { recursive: true, force: true });
  }
});
