import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAGMENT_CACHE_SECONDS, FRAGMENT_TIMEOUT_MS } from '../../tooling/composition/composition';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { localRuntimeConfig } from '../../tooling/serve/runtime-config';
import { startStaticServer } from '../../tooling/serve/static-server';
import { buildRemoteVariant, removeRemoteVariant, setEnglishText } from '../support/build-variant';
import { deployBuild, distOf, wwwRoot } from '../support/nginx';
import { withRemoteFront } from '../support/remote-front';
import { API_URL, E2E_PORTS, HOST_URL } from '../support/topology';
import {
  expect,
  expectConsoleErrors,
  isBlockedWorkerNotice,
  pageTitle,
  test,
  waitForPreload,
} from '../support/fixtures';
import type { Page, Route } from '@playwright/test';

interface ScreenTexts {
  brand: string;
  headline: string;
  title: string;
  sections: { card: string };
  next: { title: string };
}
const texts = (dir: string, lang: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, dir, 'public', 'assets', 'i18n', `${lang}.json`), 'utf8')) as ScreenTexts;
/** Each route's page title (the toolbar's h1) and a line of its screen, in a language, from the remote's own texts. */
const ROUTES = [
  {
    path: '/',
    remote: 'intro',
    expected: (lang: string) => ({
      title: texts('remote-intro', lang).brand,
      text: texts('remote-intro', lang).headline,
    }),
  },
  {
    path: '/sign-up',
    remote: 'signup',
    expected: (lang: string) => ({
      title: texts('remote-signup', lang).title,
      text: texts('remote-signup', lang).sections.card,
    }),
  },
  {
    path: '/thank-you',
    remote: 'thankyou',
    expected: (lang: string) => ({
      title: texts('remote-thankyou', lang).title,
      text: texts('remote-thankyou', lang).next.title,
    }),
  },
] as const;
const LANGUAGES = [
  { lang: 'en', acceptLanguage: 'en-GB,en;q=0.9', dir: 'ltr' },
  { lang: 'fr', acceptLanguage: 'fr-CA,fr;q=0.9,en;q=0.8', dir: 'ltr' },
  { lang: 'ar', acceptLanguage: 'de-DE,ar;q=0.8,en;q=0.5', dir: 'rtl' },
] as const;

const pageHtml = async (page: Page, path: string, headers: Record<string, string> = {}) =>
  (await page.request.get(`${HOST_URL}${path}`, { headers })).text();
const h1Of = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];

/** Marks the server's DOM before any script runs: the mark surviving shows the page was hydrated, not re-rendered. */
async function markServerDom(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      for (const element of Array.from(document.querySelectorAll('[data-sg-screen] *')))
        (element as HTMLElement).dataset.fromServer = '';
    });
  });
}

test.describe('prerendered first screen, composed per request', () => {
  test('the page of each route carries its screen in the requested language, right-to-left for Arabic, without running a script', async ({
    page,
  }) => {
    for (const route of ROUTES) {
      for (const { lang, acceptLanguage, dir } of LANGUAGES) {
        const html = await pageHtml(page, route.path, { 'Accept-Language': acceptLanguage });
        expect(html, `${route.path} ${lang}`).toContain(
          `<html lang="${lang}" dir="${dir}" data-sg-builds="" data-sg-integrity="">`,
        );
        expect(h1Of(html), `${route.path} ${lang}`).toBe(route.expected(lang).title);
        expect(html).toContain(route.expected(lang).text);
        expect(html).toContain(`data-sg-screen="${route.remote}" data-sg-lang="${lang}"`);
        // The screen's stylesheet, through the host (bounded).
        expect(html).toContain(
          `<link rel="stylesheet" href="/_screen-files/${route.remote}/__federation_expose_Screen.`,
        );
        expect(html).not.toMatch(/<!--#/); // every directive was processed
      }
    }
    // The cookie that mirrors a stored choice wins over Accept-Language; a refused language (q=0) is skipped.
    expect(h1Of(await pageHtml(page, '/sign-up', { 'Accept-Language': 'en', Cookie: 'sg_lang=fr' }))).toBe(
      'Inscription',
    );
    expect(h1Of(await pageHtml(page, '/sign-up', { 'Accept-Language': 'fr;q=0, ar;q=0.5' }))).toBe('التسجيل');
    // Not a screen: the plain page, in the language, with no fragment.
    const notFound = await pageHtml(page, '/no-such-page', { 'Accept-Language': 'ar' });
    expect(notFound).toContain('<html lang="ar" dir="rtl" data-sg-builds="" data-sg-integrity="">');
    expect(notFound).not.toContain('data-sg-screen');
  });

  test('the same composition in `npm run up` (Node) as in the images (nginx)', async ({ page }) => {
    const node = await startStaticServer({
      root: join(REPO_ROOT, 'host', 'dist'),
      port: 0,
      spa: true,
      config: localRuntimeConfig(E2E_PORTS),
      // The same API as nginx's: the same snapshot, and a page token of its own (docs/telemetry.md).
      apiTarget: API_URL,
    });
    try {
      const address = node.address();
      const nodeUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      for (const route of ROUTES) {
        const variants: Array<Record<string, string>> = [
          { 'Accept-Language': 'fr-CA,fr;q=0.9' },
          { 'Accept-Language': 'es, ar;q=0.9' },
          { Cookie: 'sg_lang=en', 'Accept-Language': 'ar' },
          {},
        ];
        for (const headers of variants) {
          // Byte for byte: nothing in a page is per response (no nonce, no token).
          const fromNginx = await pageHtml(page, route.path, headers);
          const fromNode = await (await page.request.get(`${nodeUrl}${route.path}`, { headers })).text();
          expect(fromNode, `${route.path} ${JSON.stringify(headers)}`).toBe(fromNginx);
        }
        // The same CSP, its script named by the same hash (docs/security.md).
        const csp = async (url: string) => (await page.request.get(url)).headers()['content-security-policy'];
        expect(await csp(`${nodeUrl}${route.path}`), route.path).toBe(await csp(`${HOST_URL}${route.path}`));
      }
    } finally {
      await new Promise((resolve) => node.close(resolve));
    }
  });

  for (const { lang } of LANGUAGES) {
    test(`every route hydrates the server's HTML in ${lang}: kept in place, no error or warning, the rest preloads`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ locale: lang === 'en' ? 'en-US' : lang });
      try {
        for (const route of ROUTES) {
          const page = await context.newPage();
          const problems: string[] = [];
          page.on('console', (message) => {
            if (isBlockedWorkerNotice(message.text())) return;
            if (message.type() === 'error' || message.type() === 'warning')
              problems.push(`${message.type()}: ${message.text()}`);
          });
          page.on('pageerror', (error) => problems.push(error.message));
          await markServerDom(page);
          await page.goto(`${HOST_URL}${route.path}`);
          await waitForPreload(page); // starts after the first screen has hydrated
          await expect(pageTitle(page)).toHaveText(route.expected(lang).title);
          // The title is the server's element, now React's: hydrated, not replaced.
          await expect(pageTitle(page)).toHaveAttribute('data-from-server', '');
          expect(
            await pageTitle(page).evaluate((element) => Object.keys(element).some((key) => key.startsWith('__react'))),
          ).toBe(true);
          expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
          expect(problems, `${route.path} ${lang}`).toEqual([]);
          await page.close();
        }
      } finally {
        await context.close();
      }
    });
  }

  test('what is typed before the screen has hydrated is kept, and the form works with it', async ({ page }) => {
    // The host's code comes while the user types (it takes the screen into its layout), the
    // screen's code later still, as on a slow phone network.
    const late = (ms: number) => async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.continue();
    };
    await page.route(`${HOST_URL}/main.*.js`, late(800));
    await page.route(`http://localhost:${E2E_PORTS.signup}/__federation_expose_Screen.*.js`, late(3_500));
    await markServerDom(page);
    await page.goto('/sign-up', { waitUntil: 'commit' });
    await page.getByLabel('First name').pressSequentially('Ada Augusta', { delay: 120 });
    await page.getByLabel('Last name').pressSequentially('Lovelace', { delay: 20 });
    const hydrated = () =>
      page
        .getByLabel('First name')
        .evaluate((element) => Object.keys(element).some((key) => key.startsWith('__react')));
    expect(await hydrated(), 'typed before hydration').toBe(false);
    await expect.poll(hydrated).toBe(true);
    await expect(page.getByLabel('First name')).toHaveValue('Ada Augusta');
    await expect(page.getByLabel('Last name')).toHaveValue('Lovelace');
    await expect(page.getByLabel('First name')).toHaveAttribute('data-from-server', '');
    // The form's state has them: an empty submit stops at the first empty field after them.
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByLabel('Email')).toBeFocused();
    // And the draft saved from them comes back after a reload.
    await page.waitForTimeout(1_000);
    await page.reload();
    await expect(page.getByLabel('First name')).toHaveValue('Ada Augusta');
  });

  test('a tap on the screen before the app’s code has even started is kept and acted on', async ({ page }) => {
    const appRequested: number[] = [];
    page.on('request', (request) => /\/main\.[0-9a-f]+\.js$/.test(request.url()) && appRequested.push(Date.now()));
    // The app's bundle arrives late, as on a slow phone network.
    await page.route(`${HOST_URL}/main.*.js`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto('/');
    // The page's own loader runs first (it holds the tap); the app has not run yet.
    await expect
      .poll(() =>
        page.evaluate(
          () => document.querySelector('script[data-app]') !== null && !document.documentElement.dataset.interactive,
        ),
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Get started' }).click();
    expect(await page.evaluate(() => location.pathname), 'nothing happens before the code is there').toBe('/');
    await expect(page).toHaveURL(/\/sign-up$/, { timeout: 15_000 });
    await expect(pageTitle(page)).toHaveText('Sign up');
    expect(appRequested, 'the app is requested once (preloaded, then started by the loader)').toHaveLength(1);
  });

  test('a remote redeployed with a changed text: the next page shows it, the host untouched', async ({ page }) => {
    test.setTimeout(120_000);
    const changed = 'Thanks a million for signing up!';
    const variant = buildRemoteVariant('remote-thankyou', 'thankyou-prerender', (dir) =>
      setEnglishText(dir, 'title', changed),
    );
    const thankYouHeading = async () => h1Of(await pageHtml(page, '/thank-you', { 'Accept-Language': 'en' }));
    try {
      deployBuild('thankyou', variant);
      // Once the composer's cache of the old fragment has expired: nginx keeps time in whole
      // seconds, so a fragment cached for FRAGMENT_CACHE_SECONDS lives up to one second more.
      await expect.poll(thankYouHeading, { timeout: (FRAGMENT_CACHE_SECONDS + 2) * 1000 }).toBe(changed);
      await page.goto('/thank-you');
      await waitForPreload(page);
      await expect(pageTitle(page)).toHaveText(changed);
    } finally {
      deployBuild('thankyou', distOf('thankyou'));
      removeRemoteVariant('thankyou-prerender');
    }
    await expect.poll(thankYouHeading, { timeout: (FRAGMENT_CACHE_SECONDS + 2) * 1000 }).toBe('Thank you');
  });
});

/** The sign-up remote's fragments answer as `fault` says; every other file is served as usual. */
const withFaultyFragments = (
  fault: (respond: (status: number, body: string) => void) => void,
  run: () => Promise<void>,
) =>
  withRemoteFront(
    'signup',
    (req, res, forward) => {
      if (!req.url?.startsWith('/prerender/')) return forward();
      fault((status, body) => res.writeHead(status, { 'Content-Type': 'text/html' }).end(body));
    },
    run,
  );

test.describe('a fragment that cannot be had gives the client-rendered page, without an error', () => {
  const clientRendered = async (page: Page) => {
    const html = await pageHtml(page, '/sign-up');
    expect(html).not.toContain('data-sg-screen');
    expect(html).toContain('<html lang="en" dir="ltr" data-sg-builds="" data-sg-integrity="">');
    await page.goto('/sign-up');
    await expect(pageTitle(page)).toHaveText('Sign up');
    await expect(page.getByLabel('First name')).toBeEditable();
    await waitForPreload(page);
  };

  test('missing (404)', async ({ page }) => {
    const fragments = join(wwwRoot('signup'), 'prerender');
    rmSync(fragments, { recursive: true, force: true });
    try {
      await page.waitForTimeout(FRAGMENT_CACHE_SECONDS * 1000 + 200);
      await clientRendered(page);
    } finally {
      deployBuild('signup', distOf('signup'));
    }
  });

  test('built against another contract major: not composed; the page says the screen is being updated, as without prerendering', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    expectConsoleErrors('the incompatible remote is reported on the console');
    const nextMajor = buildRemoteVariant('remote-signup', 'signup-next-major', (dir) => {
      const file = join(dir, 'src', 'exposed-screen.ts');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          'contractVersion: CONTRACT_VERSION',
          'contractVersion: CONTRACT_VERSION + 1',
        ),
      );
    });
    // A whole new deployment (as an image replaces the last one): its fragments are under v2/ only.
    const replaceDeployment = (build: string) => {
      rmSync(wwwRoot('signup'), { recursive: true, force: true });
      deployBuild('signup', build);
    };
    try {
      replaceDeployment(nextMajor);
      await page.waitForTimeout(FRAGMENT_CACHE_SECONDS * 1000 + 200);
      expect(await pageHtml(page, '/sign-up')).not.toContain('data-sg-screen');
      await page.goto('/sign-up');
      await expect(page.getByRole('alert')).toContainText('This part of the app is being updated.');
    } finally {
      replaceDeployment(distOf('signup'));
      removeRemoteVariant('signup-next-major');
    }
  });

  test('failing (500)', async ({ page }) => {
    await withFaultyFragments(
      (respond) => respond(500, 'Internal Server Error'),
      () => clientRendered(page),
    );
  });

  test(`slower than the bound (${FRAGMENT_TIMEOUT_MS} ms): the page does not wait for it`, async ({ page }) => {
    let firstLateAnswerAt = Infinity;
    await withFaultyFragments(
      (respond) =>
        setTimeout(() => {
          firstLateAnswerAt = Math.min(firstLateAnswerAt, Date.now());
          respond(200, '<div data-sg-screen="signup" data-sg-lang="en">too late</div>');
        }, 5_000),
      async () => {
        const html = await pageHtml(page, '/sign-up');
        // An order, not a speed: the page was served before the fragment answered (a page that
        // waited would come after it, and hold its text).
        expect(Date.now()).toBeLessThan(firstLateAnswerAt);
        expect(html).not.toContain('too late');
        await clientRendered(page);
      },
    );
  });
});
