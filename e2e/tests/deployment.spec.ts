import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { buildRemoteVariant, removeRemoteVariant, setEnglishText } from '../support/build-variant';
import { deployBuild } from '../support/nginx';
import { E2E_PORTS, HOST_URL } from '../support/topology';
import { expect, expectConsoleErrors, pageTitle, test, waitForPreload } from '../support/fixtures';

const REMOTE_URL = `http://localhost:${E2E_PORTS.thankyou}`;
const REMOTE_ORIGINS = [E2E_PORTS.intro, E2E_PORTS.signup, E2E_PORTS.thankyou]
  .map((port) => `http://localhost:${port}`)
  .join(' ');
const hashedChunk = (dir: string) => {
  const name = readdirSync(join(REPO_ROOT, dir, 'dist')).find((file) => /\.[0-9a-f]{8}\.js$/.test(file));
  if (!name) throw new Error(`no hashed chunk in ${dir}/dist`);
  return name;
};

test.describe('served by nginx with the images’ config', () => {
  test("host pages: SPA deep links, no-cache, CSP naming the page's one script by hash, security headers", async ({
    request,
  }) => {
    for (const path of ['/', '/sign-up']) {
      const response = await request.get(`${HOST_URL}${path}`);
      expect(response.status(), path).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/<div id="?root"?>/);
      const headers = response.headers();
      // private: a composed page names the builds of the visitor's canary bucket (docs/releases.md).
      expect(headers['cache-control']).toBe('private, no-cache');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      const csp = headers['content-security-policy'] ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      // The page's own script by its hash (the host's build wrote it), and only what it loads (docs/security.md).
      const script = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
      const hash = createHash('sha256').update(script).digest('base64');
      expect(csp).toContain(`script-src 'sha256-${hash}' 'strict-dynamic' 'self' ${REMOTE_ORIGINS};`);
      expect(html.match(/<script/g)).toHaveLength(1);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain(`connect-src 'self' ${REMOTE_ORIGINS};`);
    }
    for (const path of ['/assets/i18n/en.json', '/config.json']) {
      expect((await request.get(`${HOST_URL}${path}`)).headers()['cache-control'], path).toBe('no-cache');
    }
    const config = await request.get(`${HOST_URL}/config.json`);
    expect(config.headers()['cache-control']).toBe('no-cache');
    expect((await config.json()) as unknown).toMatchObject({
      apiBase: '/api/v1',
      remotes: { thankyou: `${REMOTE_URL}/remoteEntry.js` },
    });
    expect((await request.get(`${HOST_URL}/missing.js`)).status()).toBe(404);
  });

  test("each route's page carries a preload hint for the remoteEntry.js that renders it, and the browser uses it", async ({
    page,
    request,
  }) => {
    const routes = [
      { path: '/', remote: 'intro', title: 'Special Gift' },
      { path: '/sign-up?card=4111111111111111', remote: 'signup', title: 'Sign up' },
      { path: '/thank-you', remote: 'thankyou', title: 'Thank you' },
    ] as const;
    const cdp = await page.context().newCDPSession(page);
    for (const { path, remote, title } of routes) {
      await cdp.send('Network.clearBrowserCache'); // a first visit: nothing cached by the last page
      const entry = `http://localhost:${E2E_PORTS[remote]}/remoteEntry.js`;
      const entryRequests: string[] = [];
      const listener = (r: { url(): string }) => {
        if (r.url().endsWith('/remoteEntry.js')) entryRequests.push(r.url());
      };
      page.on('request', listener);
      const response = await page.goto(path);
      expect(response?.headers().link, path).toBe(`<${entry}>; rel=preload; as=script; crossorigin=anonymous`);
      await expect(pageTitle(page)).toHaveText(title);
      // The hinted entry is the first one fetched, and only once: the runtime used the preload.
      expect(entryRequests[0], path).toBe(entry);
      expect(
        entryRequests.filter((url) => url === entry),
        path,
      ).toHaveLength(1);
      await waitForPreload(page); // so the next page's count does not catch this one's preload
      page.off('request', listener);
    }
    // Not a route: no hint.
    expect((await request.get(`${HOST_URL}/no-such-page`)).headers().link).toBeUndefined();
  });

  test('hashed chunks are immutable for a year and gzipped; entry files revalidate', async ({ request }) => {
    const hostChunk = await request.get(`${HOST_URL}/${hashedChunk('host')}`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(hostChunk.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hostChunk.headers()['content-encoding']).toBe('gzip');

    const origin = { Origin: HOST_URL, 'Accept-Encoding': 'gzip' };
    for (const file of ['mf-manifest.json', 'remoteEntry.js', 'assets/i18n/en.json']) {
      const response = await request.get(`${REMOTE_URL}/${file}`, { headers: origin });
      expect(response.status(), file).toBe(200);
      expect(response.headers()['cache-control'], file).toBe('no-cache');
      expect(response.headers()['access-control-allow-origin'], file).toBe(HOST_URL);
    }
    const chunk = await request.get(`${REMOTE_URL}/${hashedChunk('remote-thankyou')}`, { headers: origin });
    expect(chunk.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(chunk.headers()['access-control-allow-origin']).toBe(HOST_URL);
    expect(chunk.headers()['content-encoding']).toBe('gzip');
    expect(chunk.headers()['x-content-type-options']).toBe('nosniff');
    // CORS is the host's origin only, never a wildcard.
    expect(chunk.headers()['access-control-allow-origin']).not.toBe('*');
  });

  test('the API is reached same-origin under /api/ through the host', async ({ request }) => {
    const response = await request.get(`${HOST_URL}/api/v1/health`);
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers()['set-cookie']).toMatch(/XSRF-TOKEN=[^;]+; Path=\/; SameSite=Strict/);
  });
});

test.describe('independent deployment', () => {
  test.setTimeout(120_000);
  test.afterAll(() => removeRemoteVariant('thankyou'));

  test('a remote built against another contract major is refused with a clear screen, not run', async ({ page }) => {
    expectConsoleErrors('the incompatible remote is reported on the console');
    const incompatible = buildRemoteVariant('remote-thankyou', 'thankyou', (dir) => {
      const file = join(dir, 'src', 'exposed-screen.ts');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          'contractVersion: CONTRACT_VERSION',
          'contractVersion: CONTRACT_VERSION + 1',
        ),
      );
    });
    deployBuild('thankyou', incompatible);
    try {
      await page.goto('/thank-you');
      await expect(page.getByRole('alert')).toContainText('This part of the app is being updated.');
      await expect(page.getByRole('heading', { name: 'Thank you for signing up!' })).toHaveCount(0);
    } finally {
      deployBuild('thankyou', join(REPO_ROOT, 'remote-thankyou', 'dist'));
    }
    // The incompatible container is already initialised in this page: Try again reloads it.
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you for signing up!' })).toBeVisible();
  });

  test('a redeployed remote shows on the next load without touching the host; an open tab keeps working; rollback', async ({
    page,
    context,
  }) => {
    const original = 'Thank you for signing up!';
    const changed = 'Thanks a million for signing up!';

    // A tab opened before the deploy, with everything preloaded.
    await page.goto('/');
    await waitForPreload(page);
    const hostPageEtag = (await page.request.get(`${HOST_URL}/`)).headers()['etag'];

    const v2 = buildRemoteVariant('remote-thankyou', 'thankyou', (dir) =>
      setEnglishText(dir, 'headlineGeneric', changed),
    );
    const fresh = await context.newPage();
    deployBuild('thankyou', v2);
    try {
      await fresh.goto('/thank-you');
      await expect(fresh.getByRole('heading', { name: changed })).toBeVisible();
      // The host was neither rebuilt nor restarted: it serves the very same page.
      expect((await fresh.request.get(`${HOST_URL}/`)).headers()['etag']).toBe(hostPageEtag);

      // The old tab still works: it moves to the thank-you screen it preloaded before the deploy.
      await page.evaluate(() => window.history.pushState(null, '', '/thank-you'));
      await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
      await expect(pageTitle(page)).toHaveText('Thank you');
      await expect(page.getByRole('heading', { name: original })).toBeVisible();
      // ... and after a reload it gets the new version cleanly.
      await page.reload();
      await expect(page.getByRole('heading', { name: changed })).toBeVisible();
    } finally {
      // Rollback: deploy the previous build the same way (also when a check above failed, so the
      // other specs see the real remote).
      deployBuild('thankyou', join(REPO_ROOT, 'remote-thankyou', 'dist'));
    }
    await fresh.reload();
    await expect(fresh.getByRole('heading', { name: original })).toBeVisible();
  });
});
