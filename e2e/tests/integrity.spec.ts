import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from '@playwright/test';
import { PAGE_INTEGRITY_ATTRIBUTE, parsePageIntegrity } from '@special-gift/shared/composition';
import { sriOf } from '../../release-cli/src/sri';
import { pageBootstrapScript } from '../../tooling/composition/composition';
import { expect, expectConsoleErrors, test } from '../support/fixtures';
import { distOf, wwwRoot } from '../support/nginx';
import { pageBuilds, publish, release } from '../support/releases';
import { breakRemote, REMOTE_NAMES, remoteOrigin, SCREENS, type RemoteName } from '../support/remote-failures';
import { collectorRunning, hideAndCollect } from '../support/telemetry';
import { HOST_URL } from '../support/topology';
import { restoreSuiteState } from '../support/suite-state';

/**
 * Integrity, fail closed (docs/security.md): with every remote released, a file of a remote's
 * published build whose bytes differ by one from what was published is refused by the browser.
 * The route shows its error screen, the other remotes keep working, and field telemetry reports
 * kind `integrity` for that remote and build. Bytes are changed on the way (as a compromised CDN
 * would), so the published store stays intact for the other specs.
 */
test.describe.configure({ mode: 'serial' });

const builds: Partial<Record<RemoteName, string>> = {};

test.describe('every remote released', () => {
  test.beforeAll(() => {
    test.setTimeout(120_000);
    for (const remote of REMOTE_NAMES) {
      builds[remote] = publish(remote, distOf(remote));
      release('release', remote, builds[remote], '--reason', 'e2e: integrity');
    }
  });

  test.afterAll(async () => {
    await restoreSuiteState();
  });

  /**
   * One byte changed: the first digit, else the last lower-case letter (inside a text's value): still
   * valid code, JSON or CSS, so only its hash tells.
   */
  function oneByteChanged(body: Buffer): Buffer {
    const changed = Buffer.from(body);
    let at = changed.findIndex((byte) => byte >= 0x30 && byte <= 0x38);
    if (at < 0) at = changed.findLastIndex((byte) => byte >= 0x61 && byte <= 0x79);
    if (at < 0) throw new Error('no byte to change');
    changed[at] = (changed[at] ?? 0x30) + 1;
    return changed;
  }

  const inBuild = (route: Route, file: RegExp) =>
    /\/builds\/[0-9a-f]{12}\//.test(route.request().url()) && file.test(new URL(route.request().url()).pathname);

  /** Each kind of tampering: which file of a build it changes. */
  const TAMPERED: Record<string, RegExp> = {
    'remoteEntry.js': /\/remoteEntry\.js$/,
    'screen chunk': /\/__federation_expose_Screen\.[0-9a-f]+\.js$/,
    'CSS chunk': /\/__federation_expose_Screen\.[0-9a-f]+\.css$/,
    'texts file': /\/assets\/i18n\/[a-z]+\.json$/,
  };

  const tamper = (file: RegExp) => async (route: Route) => {
    if (!inBuild(route, file)) return route.continue();
    const response = await route.fetch();
    return route.fulfill({
      response,
      headers: { ...response.headers(), 'cache-control': 'no-store' },
      body: oneByteChanged(await response.body()),
    });
  };

  test('the page carries the hashes recorded at publish for each released entry and its texts', async ({ page }) => {
    await page.goto('/');
    await expect.poll(async () => pageBuilds(page), { timeout: 10_000 }).toEqual(builds);
    const integrity = parsePageIntegrity(await page.locator('html').getAttribute(PAGE_INTEGRITY_ATTRIBUTE));
    for (const remote of REMOTE_NAMES) {
      const dist = distOf(remote);
      expect(integrity[`${remote}/remoteEntry.js`]).toBe(sriOf(readFileSync(join(dist, 'remoteEntry.js'))));
      expect(integrity[`${remote}/assets/i18n/ar.json`]).toBe(sriOf(readFileSync(join(dist, 'assets/i18n/ar.json'))));
      // The shared modules' chunks (never loaded beside this host, which provides them itself) and
      // every other chunk: their hashes travel inside the entry, checked by webpack's chunk loader.
      const entry = readFileSync(join(dist, 'remoteEntry.js'), 'utf8');
      const manifest = JSON.parse(readFileSync(join(dist, 'mf-manifest.json'), 'utf8')) as {
        shared: Array<{ assets: { js: { sync: string[] } } }>;
      };
      for (const chunk of manifest.shared.flatMap((shared) => shared.assets.js.sync))
        expect(entry, `${remote}: ${chunk}`).toContain(sriOf(readFileSync(join(dist, chunk))));
    }
  });

  test('one byte changed in any file of a remote: refused, that screen’s error, the others unaffected, telemetry kind integrity', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    expectConsoleErrors('the browser reports each refused file, and the host the failed load');
    const matrix: string[] = [];
    // A tamper kind's three remotes at once, each in its own context: a third of the time of one
    // page after another.
    for (const [kind, file] of Object.entries(TAMPERED)) {
      const lines = await Promise.all(
        REMOTE_NAMES.map(async (remote) => {
          const context = await browser.newContext({ baseURL: HOST_URL });
          try {
            const page = await context.newPage();
            await breakRemote(page, remote, tamper(file));
            await page.goto(SCREENS[remote].path);
            const alert = page.getByRole('alert').first();
            await expect(alert, `${kind} × ${remote}`).toBeVisible({ timeout: 30_000 });
            const seen = (await alert.innerText()).replace(/\s+/g, ' ').trim();
            expect(seen, 'nothing technical').not.toMatch(/integrity|sha384|hash|script|chunk/i);
            await collectorRunning(page);
            const { batch } = await hideAndCollect(page);
            const failure = batch.events.find((event) => event.type === 'load_failure' && event.remote === remote);
            expect(failure?.kind, `${kind} × ${remote}`).toBe('integrity');
            expect(batch.builds[remote]).toBe(builds[remote]);
            // Another remote in the same browser: its screen shows.
            const other = REMOTE_NAMES.find((name) => name !== remote) as RemoteName;
            await page.goto(SCREENS[other].path);
            await page.waitForFunction(() => document.querySelector('[data-page-title]') !== null);
            await expect(page.getByText(SCREENS[other].text.en).first()).toBeVisible({ timeout: 30_000 });
            await expect(page.getByRole('alert')).toHaveCount(0);
            // The idle preload of the other remotes may still be going through the handler.
            await page.unrouteAll({ behavior: 'ignoreErrors' });
            return `${kind} × ${remote} → "${seen.slice(0, 60)}…"; telemetry ${String(failure?.phase)}/${String(failure?.kind)} build ${String(batch.builds[remote])}`;
          } finally {
            await context.close();
          }
        }),
      );
      matrix.push(...lines);
    }
    console.log(`integrity matrix (tamper kind × remote → user saw; telemetry):\n  ${matrix.join('\n  ')}`);
  });
});

test('with requireIntegrity, a remote without a recorded hash (no release) is refused; a released one loads', async ({
  page,
}) => {
  test.setTimeout(120_000);
  expectConsoleErrors('the browser reports the refused entry, and the host the failed load');
  // The operator's setting (REQUIRE_INTEGRITY, written into config.json by the host's start-up).
  await page.route('**/config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), requireIntegrity: true } });
  });
  const signup = publish('signup', distOf('signup'));
  release('release', 'signup', signup, '--reason', 'e2e: requireIntegrity');
  try {
    await expect
      .poll(async () => (await page.goto('/sign-up'), pageBuilds(page)), { timeout: 10_000 })
      .toEqual({
        signup,
      });
    await expect(page.getByText(SCREENS.signup.text.en).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('alert')).toHaveCount(0);

    // The intro runs its image's own build: the API has no hash for it, so nothing of it runs.
    await page.goto(SCREENS.intro.path);
    const alert = page.getByRole('alert').first();
    await expect(alert).toBeVisible({ timeout: 30_000 });
    expect((await alert.innerText()).replace(/\s+/g, ' ')).not.toMatch(/integrity|sha384|hash|script|chunk/i);
    await collectorRunning(page);
    const { batch } = await hideAndCollect(page);
    const failure = batch.events.find((event) => event.type === 'load_failure' && event.remote === 'intro');
    expect(failure?.kind).toBe('integrity');
  } finally {
    release('detach', 'signup', '--reason', 'e2e: back to the image build');
  }
});

test("a fragment with injected script, external or inline, even a copy of the page's own: none of it runs the attacker's code", async ({
  page,
}) => {
  expectConsoleErrors('the browser reports each script the CSP blocks');
  // The remote's origin is the attacker's: it serves the script and the fragment that names it.
  const root = wwwRoot('intro');
  const fragment = join(root, 'prerender', 'v1', 'en.html');
  const original = readFileSync(fragment, 'utf8');
  writeFileSync(join(root, 'evil.js'), 'window.__sgInjected = (window.__sgInjected || []).concat("external");');
  writeFileSync(
    fragment,
    `<script src="${remoteOrigin('intro')}/evil.js"></script>` +
      '<script>window.__sgInjected = (window.__sgInjected || []).concat("inline");</script>' +
      '<script nonce="<!--# echo var="request_id" -->">window.__sgInjected = (window.__sgInjected || []).concat("nonce");</script>' +
      // The page's own bootstrap, whose hash the CSP allows, with the attacker's files: another text, another hash.
      `<script>${pageBootstrapScript('/page-loader.deadbeef.js', '/main.deadbeef.js')}</script>` +
      // ...and a verbatim copy, which runs (its hash): it starts the host's own code, and only once.
      `<script>${/<script>([^<]*)<\/script>/.exec(readFileSync(join(wwwRoot('host'), 'page.shtml'), 'utf8'))?.[1] ?? ''}</script>` +
      original,
  );
  try {
    // The host keeps a fragment for a second: until its page has the injected one.
    await expect
      .poll(async () => (await (await page.request.get(`${HOST_URL}/`)).text()).includes('evil.js'), {
        timeout: 10_000,
      })
      .toBe(true);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) blocked.push(message.text());
    });
    await page.goto('/');
    await expect(page.getByText(SCREENS.intro.text.en).first()).toBeVisible();
    await page.waitForFunction(() => document.querySelector('[data-page-title]') !== null);
    expect(await page.evaluate(() => (window as unknown as { __sgInjected?: string[] }).__sgInjected)).toBeUndefined();
    expect(blocked.length, blocked.join('\n')).toBeGreaterThanOrEqual(4);
    // The page's own script ran (the app is up, above), once: the host's page loader and app only.
    // The copy of the bootstrap did not run: it would have asked for its loader and app.
    const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
    expect(fetched.filter((url) => /\/page-loader\.[0-9a-f]{8}\.js$/.test(url))).toHaveLength(1);
    expect(fetched.filter((url) => url.includes('deadbeef'))).toEqual([]);
  } finally {
    writeFileSync(fragment, original);
    rmSync(join(root, 'evil.js'), { force: true });
    // Until the host's copy of the fragment has expired: the next test's pages are clean.
    await expect
      .poll(async () => (await (await page.request.get(`${HOST_URL}/`)).text()).includes('evil.js'), {
        timeout: 10_000,
      })
      .toBe(false);
  }
});
