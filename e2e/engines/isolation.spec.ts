import hostEn from '../../host/public/assets/i18n/en.json';
import introEn from '../../remote-intro/public/assets/i18n/en.json';
import signupEn from '../../remote-signup/public/assets/i18n/en.json';
import { test } from '../support/engines/fixtures';
import type { Driver } from '../support/engines/driver';
import { clickText, until, untilText, untilTitle } from '../support/engines/page';
import { withRemoteFront } from '../support/remote-front';
import { startApp, stopApp } from '../support/servers';

/**
 * The thank-you remote fails: the other screens still work, and its route shows the host's error
 * screen for it (not a blank page, not the browser's own error), in every engine.
 */
async function othersWorkAndItsScreenSaysSo(driver: Driver) {
  await driver.goto('/');
  await untilText(driver, '#intro-headline', introEn.headline);
  await clickText(driver, 'button', introEn.getStarted);
  await untilTitle(driver, signupEn.title);
  await until(driver, 'the form works', () => document.querySelector('#signup-firstName') !== null);
  await driver.goto('/thank-you');
  await until(
    driver,
    'the error screen',
    (title) => document.body.innerText.includes(title),
    hostEn.remoteError.title,
    30_000,
  );
  await untilText(driver, 'button', hostEn.actions.tryAgain);
}

test('a remote whose server refuses connections: its own error screen, the others work', async ({ driver }) => {
  await stopApp('thankyou');
  try {
    await othersWorkAndItsScreenSaysSo(driver);
  } finally {
    await startApp('thankyou');
  }
});

test('a remote whose server answers 500: its own error screen, the others work', async ({ driver }) => {
  await withRemoteFront(
    'thankyou',
    (_req, res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal Server Error'),
    () => othersWorkAndItsScreenSaysSo(driver),
  );
});
