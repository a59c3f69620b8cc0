import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { devices, type Browser, type BrowserContext, type Page } from '@playwright/test';
import en from '../../remote-signup/public/assets/i18n/en.json';
import { buildRemoteVariant, removeRemoteVariant, setEnglishText } from '../support/build-variant';
import { launchWithFakeCamera, writeQrVideo } from '../support/fake-camera';
import {
  expect,
  isBlockedWorkerNotice,
  pageTitle,
  test,
  waitForInteractive,
  waitForPreload,
} from '../support/fixtures';
import { deployBuild, distOf, wwwRoot } from '../support/nginx';
import { buildsInHtml, pageBuilds, publish, release, releaseNow } from '../support/releases';
import { newCardCode } from '../support/sign-up';
import { BUILD_STORE_DIR, E2E_OPERATOR_TOKEN, E2E_PORTS, HOST_URL } from '../support/topology';
import { restoreSuiteState } from '../support/suite-state';

/**
 * Releases under live traffic (docs/releases.md), with the suite's nginx servers and API: two
 * published builds of the sign-up remote, A (this checkout's) and B (its title and scanner changed), moved
 * between by the team's commands. Each test starts from A live; the last step hands the remote
 * back to its own build, so the other specs see the servers as they were.
 */
const CARD_SCAN_BASE = 'https://www.special-gift.example/scan';
const SIGNUP_ORIGIN = `http://localhost:${E2E_PORTS.signup}`;
const TITLE_A = en.title;
const TITLE_B = 'Sign up for your gift';
const { defaultBrowserType: _, ...pixel7 } = devices['Pixel 7'];

let buildA = '';
let buildB = '';
let variantDist = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // B: its title changed, and its card-scanner chunk (its own code), as a team's next build.
  variantDist = buildRemoteVariant('remote-signup', 'signup-release-b', (dir) => {
    setEnglishText(dir, 'title', TITLE_B);
    const scanner = join(dir, 'src', 'card-scanner', 'card-scanner.tsx');
    writeFileSync(scanner, readFileSync(scanner, 'utf8').replace('SCAN_INTERVAL_MS = 120', 'SCAN_INTERVAL_MS = 121'));
  });
  buildA = publish('signup', distOf('signup'));
  buildB = publish('signup', variantDist);
  expect(buildA).toMatch(/^[0-9a-f]{12}$/);
  expect(buildB).not.toBe(buildA);
  // Publishing the same files again is the same build.
  expect(publish('signup', distOf('signup'))).toBe(buildA);
});

test.beforeEach(() => {
  release('release', 'signup', buildA, '--reason', 'e2e: start from A');
});

test.afterAll(async () => {
  removeRemoteVariant('signup-release-b');
  await restoreSuiteState();
});

/** A page of a fresh context: a phone, the suite's host. */
async function freshPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...pixel7, baseURL: HOST_URL });
  return { context, page: await context.newPage() };
}

/** Polls new page loads (HTTP, one browser's bucket) until `done` holds; the time it took. */
async function untilNewPages(done: (builds: Record<string, string>) => boolean, bucket = 50): Promise<number> {
  const started = Date.now();
  for (;;) {
    const html = await (await fetch(`${HOST_URL}/sign-up`, { headers: { Cookie: `sg_bucket=${bucket}` } })).text();
    if (done(buildsInHtml(html))) return Date.now() - started;
    if (Date.now() - started > 10_000) throw new Error('new pages never followed the release');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test.describe('an open tab across a release', () => {
  const code = newCardCode();
  let browser: Browser;
  test.beforeAll(async () => {
    browser = await launchWithFakeCamera(writeQrVideo(`${CARD_SCAN_BASE}/${code}`, 'release-scan'), {
      grantCamera: true,
    });
  });
  test.afterAll(() => browser.close());

  test("keeps its build: with the previous build's files gone from the remote's origin, it still scans a card; a new tab gets the new build", async () => {
    const { context, page } = await freshPage(browser);
    const signupRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(SIGNUP_ORIGIN)) signupRequests.push(request.url());
    });
    await page.goto('/sign-up');
    expect((await pageBuilds(page)).signup).toBe(buildA);
    await expect(pageTitle(page)).toHaveText(TITLE_A);
    await waitForPreload(page);

    // The team releases B, and its image (B) replaces A's files at the remote's root.
    release('release', 'signup', buildB, '--reason', 'e2e: ship B');
    rmSync(wwwRoot('signup'), { recursive: true, force: true });
    deployBuild('signup', variantDist);
    await untilNewPages((builds) => builds.signup === buildB);

    await page.locator('#signup-firstName').fill('Amira');
    await page.locator('.signup__scan button').click();
    await expect(page.locator('#signup-cardCode')).toHaveValue(code.replace(/(\d{4})(?=\d)/g, '$1 '), {
      timeout: 15_000,
    });
    await expect(page.locator('#signup-firstName')).toHaveValue('Amira');
    // Everything the tab fetched of the remote came from A's folder: never a file of B.
    expect(signupRequests.length).toBeGreaterThan(3);
    expect(signupRequests.filter((url) => !url.startsWith(`${SIGNUP_ORIGIN}/builds/${buildA}/`))).toEqual([]);
    expect(signupRequests.some((url) => /card-scanner\.[0-9a-f]+\.js$/.test(url))).toBe(true);

    const { page: newTab } = await freshPage(browser);
    await newTab.goto('/sign-up');
    expect((await pageBuilds(newTab)).signup).toBe(buildB);
    await expect(pageTitle(newTab)).toHaveText(TITLE_B);
    await waitForInteractive(newTab);
    await context.close();
  });

  test("past its build's retention, moves to the live build at once, keeps what was typed and never blames the camera or the connection", async () => {
    const { context, page } = await freshPage(browser);
    await page.goto('/sign-up');
    expect((await pageBuilds(page)).signup).toBe(buildA);
    await waitForPreload(page);
    await page.locator('#signup-firstName').fill('Amira');
    await page.locator('#signup-email').fill('amira@example.com');

    release('release', 'signup', buildB, '--reason', 'e2e: ship B');
    // A's files leave the store, as its retention would let them.
    rmSync(join(BUILD_STORE_DIR, 'signup', buildA), { recursive: true, force: true });
    await untilNewPages((builds) => builds.signup === buildB);

    const cameraBlamed = page.getByText(en.scanner.camera.failed);
    const connectionBlamed = page.getByText(en.scanner.notLoaded);
    const reloaded = page.waitForEvent('framenavigated', { timeout: 15_000 });
    await page.locator('.signup__scan button').click();
    // The screen says the page is updating (not the camera, not the connection), then moves to B.
    await expect(page.getByText(en.scanner.updating)).toBeVisible();
    await expect(connectionBlamed).toHaveCount(0);
    await reloaded;
    await page.waitForLoadState();
    expect((await pageBuilds(page)).signup).toBe(buildB);
    await expect(pageTitle(page)).toHaveText(TITLE_B);
    await expect(page.locator('#signup-firstName')).toHaveValue('Amira');
    await expect(page.locator('#signup-email')).toHaveValue('amira@example.com');
    await expect(cameraBlamed).toHaveCount(0);

    // On B the scanner works again.
    await waitForInteractive(page);
    await page.locator('.signup__scan button').click();
    await expect(page.locator('#signup-cardCode')).toHaveValue(code.replace(/(\d{4})(?=\d)/g, '$1 '), {
      timeout: 15_000,
    });
    await context.close();
    // Put A back in the store for the next tests (publishing is idempotent).
    expect(publish('signup', distOf('signup'))).toBe(buildA);
  });
});

test('a rollback shows on the next page load within 2 s', async () => {
  release('release', 'signup', buildB, '--reason', 'e2e: ship B');
  await untilNewPages((builds) => builds.signup === buildB);
  release('rollback', 'signup', '--reason', 'e2e: B is bad');
  const elapsed = await untilNewPages((builds) => builds.signup === buildA);
  console.log(`releases: rollback command done → new pages on the previous build in ${elapsed} ms`);
  expect(elapsed).toBeLessThan(2_000);
  expect(release('history', 'signup')).toContain('rollback');
});

/**
 * The bounds a share of 20 % over 200 independent first visits stays inside but with probability
 * 1e-4 on each side (exact binomial): a correct split fails this test once in 5,000 runs.
 */
function binomialBounds(n: number, p: number, tail: number): [number, number] {
  const pmf: number[] = [];
  let value = (1 - p) ** n;
  for (let k = 0; k <= n; k += 1) {
    pmf.push(value);
    value *= ((n - k) / (k + 1)) * (p / (1 - p));
  }
  let low = 0;
  for (let sum = pmf[0] ?? 0; sum + (pmf[low + 1] ?? 0) <= tail; sum += pmf[++low] ?? 0);
  let high = n;
  for (let sum = pmf[n] ?? 0; sum + (pmf[high - 1] ?? 0) <= tail; sum += pmf[--high] ?? 0);
  return [low + 1, high - 1];
}

test("a canary at 20 % reaches its share of 200 first visits, sticky on reload in a browser; a preview is its own browser's only", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  release('canary', 'signup', buildB, '--percent', '20', '--reason', 'e2e: canary B');
  await untilNewPages((builds) => builds.signup === buildB, 0);
  // The split is the composer's: a first visit (no bucket cookie) is given a bucket and composed
  // for it. So the share is counted on 200 first visits over HTTP, one after another (a browser
  // adds nothing there and its cost grows with the machine; many at once would outrun the
  // composer's bound on the API's snapshot, and such a page gets the image build by design), and
  // real browsers check the part that is theirs: they keep the bucket cookie, and a reload gets
  // the same build.
  const visits = 200;
  let canary = 0;
  let revisits = 0;
  for (let visit = 0; visit < visits; visit += 1) {
    const response = await fetch(`${HOST_URL}/sign-up`);
    const bucket = /sg_bucket=(\d+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    const build = buildsInHtml(await response.text()).signup;
    expect(bucket, 'a first visit is given a bucket').toBeDefined();
    expect([buildA, buildB]).toContain(build);
    if (build === buildB) canary += 1;
    if (visit % 20 === 0) {
      const again = await fetch(`${HOST_URL}/sign-up`, { headers: { Cookie: `sg_bucket=${bucket}` } });
      expect(buildsInHtml(await again.text()).signup, 'the same build for the same bucket').toBe(build);
      revisits += 1;
    }
  }
  const [low, high] = binomialBounds(visits, 0.2, 1e-4);
  console.log(
    `releases: canary at 20 % → ${canary} of ${visits} first visits (${((100 * canary) / visits).toFixed(1)} %; bounds ${low}-${high}); ${revisits} revisits kept their build`,
  );
  expect(canary).toBeGreaterThanOrEqual(low);
  expect(canary).toBeLessThanOrEqual(high);
  for (let i = 0; i < 3; i += 1) {
    const context = await browser.newContext({ baseURL: HOST_URL });
    const page = await context.newPage();
    await page.goto('/sign-up');
    const first = (await pageBuilds(page)).signup;
    expect([buildA, buildB]).toContain(first);
    expect((await context.cookies()).some((cookie) => cookie.name === 'sg_bucket' && cookie.httpOnly)).toBe(true);
    await page.reload();
    expect((await pageBuilds(page)).signup, 'the same build on reload').toBe(first);
    await context.close();
  }

  // Preview: B, in the team member's browser only, set on the preview page with the token.
  release('abort', 'signup', '--reason', 'e2e: end the canary');
  await untilNewPages((builds) => builds.signup === buildA, 0);
  const team = await browser.newContext({ baseURL: HOST_URL });
  const teamPage = await team.newPage();
  await teamPage.goto('/api/v1/releases/preview');
  await teamPage.getByLabel(/remote/i).fill('signup');
  await teamPage.getByLabel(/build/i).fill(buildB);
  await teamPage.getByLabel(/token/i).fill(E2E_OPERATOR_TOKEN);
  await teamPage
    .getByRole('button', { name: /preview/i })
    .first()
    .click();
  await expect(teamPage.getByRole('status')).toContainText(buildB);
  await teamPage.goto('/sign-up');
  expect((await pageBuilds(teamPage)).signup).toBe(buildB);

  const someoneElse = await browser.newContext({ baseURL: HOST_URL });
  const theirPage = await someoneElse.newPage();
  await theirPage.goto('/sign-up');
  expect((await pageBuilds(theirPage)).signup).toBe(buildA);

  // A third-party page tries to set the preview in this other browser: a form posted to the API
  // (the request a page may send anywhere), and a fetch with the token header (CORS stops it).
  await theirPage.route('http://third-party.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<form method="post" action="${HOST_URL}/api/v1/releases/preview" enctype="text/plain">
        <input name='{"remote":"signup","buildId":"${buildB}","x":"' value='"}'></form>
        <script>
          fetch('${HOST_URL}/api/v1/releases/preview', { method: 'POST', credentials: 'include',
            headers: { 'Content-Type': 'application/json', Authorization: 'Bearer guessed-token' },
            body: '{"remote":"signup","buildId":"${buildB}"}' }).catch(() => undefined);
          setTimeout(() => document.forms[0].submit(), 300);
        </script>`,
    }),
  );
  const posted = theirPage.waitForResponse(
    (response) =>
      response.url().endsWith('/api/v1/releases/preview') && response.request().resourceType() === 'document',
  );
  await theirPage.goto('http://third-party.test/');
  expect((await posted).status(), 'the form post is refused').toBe(403);
  await theirPage.waitForURL(`${HOST_URL}/api/v1/releases/preview`); // the refusal's page, shown
  await theirPage.goto(`${HOST_URL}/sign-up`);
  expect((await pageBuilds(theirPage)).signup, 'a third party cannot turn a preview on').toBe(buildA);
  expect(
    (await someoneElse.cookies()).filter((cookie) => cookie.name === 'sg_preview'),
    'no preview cookie in the other browser',
  ).toEqual([]);
  await team.close();
  await someoneElse.close();
});

test('pages composed while the pointer flips, under a load of page requests, hydrate with 0 warnings and agree with their snapshot', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  let flipping = true;
  let flips = 0;
  let loadPages = 0;
  const flipper = (async () => {
    while (flipping) {
      await releaseNow('signup', flips % 2 === 0 ? buildB : buildA);
      flips += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  })();
  const load = Array.from({ length: 4 }, async (_, worker) => {
    while (flipping) {
      const response = await fetch(`${HOST_URL}/sign-up`, { headers: { Cookie: `sg_bucket=${worker * 20}` } });
      expect(response.status).toBe(200);
      await response.text();
      loadPages += 1;
    }
  });

  const warnings: string[] = [];
  const pages = { total: 0, onA: 0, onB: 0 };
  const context = await browser.newContext({ ...pixel7, baseURL: HOST_URL });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type()) && !isBlockedWorkerNotice(message.text()))
      warnings.push(message.text());
  });
  page.on('pageerror', (error) => warnings.push(error.message));
  const started = Date.now();
  while (pages.total < 30 || Date.now() - started < 20_000) {
    if (Date.now() - started > 150_000) break;
    await page.goto('/sign-up');
    const build = (await pageBuilds(page)).signup;
    // The whole page's life: hydrated, then every other remote preloaded (a later goto cuts nothing).
    await waitForPreload(page);
    await expect(pageTitle(page)).toHaveText(build === buildB ? TITLE_B : TITLE_A);
    pages.total += 1;
    if (build === buildB) pages.onB += 1;
    else pages.onA += 1;
  }
  flipping = false;
  await flipper;
  await Promise.all(load);
  await context.close();
  console.log(
    `releases: ${flips} pointer flips while ${pages.total} browser pages (${pages.onA} on A, ${pages.onB} on B) and ${loadPages} page requests were composed; hydration warnings: ${warnings.length}`,
  );
  expect(warnings).toEqual([]);
  expect(flips).toBeGreaterThanOrEqual(20);
  expect(pages.onA).toBeGreaterThan(0);
  expect(pages.onB).toBeGreaterThan(0);
});

test.describe('every deploy is a release: an open tab across an image roll, with no release pointer', () => {
  let browser: Browser;
  test.beforeAll(async () => {
    // A camera, so the sign-up screen offers Scan card.
    browser = await launchWithFakeCamera(writeQrVideo(`${CARD_SCAN_BASE}/${newCardCode()}`, 'roll-scan'), {
      grantCamera: true,
    });
  });
  test.afterAll(() => browser.close());

  test('the scanner says the page is updating (never the connection), the tab reloads onto the new build, and what was typed is kept', async () => {
    // The image's own build is A (the tests above left B's files at the root), and no pointer.
    rmSync(wwwRoot('signup'), { recursive: true, force: true });
    deployBuild('signup', distOf('signup'));
    release('detach', 'signup', '--reason', 'e2e: pages get the image build');
    await untilNewPages((builds) => builds.signup === undefined);
    const { context, page } = await freshPage(browser);
    try {
      await page.goto('/sign-up');
      expect((await pageBuilds(page)).signup).toBeUndefined();
      await expect(pageTitle(page)).toHaveText(TITLE_A);
      await waitForPreload(page);
      await page.locator('#signup-firstName').fill('Amira');
      await page.locator('#signup-email').fill('amira@example.com');

      // The image rolls to B (or `npm run up` rebuilds in place): its files replace A's at the
      // remote's root, and A's scanner chunk is gone.
      rmSync(wwwRoot('signup'), { recursive: true, force: true });
      deployBuild('signup', variantDist);

      const connectionBlamed = page.getByText(en.scanner.notLoaded);
      const reloaded = page.waitForEvent('framenavigated', { timeout: 15_000 });
      await page.locator('.signup__scan button').click();
      await expect(page.getByText(en.scanner.updating)).toBeVisible();
      await expect(connectionBlamed).toHaveCount(0);
      await reloaded;
      await page.waitForLoadState();
      await expect(pageTitle(page)).toHaveText(TITLE_B);
      await expect(page.locator('#signup-firstName')).toHaveValue('Amira');
      await expect(page.locator('#signup-email')).toHaveValue('amira@example.com');
    } finally {
      await context.close();
      rmSync(wwwRoot('signup'), { recursive: true, force: true });
      deployBuild('signup', distOf('signup'));
      // As the other tests left it: A live (the file's last step detaches).
      release('release', 'signup', buildA, '--reason', 'e2e: back to A');
    }
  });
});
