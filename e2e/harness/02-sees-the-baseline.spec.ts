import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import en from '../../remote-signup/public/assets/i18n/en.json';
import { expect, pageTitle, test } from '../support/fixtures';
import { distOf } from '../support/nginx';
import { buildsInHtml, pageBuilds } from '../support/releases';
import { isPortOpen } from '../support/servers';
import { API_URL, E2E_OPERATOR_TOKEN, E2E_PORTS, HOST_URL } from '../support/topology';

/** Runs after 01's timeout, in the worker Playwright starts after a failure: it sees the baseline. */
test('the next test sees the suite as it was: no pointer, no lock, every server up, default settings', async ({
  page,
}) => {
  for (const remote of ['intro', 'signup'] as const) {
    const state = (await (
      await fetch(`${API_URL}/v1/releases/remotes/${remote}`, {
        headers: { Authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
      })
    ).json()) as { pointer: unknown; lock: unknown };
    expect(state.pointer, `${remote}'s pointer`).toBeNull();
    expect(state.lock, `${remote}'s lock`).toBeNull();
  }
  for (const bucket of [0, 10, 50, 99]) {
    const html = await (await fetch(`${HOST_URL}/sign-up`, { headers: { Cookie: `sg_bucket=${bucket}` } })).text();
    expect(buildsInHtml(html), `bucket ${bucket}'s page`).toEqual({});
  }
  expect(await isPortOpen(E2E_PORTS.thankyou), 'the thank-you server is up').toBe(true);
  const config = (await (await fetch(`${HOST_URL}/config.json`)).json()) as { serviceWorker: boolean };
  expect(config.serviceWorker, "the host's default settings").toBe(true);
  const worker = await (await fetch(`${HOST_URL}/service-worker.js`)).text();
  expect(worker, "the host serves its own build's worker").toBe(
    readFileSync(join(distOf('host'), 'service-worker.js'), 'utf8'),
  );
  const served = await (await fetch(`http://localhost:${E2E_PORTS.signup}/remoteEntry.js`)).text();
  expect(served, "the sign-up origin serves its own build's entry").toBe(
    readFileSync(join(distOf('signup'), 'remoteEntry.js'), 'utf8'),
  );
  await page.goto('/sign-up');
  expect(await pageBuilds(page)).toEqual({});
  await expect(pageTitle(page)).toHaveText(en.title);
});
